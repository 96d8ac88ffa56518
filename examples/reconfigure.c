/* SPDX-License-Identifier: MIT */
/*
 * reconfigure.c - disable_irq() / enable_irq() around a reconfiguration.
 *
 * A driver changes state that its handler reads: here the size of a receive
 * ring and its index mask, two fields that only make sense together. Writing
 * them takes a while (the chip is reprogrammed in between), and the handler
 * must never see one new and one old. With no lock of its own to share with
 * the handler, the driver switches the line off around the change:
 *
 *	disable_irq(irq);	the line is off, and a handler that was running
 *				has finished when this returns (REQ-DEPTH-1)
 *	change the configuration;
 *	enable_irq(irq);	an interrupt that came meanwhile was held, and
 *				runs now, on this CPU, once (REQ-DEPTH-3,
 *				REQ-DISPATCH-7)
 *
 * Nothing is lost: every event the device raised while the line was off is
 * served after enable_irq(). The check: the driver switches the line off
 * while a handler is in the middle of its work, ten times; no handler ever
 * sees a torn configuration, none runs while the line is off, a held
 * interrupt is replayed by enable_irq() itself, and at the end the handler
 * has served exactly as many events as the device raised.
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include "example.h"

#define RX_IRQ		7
#define ROUNDS		10
#define REPROGRAM_US	200	/* between writing the two fields */
#define COPY_US		300	/* how long a handler works on the ring */

struct rx_ring {
	unsigned long size;		/* a power of two ... */
	unsigned long mask;		/* ... and size - 1; read together by the handler */
};

struct rx_dev {
	struct rx_ring ring;		/* changed by the driver with the line off */
	unsigned long head;		/* ring position, wraps with the mask */
	unsigned long torn;		/* the handler saw mask != size - 1 */
	_Atomic int inside;		/* a handler is running */
	_Atomic unsigned long calls;	/* handler calls (the driver watches them) */
	_Atomic unsigned long events;	/* events served */
};

static struct rx_dev rx = { .ring = { 256, 255 } };

static irqreturn_t rx_interrupt(void *dev_id)
{
	struct rx_dev *d = dev_id;
	unsigned long n = ex_device_ack(0), size, mask;

	atomic_store(&d->inside, 1);
	atomic_fetch_add(&d->calls, 1UL);
	size = d->ring.size;
	ex_delay_us(COPY_US);			/* copy the new packets out of the ring */
	mask = d->ring.mask;
	if (mask != size - 1)
		d->torn++;
	d->head = (d->head + n) & mask;
	atomic_fetch_add(&d->events, n);
	atomic_store(&d->inside, 0);
	return n ? IRQ_HANDLED : IRQ_NONE;
}

static int line_holds_an_interrupt(void)
{
	struct irq_stats st;

	return irq_stats(RX_IRQ, &st) == 0 && (st.status & IRQS_PENDING);
}

int example_main(void)
{
	unsigned long ran_while_off = 0, not_replayed = 0, calls, size = 256;
	int round;

	irqsync_init();
	if (request_irq(RX_IRQ, rx_interrupt, 0, "rx", &rx) != 0) {
		ex_puts("FAIL: request_irq\n");
		return 1;
	}
	ex_device_start(0, RX_IRQ);

	for (round = 0; round < ROUNDS; round++) {
		/* the worst moment: a handler is in the middle of its work */
		if (!ex_wait_until(atomic_load(&rx.inside)))
			break;

		if (disable_irq(RX_IRQ) != 0)
			break;
		if (atomic_load(&rx.inside))
			ran_while_off++;		/* disable_irq did not wait for it */
		calls = atomic_load(&rx.calls);

		size = size == 256 ? 1024 : 256;
		rx.ring.size = size;
		ex_delay_us(REPROGRAM_US);
		rx.ring.mask = size - 1;

		/* the device keeps raising the line: the interrupt is held */
		if (!ex_wait_until(line_holds_an_interrupt()))
			break;
		if (atomic_load(&rx.calls) != calls)
			ran_while_off++;

		if (enable_irq(RX_IRQ) != 0)
			break;
		if (atomic_load(&rx.calls) == calls)
			not_replayed++;			/* enable_irq() ran it, here */
	}

	/* the end: stop the device, and wait until its last events are served */
	ex_device_stop(0);
	(void)ex_wait_until(atomic_load(&rx.events) == ex_device_raised(0));
	(void)free_irq(RX_IRQ, &rx);

	ex_puts("reconfigure: ");
	ex_putu((unsigned long)round);
	ex_puts(" reconfigurations; the device raised ");
	ex_putu(ex_device_raised(0));
	ex_puts(" events, the handler served ");
	ex_putu(atomic_load(&rx.events));
	ex_puts(" in ");
	ex_putu(atomic_load(&rx.calls));
	ex_puts(" calls\n");

	if (round != ROUNDS) {
		ex_puts("FAIL: a wait timed out or a call failed in reconfiguration ");
		ex_putu((unsigned long)round + 1);
		ex_puts("\n");
		return 1;
	}
	if (rx.torn || ran_while_off) {
		ex_puts("FAIL: a handler ran while the line was disabled (");
		ex_putu(ran_while_off);
		ex_puts(" times; ");
		ex_putu(rx.torn);
		ex_puts(" torn configurations seen)\n");
		return 1;
	}
	if (not_replayed || atomic_load(&rx.events) != ex_device_raised(0)) {
		ex_puts("FAIL: an interrupt held while disabled was lost\n");
		return 1;
	}
	ex_puts("PASS: the handler never saw a half-written configuration and lost no event\n");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * shared_free.c - one device leaves a shared line while the other keeps interrupting.
 *
 * Two devices share one interrupt line (two PCI functions on one INTx pin,
 * two UARTs on one GPIO). Both drivers request it with IRQF_SHARED and a
 * dev_id of their own; on every interrupt the dispatcher calls both handlers,
 * and each asks its own device "was it you?" (REQ-DISPATCH-4).
 *
 * Device A is unplugged: its driver silences the device, then calls
 * free_irq(line, &a). Device B goes on interrupting throughout, and A's
 * handler is still being called for B's interrupts until the very end - it
 * may be running on CPU 1 at the moment free_irq() is called on CPU 0.
 * free_irq() promises that
 *   - only A's action goes; B's stays and is still called (REQ-LIFECYCLE-4);
 *   - when it returns, A's handler is not running and never runs again, so
 *     A's driver may free the memory its handler uses (REQ-LIFECYCLE-5).
 * Then A is plugged in again (request_irq) and the round repeats.
 *
 * A's handler reads a slow status register (a bus access of 300 us, an
 * exaggeration), and A is unplugged while that handler runs.
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include "example.h"

#define SHARED_IRQ	5
#define DEV_A		0
#define DEV_B		1
#define ROUNDS		10
#define SLOW_READ_US	300

struct dev {
	unsigned int nr;		/* the device behind this driver */
	_Atomic int inside;		/* its handler is running */
	_Atomic unsigned long calls;	/* handler calls (for any device's interrupt) */
	_Atomic unsigned long served;	/* calls that found its own device's events */
};

static struct dev a = { .nr = DEV_A }, b = { .nr = DEV_B };

static irqreturn_t dev_interrupt(void *dev_id)
{
	struct dev *d = dev_id;
	irqreturn_t ret = IRQ_NONE;

	atomic_store(&d->inside, 1);
	atomic_fetch_add(&d->calls, 1UL);
	if (d == &a)
		ex_delay_us(SLOW_READ_US);
	if (ex_device_ack(d->nr) != 0) {	/* was it my device? */
		atomic_fetch_add(&d->served, 1UL);
		ret = IRQ_HANDLED;
	}
	atomic_store(&d->inside, 0);
	return ret;
}

static unsigned int nr_actions(void)
{
	struct irq_stats st;

	return irq_stats(SHARED_IRQ, &st) == 0 ? st.nr_actions : 0U;
}

int example_main(void)
{
	unsigned long a_calls, b_served, a_served;
	unsigned long late_calls = 0, b_starved = 0, bad_count = 0, running = 0;
	int round;

	irqsync_init();
	if (request_irq(SHARED_IRQ, dev_interrupt, IRQF_SHARED, "dev-a", &a) != 0 ||
	    request_irq(SHARED_IRQ, dev_interrupt, IRQF_SHARED, "dev-b", &b) != 0) {
		ex_puts("FAIL: request_irq\n");
		return 1;
	}
	ex_device_start(DEV_A, SHARED_IRQ);
	ex_device_start(DEV_B, SHARED_IRQ);

	for (round = 0; round < ROUNDS; round++) {
		/* both devices are served on the shared line */
		a_served = atomic_load(&a.served);
		if (!ex_wait_until(atomic_load(&a.served) >= a_served + 3 &&
				   atomic_load(&b.served) >= 3))
			break;

		/* Unplug A: silence the device, then remove its handler - at the worst
		 * moment, while A's handler runs (called for one of B's interrupts). */
		ex_device_stop(DEV_A);
		if (!ex_wait_until(atomic_load(&a.inside)))
			break;
		if (free_irq(SHARED_IRQ, &a) != 0)
			break;
		if (atomic_load(&a.inside))
			running++;		/* free_irq returned under a running handler */
		a_calls = atomic_load(&a.calls);
		if (nr_actions() != 1)
			bad_count++;

		/* B keeps interrupting, and is served; A's handler is never called */
		b_served = atomic_load(&b.served);
		if (!ex_wait_until(atomic_load(&b.served) >= b_served + 5))
			b_starved++;
		if (atomic_load(&a.calls) != a_calls)
			late_calls++;

		/* plug A in again */
		if (request_irq(SHARED_IRQ, dev_interrupt, IRQF_SHARED, "dev-a", &a) != 0)
			break;
		if (nr_actions() != 2)
			bad_count++;
		ex_device_start(DEV_A, SHARED_IRQ);
	}

	ex_device_stop(DEV_A);
	ex_device_stop(DEV_B);
	(void)free_irq(SHARED_IRQ, &a);
	(void)free_irq(SHARED_IRQ, &b);

	ex_puts("shared_free: ");
	ex_putu((unsigned long)round);
	ex_puts(" unplugs of A; A served ");
	ex_putu(atomic_load(&a.served));
	ex_puts(" of its interrupts in ");
	ex_putu(atomic_load(&a.calls));
	ex_puts(" calls, B served ");
	ex_putu(atomic_load(&b.served));
	ex_puts("\n");

	if (round != ROUNDS) {
		ex_puts("FAIL: a wait timed out or a call failed in round ");
		ex_putu((unsigned long)round + 1);
		ex_puts("\n");
		return 1;
	}
	if (running || late_calls) {
		ex_puts("FAIL: A's handler ran after free_irq() returned (");
		ex_putu(running + late_calls);
		ex_puts(" times)\n");
		return 1;
	}
	if (b_starved || bad_count) {
		ex_puts("FAIL: freeing A disturbed B (");
		ex_putu(b_starved);
		ex_puts(" rounds without B's interrupts, ");
		ex_putu(bad_count);
		ex_puts(" wrong action counts)\n");
		return 1;
	}
	ex_puts("PASS: free_irq() removed A for good while B kept being served\n");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * quiesce.c - the driver quiesce pattern the 2007 synchronize_irq() race came from.
 *
 * A network driver (Linux's tg3 is the classic) must sometimes reprogram its
 * chip while the chip keeps interrupting. It does not disable the line; it
 * tells its own handler to keep its hands off:
 *
 *	nic->irq_sync = 1;		1. the handler will bail out from now on...
 *	synchronize_irq(irq);		2. ...and the one that did not see the flag is done
 *	reprogram the chip;		3. nobody else touches it
 *	nic->irq_sync = 0;
 *
 * and the handler begins with "if (nic->irq_sync) return IRQ_HANDLED;".
 *
 * Step 2 carries two promises. A handler that started before the flag was
 * set may have read 0 and be servicing the chip right now: synchronize_irq()
 * returns only after it has finished (REQ-SYNC-1). And every handler that
 * starts afterwards must read 1 - with or without a barrier in the driver
 * (REQ-SYNC-3, REQ-SYNC-4). The 2007 synchronize_irq() spun on the
 * in-progress bit without the lock and could return while a handler on
 * another CPU still acted on the old value of the flag - with the driver
 * already reprogramming. irqsync's synchronize_irq() re-checks under the
 * line's lock, and that lock orders the flag before any later handler.
 *
 * The flag is a relaxed atomic on purpose: the driver adds no barrier of its
 * own; synchronize_irq() is all the ordering it needs.
 *
 * The check: the handler services the chip for a while, and notes whenever it
 * finds the chip owned by the driver. The driver quiesces at the worst moment
 * - while a handler is in the middle of servicing - twenty times. Build with
 * -DEXAMPLE_BROKEN_SKIP_SYNC to leave out step 2: the check then fails.
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include "example.h"

#define NIC_IRQ		3
#define ROUNDS		20
#define SERVICE_US	300	/* how long a handler services the chip */
#define REPROGRAM_US	3000	/* how long the driver reprograms it: ~3 interrupts */

enum owner { OWNER_HANDLER, OWNER_DRIVER };

struct nic {
	_Atomic int irq_sync;		/* the driver's flag */
	_Atomic int chip_owner;		/* who may touch the chip now (the check) */
	_Atomic int in_service;		/* a handler is servicing the chip */
	_Atomic unsigned long bailed;	/* handler calls that saw irq_sync == 1 */
	unsigned long serviced;		/* written by the handler only */
	unsigned long collisions;	/* the handler met the driver at the chip */
};

static struct nic nic;

static irqreturn_t nic_interrupt(void *dev_id)
{
	struct nic *n = dev_id;
	unsigned long t0;

	(void)ex_device_ack(0);
	if (atomic_load_explicit(&n->irq_sync, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&n->bailed, 1UL, memory_order_relaxed);
		return IRQ_HANDLED;		/* hands off: the driver owns the chip */
	}

	atomic_store_explicit(&n->in_service, 1, memory_order_relaxed);
	t0 = ex_time_us();
	do {	/* service the chip: every access must find it ours */
		if (atomic_load_explicit(&n->chip_owner, memory_order_relaxed) == OWNER_DRIVER)
			n->collisions++;
	} while (ex_time_us() - t0 < SERVICE_US);
	n->serviced++;
	atomic_store_explicit(&n->in_service, 0, memory_order_relaxed);
	return IRQ_HANDLED;
}

int example_main(void)
{
	unsigned long not_finished = 0, bailed;
	int round;

	irqsync_init();
	if (request_irq(NIC_IRQ, nic_interrupt, 0, "nic", &nic) != 0) {
		ex_puts("FAIL: request_irq\n");
		return 1;
	}
	ex_device_start(0, NIC_IRQ);

	for (round = 0; round < ROUNDS; round++) {
		/* The worst moment: a handler read irq_sync == 0 and is at the chip. */
		if (!ex_wait_until(atomic_load_explicit(&nic.in_service, memory_order_relaxed)))
			break;

		atomic_store_explicit(&nic.irq_sync, 1, memory_order_relaxed);	/* 1 */
#ifndef EXAMPLE_BROKEN_SKIP_SYNC
		if (synchronize_irq(NIC_IRQ) != 0)				/* 2 */
			break;
#endif
		if (atomic_load_explicit(&nic.in_service, memory_order_relaxed))
			not_finished++;		/* the running handler was not waited for */

		atomic_store_explicit(&nic.chip_owner, OWNER_DRIVER, memory_order_relaxed);
		ex_delay_us(REPROGRAM_US);					/* 3 */
		atomic_store_explicit(&nic.chip_owner, OWNER_HANDLER, memory_order_relaxed);

		atomic_store_explicit(&nic.irq_sync, 0, memory_order_relaxed);
	}

	ex_device_stop(0);
	/* free_irq waits for a last running handler: its counters are final and visible. */
	(void)free_irq(NIC_IRQ, &nic);
	bailed = atomic_load(&nic.bailed);

	ex_puts("quiesce: ");
	ex_putu((unsigned long)round);
	ex_puts(" quiesces while a handler serviced the chip; ");
	ex_putu(nic.serviced);
	ex_puts(" handler services, ");
	ex_putu(bailed);
	ex_puts(" handler calls kept their hands off\n");

	if (round != ROUNDS) {
		ex_puts("FAIL: a wait timed out or synchronize_irq failed in round ");
		ex_putu((unsigned long)round + 1);
		ex_puts("\n");
		return 1;
	}
	if (not_finished != 0 || nic.collisions != 0) {
		ex_puts("FAIL: a handler serviced the chip after the quiesce: ");
		ex_putu(not_finished);
		ex_puts(" times one was still running when the driver took the chip, ");
		ex_putu(nic.collisions);
		ex_puts(" chip accesses met the driver\n");
		return 1;
	}
	if (bailed == 0) {	/* else the check above proved nothing */
		ex_puts("FAIL: no interrupt arrived while the driver owned the chip\n");
		return 1;
	}
	ex_puts("PASS: no handler touched the chip after synchronize_irq() returned\n");
	return 0;
}

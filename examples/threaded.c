/* SPDX-License-Identifier: MIT */
/*
 * threaded.c - a driver whose interrupt work runs in a handler thread, and its quiesce.
 *
 * The device is a sensor behind a slow bus (I2C or SPI, say): even reading its interrupt
 * status is a bus transfer, too slow - and on a real OS, sleeping - for interrupt context.
 * So the driver has no hard handler of its own:
 *
 *	request_threaded_irq(irq, NULL, sensor_thread, IRQF_ONESHOT, "sensor", &sensor);
 *
 * The NULL primary is the library's default one: it only answers IRQ_WAKE_THREAD. It cannot
 * quiet the device, which keeps its line raised until the thread has read the status, so the
 * line must stay masked at the controller from the interrupt until the thread has run: that
 * is what IRQF_ONESHOT does (REQ-ONESHOT-1, REQ-ONESHOT-3), and why a NULL primary without it is
 * refused (REQ-THREAD-2). A primary of our own that acks the device and returns IRQ_WAKE_THREAD
 * would be the choice for a memory-mapped status register; here it would only ack what the
 * thread must read anyway, and every access to the chip is the thread's.
 *
 * Sometimes the driver must recalibrate the sensor while it keeps interrupting. It does what
 * quiesce.c does with a hard handler, with the thread in the handler's place:
 *
 *	sensor->irq_sync = 1;		1. thread runs keep their hands off from now on...
 *	synchronize_irq(irq);		2. ...and the run that did not see the flag is done
 *	recalibrate the chip;		3. nobody else touches it
 *	sensor->irq_sync = 0;
 *
 * Step 2 must be synchronize_irq(), not synchronize_hardirq(). The hard part of this line is
 * the default primary, which never touches the chip; the run that may be at the chip right
 * now is a thread run. synchronize_irq() returns only after every thread episode counted by an
 * interrupt that began before the call has ended (REQ-THREAD-1), with that run's writes visible to
 * the caller (REQ-THREAD-4). A run woken later is woken by an interrupt that began after the
 * call's locked re-check, which sees the flag without a barrier in the driver (REQ-SYNC-3,
 * REQ-SYNC-4), and the wake-up carries it on to the thread: the thread takes its run with an
 * acquire exchange of the word that interrupt set (spec/threaded.md, section 3).
 * synchronize_hardirq() waits for the hard instance only and promises nothing about the
 * thread (REQ-THREAD-9): its result, 0 here, even says that a thread episode was still active.
 * Quiescing a threaded handler with it is the bug this example is built to show.
 *
 * The check: the thread run services the chip for a while and notes whenever it finds the
 * chip owned by the driver. The driver quiesces at the worst moment - while a thread run is
 * in the middle of servicing - twenty times. Build with -DEXAMPLE_BROKEN_HARDIRQ to call
 * synchronize_hardirq() in step 2: the check then fails.
 *
 * Where the threads run: on the host, in POSIX threads the library starts; on bare metal,
 * owed runs are made by CPU 1's idle loop (platform/baremetal.c) and by any wait of the
 * library that has nothing better to do. The driver code is the same.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <irqsync/irqsync.h>
#include "example.h"

#define SENSOR_IRQ	6
#define ROUNDS		20
#define SERVICE_US	300	/* how long a thread run services the chip */
#define RECAL_US	3000	/* how long the driver recalibrates it: ~3 interrupts */

enum owner { OWNER_THREAD, OWNER_DRIVER };

struct sensor {
	_Atomic int irq_sync;		/* the driver's flag */
	_Atomic int chip_owner;		/* who may touch the chip now (the check) */
	_Atomic int in_service;		/* a thread run is servicing the chip */
	_Atomic unsigned long bailed;	/* thread runs that saw irq_sync == 1 ... */
	_Atomic unsigned long bailed_owned; /* ... of them while the driver owned the chip */
	unsigned long serviced;		/* written by the thread runs only */
	unsigned long collisions;	/* a thread run met the driver at the chip */
};

static struct sensor sensor;

/* The handler thread: interrupts enabled, one run at a time (an action's runs never overlap). */
static irqreturn_t sensor_thread(void *dev_id)
{
	struct sensor *s = dev_id;
	unsigned long t0;

	(void)ex_device_ack(0);		/* read and clear the status over the bus */
	if (atomic_load_explicit(&s->irq_sync, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&s->bailed, 1UL, memory_order_relaxed);
		if (atomic_load_explicit(&s->chip_owner, memory_order_relaxed) == OWNER_DRIVER)
			atomic_fetch_add_explicit(&s->bailed_owned, 1UL, memory_order_relaxed);
		return IRQ_HANDLED;	/* hands off: the driver owns the chip */
	}

	atomic_store_explicit(&s->in_service, 1, memory_order_relaxed);
	t0 = ex_time_us();
	do {	/* read the samples over the bus: every access must find the chip ours */
		if (atomic_load_explicit(&s->chip_owner, memory_order_relaxed) == OWNER_DRIVER)
			s->collisions++;
	} while (ex_time_us() - t0 < SERVICE_US);
	s->serviced++;
	atomic_store_explicit(&s->in_service, 0, memory_order_relaxed);
	return IRQ_HANDLED;
}

int example_main(void)
{
	unsigned long not_finished = 0, bailed, bailed_owned;
	int round;

	irqsync_init();
	if (request_threaded_irq(SENSOR_IRQ, NULL, sensor_thread, IRQF_ONESHOT, "sensor",
				 &sensor) != 0) {
		ex_puts("FAIL: request_threaded_irq\n");
		return 1;
	}
	ex_device_start(0, SENSOR_IRQ);

	for (round = 0; round < ROUNDS; round++) {
		/* The worst moment: a thread run read irq_sync == 0 and is at the chip. */
		if (!ex_wait_until(atomic_load_explicit(&sensor.in_service, memory_order_relaxed)))
			break;

		atomic_store_explicit(&sensor.irq_sync, 1, memory_order_relaxed);	/* 1 */
#ifndef EXAMPLE_BROKEN_HARDIRQ
		if (synchronize_irq(SENSOR_IRQ) != 0)					/* 2 */
			break;
#else
		if (synchronize_hardirq(SENSOR_IRQ) < 0)	/* 2, the bug: the hard half only */
			break;
#endif
		/* The run's last write, in_service = 0, must be ours to read (REQ-THREAD-1, -4). */
		if (atomic_load_explicit(&sensor.in_service, memory_order_relaxed))
			not_finished++;		/* the running thread run was not waited for */

		atomic_store_explicit(&sensor.chip_owner, OWNER_DRIVER, memory_order_relaxed);
		ex_delay_us(RECAL_US);							/* 3 */
		atomic_store_explicit(&sensor.chip_owner, OWNER_THREAD, memory_order_relaxed);

		atomic_store_explicit(&sensor.irq_sync, 0, memory_order_relaxed);
	}

	ex_device_stop(0);
	/* free_irq waits for the line's thread episodes too (REQ-THREAD-6): the counters are final. */
	(void)free_irq(SENSOR_IRQ, &sensor);
	bailed = atomic_load(&sensor.bailed);
	bailed_owned = atomic_load(&sensor.bailed_owned);

	ex_puts("threaded: ");
	ex_putu((unsigned long)round);
	ex_puts(" quiesces while a thread run serviced the chip; ");
	ex_putu(sensor.serviced);
	ex_puts(" thread services, ");
	ex_putu(bailed);
	ex_puts(" thread runs kept their hands off (");
	ex_putu(bailed_owned);
	ex_puts(" while the driver owned the chip)\n");

	if (round != ROUNDS) {
		ex_puts("FAIL: a wait timed out or the synchronize call failed in round ");
		ex_putu((unsigned long)round + 1);
		ex_puts("\n");
		return 1;
	}
	if (not_finished != 0 || sensor.collisions != 0) {
		ex_puts("FAIL: a thread run serviced the chip after the quiesce: ");
		ex_putu(not_finished);
		ex_puts(" times one was still running when the driver took the chip, ");
		ex_putu(sensor.collisions);
		ex_puts(" chip accesses met the driver\n");
		return 1;
	}
	if (bailed_owned == 0) {	/* else the check above proved nothing */
		ex_puts("FAIL: no thread run came while the driver owned the chip\n");
		return 1;
	}
	ex_puts("PASS: no thread run touched the chip after synchronize_irq() returned\n");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * platform/devices.h - the simulated devices of example.h, the same on every
 * platform: status registers, start/stop/ack, and one device event.
 *
 * Included once, by the platform file (it defines the ex_device_*()
 * functions), which also defines the two things a platform does differently:
 *
 *   plat_route(irq)   send the device's line to CPU 1, where that is a setting;
 *   plat_raise(irq)   deliver one interrupt on the line.
 *
 * The platform calls ex_device_event() for each period of each device.
 */
#ifndef IRQSYNC_EXAMPLE_DEVICES_H
#define IRQSYNC_EXAMPLE_DEVICES_H

#include <stdatomic.h>
#include "../example.h"

static void plat_route(unsigned int irq);
static void plat_raise(unsigned int irq);

struct device {
	_Atomic unsigned int irq;
	_Atomic int on;
	_Atomic int busy;		/* an event of this device is under way */
	_Atomic unsigned long status;	/* events not yet acknowledged */
	_Atomic unsigned long raised;	/* events ever raised */
};

static struct device devices[EX_NR_DEVICES];

void ex_device_start(unsigned int dev, unsigned int irq)
{
	atomic_store(&devices[dev].irq, irq);
	plat_route(irq);
	atomic_store(&devices[dev].on, 1);
}

void ex_device_stop(unsigned int dev)
{
	/* Dekker-style with seq_cst: once `on` is 0, a `busy` event has to finish. */
	atomic_store(&devices[dev].on, 0);
	while (atomic_load(&devices[dev].busy))
		ex_relax();
}

unsigned long ex_device_ack(unsigned int dev)
{
	return atomic_exchange(&devices[dev].status, 0UL);
}

unsigned long ex_device_raised(unsigned int dev)
{
	return atomic_load(&devices[dev].raised);
}

/* One period of device @dev: if it is started, one more event in its status register, then
 * an interrupt on its line. */
static void ex_device_event(unsigned int dev)
{
	struct device *d = &devices[dev];

	atomic_store(&d->busy, 1);
	if (atomic_load(&d->on)) {
		atomic_fetch_add(&d->status, 1UL);	/* status first, ... */
		atomic_fetch_add(&d->raised, 1UL);
		plat_raise(atomic_load(&d->irq));	/* ... then the line */
	}
	atomic_store(&d->busy, 0);
}

#endif /* IRQSYNC_EXAMPLE_DEVICES_H */

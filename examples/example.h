/* SPDX-License-Identifier: MIT */
/*
 * example.h - the little an example needs from the machine it runs on.
 *
 * Every example is one driver written against <irqsync/irqsync.h> only. What
 * an operating system or a board support package would give a driver - a
 * device that raises an interrupt line, a clock, a console - comes from this
 * header, implemented twice:
 *
 *   platform/hosted.c      Linux, the hosted port: the example's main() is
 *                          CPU 0 (a thread), CPU 1 is a second thread that
 *                          takes the device interrupts (real-time signals).
 *   platform/baremetal.c   qemu's virt board, two Cortex-A53: the example
 *                          runs on CPU 0, the devices are CPU 1's generic
 *                          timers, delivered through the GIC.
 *
 * with the simulated devices themselves common to both (platform/devices.h).
 *
 * The shape is the same on both: the driver code on CPU 0, its interrupt
 * handlers on CPU 1, really concurrently. That is the situation in which
 * synchronize_irq(), disable_irq() and free_irq() have something to wait for.
 */
#ifndef IRQSYNC_EXAMPLE_H
#define IRQSYNC_EXAMPLE_H

#include <irqsync/irqsync.h>

/* Two simulated devices, 0 and 1, each with an interrupt status register. */
#define EX_NR_DEVICES	2

/*
 * ex_device_start - let device @dev raise line @irq about once a millisecond
 *
 * Each time, the device first sets its status register (one more event) and
 * then raises the line; the interrupt is taken on CPU 1.
 */
void ex_device_start(unsigned int dev, unsigned int irq);

/* Stop device @dev; on return it raises nothing more (earlier raises may still be delivered). */
void ex_device_stop(unsigned int dev);

/*
 * ex_device_ack - read and clear @dev's status register, as a handler does
 *
 * Return: the number of events since the last ack; 0 means "not my device".
 */
unsigned long ex_device_ack(unsigned int dev);

/* How many events @dev has raised since the program started. */
unsigned long ex_device_raised(unsigned int dev);

/* A monotonic clock in microseconds, and a busy wait on it (usable in a handler). */
unsigned long ex_time_us(void);
void ex_delay_us(unsigned long us);

/* What the driver does in a polling loop (yield the CPU / a spin-loop hint). */
void ex_relax(void);

/* The console. */
void ex_puts(const char *s);
void ex_putu(unsigned long v);

/* The example itself, called on CPU 0 once CPU 1 is up. Return: 0 when every check held. */
int example_main(void);

/* Wait until @cond holds, at most EX_WAIT_US. Return: 1 if it was seen to hold (it may be
 * a passing moment: @cond is not evaluated again), 0 on timeout. */
#define EX_WAIT_US	5000000UL
#define ex_wait_until(cond) __extension__ ({ \
	unsigned long ex_t0_ = ex_time_us(); \
	int ex_seen_; \
	while (!(ex_seen_ = !!(cond)) && ex_time_us() - ex_t0_ < EX_WAIT_US) \
		ex_relax(); \
	ex_seen_; })

#endif /* IRQSYNC_EXAMPLE_H */

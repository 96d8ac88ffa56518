/* SPDX-License-Identifier: MIT */
/*
 * irqsync_baremetal.h - what the bare-metal ports offer beyond src/port/port.h (both ports,
 * baremetal-armv7m and baremetal-aarch64, implement these two functions: shared/baremetal_threads.h).
 *
 * Handler threads without an OS (port.h, "Threaded handlers"; docs/porting.md, "Threads"):
 * nothing runs a channel by itself.  A kick only marks a run owed; the owed runs are run to
 * completion, on the stack of whoever calls the port's worker -- irqsync_port_wait() while its
 * ready() is false, irqsync_port_thread_stop() for the channel it stops, and the idle loop
 * through irqsync_baremetal_run_threads().  Each channel is claimed (an atomic exchange) for
 * its run, so one channel never runs twice at once, also with two CPUs.
 *
 * Line masks act at the interrupt controller (Armv7-M: the NVIC; AArch64: the GIC
 * distributor), which holds an interrupt raised meanwhile pending and delivers it after the
 * unmask.  The port therefore needs to know which controller input carries each line.
 */
#ifndef IRQSYNC_BAREMETAL_H
#define IRQSYNC_BAREMETAL_H

/**
 * irqsync_baremetal_run_threads - run every owed thread run this CPU can claim, once each
 *
 * Only in task context with local interrupts enabled (a thread runs so, port.h); elsewhere it
 * runs nothing.  A run may itself wait, and so run other channels' runs on the same stack.
 * An idle loop:  for (;;) if (irqsync_baremetal_run_threads() == 0) wait for an event
 * (`wfi`; on AArch64 with two CPUs `wfe`: the kick ends with `sev`).
 * Return: how many runs were made.
 */
unsigned int irqsync_baremetal_run_threads(void);

/**
 * irqsync_baremetal_line_hwirq - the interrupt-controller input that carries line @irq
 *
 * Armv7-M: the NVIC's external interrupt number (IRQn, 0..495); AArch64: the GIC interrupt
 * id (INTID, 0..1019).  Default: the line's own number.  Set it before the line can be
 * masked (before request_threaded_irq with IRQF_ONESHOT).
 * Return: 0, or -IRQSYNC_EINVAL for a line or input out of range.
 */
int irqsync_baremetal_line_hwirq(unsigned int irq, unsigned int hwirq);

#endif /* IRQSYNC_BAREMETAL_H */

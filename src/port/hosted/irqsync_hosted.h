/* SPDX-License-Identifier: MIT */
/*
 * irqsync_hosted.h - the hosted (POSIX threads) port's own API.
 *
 * CPUs are threads that attached themselves with irqsync_hosted_cpu_attach().
 * An interrupt is a bit in the target CPU's pending word plus a real-time
 * signal (IRQSYNC_HOSTED_SIGNO) sent with pthread_kill, so it arrives
 * asynchronously, as a hardware one does.  Local interrupt masking is a
 * per-thread soft mask: the signal handler leaves a masked CPU's bits
 * pending, and the unmask delivers them, so local_irq_save/restore cost no
 * system call (REQ-LOCK-6).  A line raised again before its earlier raise
 * was delivered is coalesced (one pending bit per line, as an edge latch).
 *
 * The interrupt controller routes each line to one CPU (default CPU 0).
 *
 * Line masks (irqsync_port_line_mask/_unmask, IRQF_ONESHOT) act where a CPU takes an
 * interrupt for delivery: an interrupt of a masked line is held (one per line, whichever CPU
 * it was raised on) and set pending again on its CPU by the unmask.  Handler threads
 * (irqsync_port_thread_*) are POSIX threads that are no CPU: they take no interrupt, and
 * irqsync_port_cpu_id() says 0 in them, as in any thread that never attached.  Waits sleep on
 * a futex (Linux; elsewhere they poll).
 */
#ifndef _IRQSYNC_HOSTED_H
#define _IRQSYNC_HOSTED_H

#include <signal.h>

#define IRQSYNC_HOSTED_SIGNO (SIGRTMIN + 3)

/**
 * irqsync_hosted_cpu_attach - make the calling thread CPU @cpu
 *
 * Installs the signal handler (once), unblocks the signal in this thread,
 * and starts with local interrupts enabled.  A thread that never attaches
 * acts as CPU 0 for irqsync_port_cpu_id() but receives no interrupt.
 * Return: 0; -IRQSYNC_EINVAL for a bad @cpu; -IRQSYNC_EBUSY if @cpu is
 * attached to another thread.
 */
int irqsync_hosted_cpu_attach(unsigned int cpu);

/* Detach the calling thread (interrupts still pending on its CPU are dropped). */
void irqsync_hosted_cpu_detach(void);

/* Route @irq to @cpu.  Return: 0 or -IRQSYNC_EINVAL. */
int irqsync_hosted_route(unsigned int irq, unsigned int cpu);

/**
 * irqsync_hosted_raise - raise @irq on the CPU it is routed to
 *
 * Return: 0 when raised, 1 when coalesced with an undelivered raise of the
 * same line, -IRQSYNC_EINVAL for a bad line, -IRQSYNC_ESRCH if the CPU is
 * not attached.
 */
int irqsync_hosted_raise(unsigned int irq);

/* As irqsync_hosted_raise(), on @cpu regardless of the route. */
int irqsync_hosted_raise_on(unsigned int irq, unsigned int cpu);

/* Per-CPU counters of the port. */
struct irqsync_hosted_stats {
	unsigned long raised;		/* raises that set a pending bit */
	unsigned long coalesced;	/* raises whose bit was already pending */
	unsigned long signals;		/* signals sent */
	unsigned long deferred;		/* signals that found the CPU masked */
	unsigned long delivered;	/* handle_irq() calls made by the port */
	unsigned long held;		/* interrupts a line mask held, for the unmask */
};

/* Read @cpu's counters.  Return: 0 or -IRQSYNC_EINVAL. */
int irqsync_hosted_stats(unsigned int cpu, struct irqsync_hosted_stats *out);

/* Zero every CPU's counters and pending bits and route every line to CPU 0. */
void irqsync_hosted_reset(void);

#endif /* _IRQSYNC_HOSTED_H */

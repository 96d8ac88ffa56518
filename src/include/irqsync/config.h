/* SPDX-License-Identifier: MIT */
/*
 * irqsync/config.h - compile-time sizes and tunables.
 *
 * Every value may be overridden on the compiler command line (-DNAME=value);
 * all state of the library is sized from these at compile time (REQ-IMPL-1).
 */
#ifndef _IRQSYNC_CONFIG_H
#define _IRQSYNC_CONFIG_H

/* NR_IRQS - number of interrupt lines; valid lines are 0 .. NR_IRQS-1. */
#ifndef NR_IRQS
#define NR_IRQS 16
#endif

/* IRQSYNC_MAX_SHARERS - size of each line's static action pool (REQ-LIFECYCLE-6). */
#ifndef IRQSYNC_MAX_SHARERS
#define IRQSYNC_MAX_SHARERS 4
#endif

/* IRQSYNC_NR_CPUS - the port's CPU ids are 0 .. IRQSYNC_NR_CPUS-1. */
#ifndef IRQSYNC_NR_CPUS
#define IRQSYNC_NR_CPUS 8
#endif

/* IRQSYNC_DEPTH_MAX - largest disable depth of a line (REQ-DEPTH-5). */
#ifndef IRQSYNC_DEPTH_MAX
#define IRQSYNC_DEPTH_MAX 1024U
#endif

/*
 * Spurious-interrupt detection (REQ-DISPATCH-6): after every
 * IRQSYNC_SPURIOUS_WINDOW passes of a line's action chain, the line is
 * disabled ("nobody cared") when more than IRQSYNC_SPURIOUS_THRESHOLD of
 * them were unhandled.  The counters then start a new window.
 */
#ifndef IRQSYNC_SPURIOUS_WINDOW
#define IRQSYNC_SPURIOUS_WINDOW 1000U
#endif
#ifndef IRQSYNC_SPURIOUS_THRESHOLD
#define IRQSYNC_SPURIOUS_THRESHOLD 900U
#endif

/*
 * IRQSYNC_PORT_CHANNELS - how many wait channels the core may name to the port's thread and
 * sleep/wake-up functions (src/port/port.h): per line, one for the waiters of its threads and
 * one per action slot for its handler thread.
 */
#define IRQSYNC_PORT_CHANNELS (NR_IRQS * (IRQSYNC_MAX_SHARERS + 1))

#if NR_IRQS < 1 || IRQSYNC_MAX_SHARERS < 1 || IRQSYNC_NR_CPUS < 1
#error "irqsync: NR_IRQS, IRQSYNC_MAX_SHARERS and IRQSYNC_NR_CPUS must be at least 1"
#endif
#if IRQSYNC_SPURIOUS_THRESHOLD >= IRQSYNC_SPURIOUS_WINDOW
#error "irqsync: IRQSYNC_SPURIOUS_THRESHOLD must be below IRQSYNC_SPURIOUS_WINDOW"
#endif

#endif /* _IRQSYNC_CONFIG_H */

/* SPDX-License-Identifier: MIT */
/*
 * irqsync/interrupt.h - interrupt lines, handlers and their life cycle.
 *
 * A line is an irq number 0 .. NR_IRQS-1 with a descriptor: a lock, a
 * status word (INPROGRESS, PENDING, DISABLED), a disable depth and a chain
 * of up to IRQSYNC_MAX_SHARERS actions (handler, dev_id) taken from a
 * static pool.  The port calls handle_irq() when an interrupt arrives.
 *
 * Context rules:
 *  - handlers run with local interrupts disabled (REQ-DISPATCH-8), one
 *    instance per line at a time across all CPUs (REQ-DISPATCH-3);
 *  - synchronize_irq(), disable_irq() and free_irq() wait for a running
 *    handler instance of the line and so may not be called from it: they
 *    return -IRQSYNC_EDEADLK there (REQ-ERR-4); disable_irq_nosync() and
 *    enable_irq() may;
 *  - they also wait for the line's handler threads, and return
 *    -IRQSYNC_EDEADLK from one of them (REQ-THREAD-5); synchronize_hardirq()
 *    and disable_hardirq() may be called from a thread;
 *  - every function returns 0 or a negative code of irqsync/errno.h and
 *    changes nothing when it fails.
 */
#ifndef _IRQSYNC_INTERRUPT_H
#define _IRQSYNC_INTERRUPT_H

#include <irqsync/compiler.h>
#include <irqsync/config.h>
#include <irqsync/errno.h>

/* What a handler tells the dispatcher (REQ-DISPATCH-5). */
typedef enum irqreturn {
	IRQ_NONE = 0,		/* my device did not raise the line */
	IRQ_HANDLED = 1,	/* my device raised it and I served it */
	IRQ_WAKE_THREAD = 2,	/* ... and my thread_fn must run (request_threaded_irq) */
} irqreturn_t;

/*
 * irq_handler_t - an interrupt handler (REQ-HANDLER-1)
 * @dev_id: the cookie given to request_irq()
 *
 * Handlers are not told the irq number: dev_id identifies the device, and
 * get_irqfunc_irq() gives the line to the few handlers that need it.
 * IRQ_WAKE_THREAD from a primary handler of request_threaded_irq() counts as
 * IRQ_HANDLED and wakes the action's thread_fn; from an action without a thread it counts
 * as IRQ_HANDLED only.  Any other value counts as IRQ_NONE.
 */
typedef irqreturn_t (*irq_handler_t)(void *dev_id);

/* request_irq() flags; any other bit is rejected with -IRQSYNC_EINVAL. */
#define IRQF_SHARED	0x00000080UL	/* the line may be shared with other IRQF_SHARED actions */
#define IRQF_ONESHOT	0x00002000UL	/* keep the line masked until the thread_fn has run */
#define IRQF_VALID_MASK	(IRQF_SHARED | IRQF_ONESHOT)

/* Status bits of a line, as reported by irq_stats() (changed only under the line's lock). */
#define IRQS_INPROGRESS	0x1U	/* a handler instance runs (REQ-SYNC-*) */
#define IRQS_PENDING	0x2U	/* an arrival waits for replay (REQ-DISPATCH-2, -7) */
/*
 * IRQS_DISABLED is set exactly while the depth is > 0 (REQ-DEPTH-*): by disable_irq, by
 * spurious detection (REQ-DISPATCH-6), and by irqsync_init and the last free_irq, which leave
 * depth 1.  It does not follow the action count: enable_irq after the last free_irq enables a
 * line that has no action (its interrupts are counted as unhandled, REQ-DISPATCH-9), as in
 * Linux; a line with actions may be disabled.
 */
#define IRQS_DISABLED	0x4U	/* the line is disabled: depth > 0 */

/**
 * struct irq_stats - a consistent snapshot of one line (taken under its lock)
 * @handled:    passes of the action chain in which some action returned IRQ_HANDLED
 * @unhandled:  passes in which none did, plus interrupts of a line without action
 * @depth:      disable depth (0 = enabled)
 * @nr_actions: number of installed actions
 * @status:     IRQS_* bits
 */
struct irq_stats {
	unsigned long handled;
	unsigned long unhandled;
	unsigned int depth;
	unsigned int nr_actions;
	unsigned int status;
};

/**
 * irqsync_init - reset every line: no action, depth 1, DISABLED, counters 0
 *
 * Also clears the warning counters.  Call once before any other function,
 * while no CPU is using the library.
 */
void irqsync_init(void);

/**
 * request_irq - install an action on a line
 * @irq:     the line
 * @handler: the handler, not NULL
 * @flags:   0 or IRQF_SHARED
 * @name:    a name for the action (may be NULL; kept, not copied)
 * @dev_id:  the handler's cookie; for IRQF_SHARED a non-NULL pointer
 *           unique on the line
 *
 * The first action of a line sets depth 0 and clears DISABLED
 * (REQ-LIFECYCLE-1).  Further actions join only if all are IRQF_SHARED
 * (REQ-LIFECYCLE-2); they are called after the earlier ones.  Every
 * installation starts a new spurious-detection window (REQ-LIFECYCLE-7).
 * A shared action joining a line that spurious detection disabled leaves
 * it disabled: enable_irq() re-enables it (REQ-LIFECYCLE-8; Linux
 * re-enables it here, docs/linux-differences.md).
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line, a NULL handler, unknown
 * flags, or a shared request with a NULL or duplicate @dev_id;
 * -IRQSYNC_EBUSY if the line has a non-shared action or the request is
 * non-shared on a used line; -IRQSYNC_ENOSPC if the line's pool is full.
 */
int __must_check request_irq(unsigned int irq, irq_handler_t handler,
			     unsigned long flags, const char *name, void *dev_id);

/**
 * request_threaded_irq - install an action whose work runs in a handler thread
 * @irq:       the line
 * @handler:   the primary, run in interrupt context as request_irq()'s handler; it returns
 *             IRQ_WAKE_THREAD to have @thread_fn run.  NULL with IRQF_ONESHOT: a default
 *             primary that always wakes the thread
 * @thread_fn: run in the action's own thread, interrupts enabled, with @dev_id; NULL: no
 *             thread (request_irq())
 * @flags:     0, IRQF_SHARED, IRQF_ONESHOT (the line stays masked at the controller from the
 *             interrupt until the thread_fn of every action it woke has run)
 * @name, @dev_id: as request_irq()
 *
 * The thread is started before the action can be called (REQ-THREAD-8): a wake-up is never
 * lost.  Repeated wake-ups before the thread runs fold into one run (REQ-THREAD-7).
 *
 * Return: as request_irq(), and -IRQSYNC_EINVAL for a NULL @handler without IRQF_ONESHOT
 * or IRQF_ONESHOT without @thread_fn (REQ-THREAD-2); -IRQSYNC_EBUSY when the line's sharers
 * disagree on IRQF_ONESHOT (REQ-THREAD-3) or the line's thread channel of a free_irq() still
 * under way is not yet released; -IRQSYNC_ENOMEM when the port cannot start one more
 * thread.  State unchanged on every error.
 */
int __must_check request_threaded_irq(unsigned int irq, irq_handler_t handler,
				      irq_handler_t thread_fn, unsigned long flags,
				      const char *name, void *dev_id);

/*
 * REQ-HANDLER-1 as a hard error for every C11 compiler, not just a
 * warning: the handler argument must have exactly the type irq_handler_t
 * (or be NULL, which request_irq rejects at run time).  A handler with
 * the old (int irq, void *dev_id) prototype matches no association.
 * The macro calls the function of the same name (no recursive expansion).
 */
#if !defined(__FRAMAC__)
#define IRQSYNC_HANDLER_CHECK(h) \
	_Generic((h), irq_handler_t: (h), void *: (irq_handler_t)0)
#define request_irq(irq, handler, flags, name, dev_id) \
	request_irq((irq), IRQSYNC_HANDLER_CHECK(handler), (flags), (name), (dev_id))
#endif
/* The same for both handlers of a threaded request, written so that the argument appears once
 * inside the _Generic, as its controlling expression: cppcheck's parser breaks on a conditional
 * expression ("cond ? NULL : handler", a common driver form) inside an association.  The value
 * passed is the argument itself (NULL converts to the handler type). */
#if !defined(__FRAMAC__)
#define IRQSYNC_HANDLER_ARG(h) ((void)_Generic((h), irq_handler_t: 0, void *: 0), (h))
#define request_threaded_irq(irq, handler, thread_fn, flags, name, dev_id) \
	request_threaded_irq((irq), IRQSYNC_HANDLER_ARG(handler), IRQSYNC_HANDLER_ARG(thread_fn), \
			     (flags), (name), (dev_id))
#endif

/**
 * free_irq - remove the action of @dev_id and wait until it cannot run
 * @irq:    the line
 * @dev_id: the cookie the action was requested with
 *
 * Keeps the other actions in order; the last removal leaves the line
 * without action, depth 1 and DISABLED (REQ-LIFECYCLE-4).  Returns after
 * the removed handler has stopped running on every CPU (REQ-LIFECYCLE-5),
 * and, as synchronize_irq(), after every thread episode of the line's
 * actions counted before it; then stops the removed action's thread, which
 * runs a wake-up it was owed first (REQ-THREAD-6).
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line; -IRQSYNC_EDEADLK from a
 * handler or a thread of @irq (REQ-THREAD-5); -IRQSYNC_ENOENT, with
 * IRQSYNC_WARN_FREE_UNKNOWN, when no action has @dev_id (REQ-ERR-3).
 */
int free_irq(unsigned int irq, void *dev_id);

/**
 * disable_irq - disable a line (nesting) and wait for its running handler
 * @irq: the line
 *
 * Increments the depth, sets DISABLED at 0 -> 1, then waits as
 * synchronize_irq() does (REQ-DEPTH-1).  Interrupts arriving while the
 * line is disabled are held (PENDING) for enable_irq().
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line; -IRQSYNC_EDEADLK from a
 * handler or a thread of @irq; -IRQSYNC_EOVERFLOW at depth IRQSYNC_DEPTH_MAX.
 */
int disable_irq(unsigned int irq);

/**
 * disable_hardirq - disable a line (nesting) and wait for its hard handlers only
 * @irq: the line
 *
 * disable_irq_nosync(), then synchronize_hardirq(); never sleeps, and may be
 * called from a thread of @irq.
 *
 * Return: synchronize_hardirq()'s result (1: no thread episode was active);
 * -IRQSYNC_EINVAL; -IRQSYNC_EOVERFLOW; -IRQSYNC_EDEADLK from a handler of @irq.
 */
int disable_hardirq(unsigned int irq);

/**
 * disable_irq_nosync - disable a line (nesting) without waiting
 * @irq: the line
 *
 * As disable_irq() but returns at once (REQ-DEPTH-2); may be called from
 * the line's own handler.
 *
 * Return: 0; -IRQSYNC_EINVAL; -IRQSYNC_EOVERFLOW.
 */
int disable_irq_nosync(unsigned int irq);

/**
 * enable_irq - undo one disable_irq()
 * @irq: the line
 *
 * Decrements the depth; at 1 -> 0 clears DISABLED and, if an interrupt
 * was held, dispatches it once on the calling CPU (REQ-DEPTH-3,
 * REQ-DISPATCH-7).
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line, or, with
 * IRQSYNC_WARN_UNBALANCED_ENABLE and nothing changed, when the depth is
 * already 0 (REQ-DEPTH-4).
 */
int enable_irq(unsigned int irq);

/**
 * synchronize_irq - wait for the running handler instance of a line
 * @irq: the line
 *
 * Spins without the lock while INPROGRESS is set, then re-checks under the
 * line's lock and spins again if it was set (REQ-SYNC-5).  On return every
 * handler instance that began before the call has ended (REQ-SYNC-1), its
 * writes are visible (REQ-SYNC-2), and every later instance sees the
 * caller's earlier stores, with or without smp_mb() (REQ-SYNC-3, -4).
 *
 * With threaded actions it then waits for every thread episode of the
 * line counted before its locked re-check to end (REQ-THREAD-1), and their
 * writes are visible on return (REQ-THREAD-4); it sleeps in the port's wait
 * meanwhile.  Where the port can tell, it also waits while an interrupt of
 * the line is in flight at the controller (REQ-THREAD-10).
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line; -IRQSYNC_EDEADLK from a
 * handler or a thread of @irq (REQ-THREAD-5).
 */
int synchronize_irq(unsigned int irq);

/**
 * synchronize_hardirq - wait for the running hard handler instance of a line only
 * @irq: the line
 *
 * synchronize_irq()'s hard wait (REQ-SYNC-1..5) without the thread wait
 * nor the controller's in-flight report; never sleeps (REQ-THREAD-9).  May be
 * called from a thread of @irq.
 *
 * Return: 1 if no thread episode of the line was active at its last look,
 * 0 if one was; -IRQSYNC_EINVAL for a bad line; -IRQSYNC_EDEADLK from a
 * handler of @irq.
 */
int synchronize_hardirq(unsigned int irq);

/**
 * handle_irq - dispatch an interrupt of a line (called by the port)
 * @irq: the line that was raised
 *
 * Runs the action chain with local interrupts disabled, replaying it while
 * arrivals set PENDING meanwhile; holds the interrupt (PENDING) when the
 * line is disabled or its handler runs on another CPU; counts an interrupt
 * of a line without action as unhandled; disables a line whose handlers
 * keep answering IRQ_NONE (IRQSYNC_WARN_NOBODY_CARED).  Restores the
 * caller's interrupt state on return.
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line (nothing done, REQ-DISPATCH-9).
 */
int handle_irq(unsigned int irq);

/**
 * get_irqfunc_irq - the line whose handler the calling CPU is running
 *
 * Return: the irq number in handler context; -IRQSYNC_ESRCH elsewhere
 * (REQ-HANDLER-2).
 */
int get_irqfunc_irq(void);

/**
 * irq_stats - read a snapshot of a line
 * @irq: the line
 * @out: where to store it, not NULL
 *
 * Return: 0; -IRQSYNC_EINVAL for a bad line or a NULL @out.
 */
int irq_stats(unsigned int irq, struct irq_stats *out);

#endif /* _IRQSYNC_INTERRUPT_H */

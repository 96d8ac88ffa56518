/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the descriptor table and per-CPU state of the core.
 *
 * Coding rule of the core: a local that will hold a call's result is initialised
 * where it is declared ("unsigned int status = 0U;" then "status = f();").  The
 * compiler drops the dead store; Frama-C 25's initialisation checks
 * (-rte-initialized, spec/proof.md) do not count a call's result as initialising a
 * local that was not initialised before.
 */
#ifndef _IRQSYNC_CORE_INTERNAL_H
#define _IRQSYNC_CORE_INTERNAL_H

#include <irqsync/irqsync.h>
#include "../port/port.h"
#include "steps.h"

/* One installed handler.  Lives in its line's static pool (REQ-LIFECYCLE-6). */
struct irqaction {
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned long flags;
	unsigned int thread;	/* 1 + its handler thread's channel, 0 without a thread */
};

/*
 * struct irq_thread - a handler thread: one per thread channel, channel
 * irq * IRQSYNC_MAX_SHARERS + k (k < IRQSYNC_MAX_SHARERS) for line irq (spec/threaded.md).
 *
 * Locking rules: @claimed is read and written only under the line's descriptor lock: set by
 * request_threaded_irq when it takes the channel, cleared by free_irq after the thread has
 * stopped, so a channel is never reused while its old thread may still run.  @thread_fn,
 * @dev_id and @thread_bit are written while the channel is claimed and its thread not started
 * (the port's start publishes them) and are constant while it runs.  @run_pending is the one
 * word shared without the lock: 0 -> 1 by the waker (an episode, REQ-THREAD-7), 1 -> 0 by the
 * thread, both by exchange.
 */
struct irq_thread {
	irqsync_atomic_t run_pending;
	irq_handler_t thread_fn;
	void *dev_id;
	unsigned int thread_bit;	/* its bit in the line's oneshot_mask; 0: not ONESHOT */
	unsigned int claimed;
};

#define IRQSYNC_THREAD_CHANNELS (NR_IRQS * IRQSYNC_MAX_SHARERS)
/* The channel of a line's waiters, after every thread channel (config.h). */
#define IRQSYNC_WAIT_CHANNEL(irq) (IRQSYNC_THREAD_CHANNELS + (irq))

extern struct irq_thread irqsync_threads[IRQSYNC_THREAD_CHANNELS];

/*
 * struct irq_desc - one interrupt line.
 *
 * Locking rules: everything below @lock is read and written only with
 * @lock held and local interrupts disabled (handle_irq takes the lock on
 * this CPU too), with one exception: @status is also read WITHOUT the lock
 * by the spin of synchronize_irq (S_SPIN_READ), which is why it is an
 * atomic word.  Writes of @status happen only under @lock
 * (REQ-DISPATCH-1).
 *
 * The chain is action[0 .. nr_actions-1], in registration order.  Dispatch
 * copies it under the lock at the start of each pass and runs the copy
 * without the lock, so a concurrent free_irq never races with the walk;
 * free_irq then waits for that pass to end (REQ-LIFECYCLE-5).
 */
struct irq_desc {
	spinlock_t lock;
	irqsync_atomic_t status;	/* IRQS_* */
	unsigned int depth;		/* nested disables; 0 = enabled */
	unsigned int nr_actions;
	struct irqaction action[IRQSYNC_MAX_SHARERS];
	unsigned long handled;		/* irq_stats() */
	unsigned long unhandled;
	unsigned int spur_passes;	/* passes in this spurious window */
	unsigned int spur_unhandled;	/* unhandled among them */
	/*
	 * Threaded actions (spec/threaded.md): @threads_active counts the thread episodes
	 * counted and not yet ended, +1 by the waker under @lock inside the instance, -1 by
	 * the thread at its end (fully ordered); read WITHOUT the lock (acquire) by the waiters,
	 * hence atomic.  @oneshot_mask holds the bits of the ONESHOT threads woken and not yet
	 * finalised: under @lock only.
	 */
	irqsync_atomic_t threads_active;
	unsigned int oneshot_mask;
};

extern struct irq_desc irq_desc[NR_IRQS];

/*
 * irqsync_serving[ctx] - 1 + the line whose handler runs in context ctx, 0 if none.  A
 * context is a CPU (0 .. IRQSYNC_NR_CPUS-1) or a handler thread's channel (IRQSYNC_NR_CPUS +
 * channel): a handler thread is not a CPU (port.h), and a hard handler that interrupts a
 * thread's run (bare metal) or one a thread replays (enable_irq) is served in that thread's
 * context.  Written and read only by that context (with interrupts disabled when written), so
 * it needs no lock.
 */
#define IRQSYNC_NR_CONTEXTS (IRQSYNC_NR_CPUS + IRQSYNC_PORT_CHANNELS)
extern unsigned int irqsync_serving[IRQSYNC_NR_CONTEXTS];

/* The calling context's index in irqsync_serving (handle.c). */
unsigned int irqsync_context(void);

/* A pass's private copy of the chain (see struct irq_desc); @thread as in struct irqaction. */
struct irq_chain {
	unsigned int nr;
	irq_handler_t handler[IRQSYNC_MAX_SHARERS];
	void *dev_id[IRQSYNC_MAX_SHARERS];
	unsigned int thread[IRQSYNC_MAX_SHARERS];
	unsigned int oneshot;	/* the line is ONESHOT (its actions agree, REQ-THREAD-3) */
};

/*
 * What one instance owes its handler threads: the channels it woke in the last pass, kicked
 * after the lock is dropped (T_WAKEUP), and whether it masked the line (REQ-ONESHOT-1).
 */
struct irq_wake {
	unsigned int nr;
	unsigned int chan[IRQSYNC_MAX_SHARERS];
	unsigned int masked;
};

/* sync.c: the wait of synchronize_irq, disable_irq and free_irq (test libraries link a
 * variant of twins/variants/ in its place). */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq);

/* 1 when the calling CPU is running a handler of @irq. */
int irqsync_in_own_handler(unsigned int irq);

/* thread.c: handler threads (spec/threaded.md).  The waker at D_RELOCK (lock held, inside the
 * instance) for the action of chain slot @slot; the kicks and the mask of an instance; the
 * thread; the waits of synchronize_irq; the refusal's test. */
void irqsync_wake_thread(struct irq_desc *desc, unsigned int irq, unsigned int thread,
			 struct irq_wake *wake);
void irqsync_kick_threads(struct irq_wake *wake, unsigned int irq);
void irqsync_oneshot_end(struct irq_desc *desc, const struct irq_wake *wake, unsigned int irq);
void irqsync_thread_fn(unsigned int chan);
void irqsync_wait_for_threads(struct irq_desc *desc, unsigned int irq);
int irqsync_wait_for_chip(unsigned int irq);
int irqsync_threads_idle(unsigned int chan);
int irqsync_in_own_thread(unsigned int irq);
irqreturn_t irqsync_default_primary(void *dev_id);

/* warn.c: zero the warning counters (irqsync_init only). */
void irqsync_warn_reset(void);

#endif /* _IRQSYNC_CORE_INTERNAL_H */

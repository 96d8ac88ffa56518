/* SPDX-License-Identifier: MIT */
/*
 * thread.c - threaded handlers (spec/threaded.md): the waker of dispatch, the handler
 * thread with its ONESHOT finalisation, and the waits of synchronize_irq for the threads and
 * for the controller.
 *
 * An episode is a 0 -> 1 of an action's run_pending.  The waker counts it in the line's
 * threads_active inside the handler instance (INPROGRESS set, descriptor lock held), BEFORE it
 * sets run_pending: the thread takes the run without the lock, so counting after would let
 * the thread end and uncount first, and a waiter woken by that uncount would see a count
 * above 0 and sleep for good (spec/threaded.md, "Count before the exchange").  The thread
 * uncounts after its thread_fn and its finalisation, fully ordered; the waiters read the
 * count with acquire, so what the thread_fn wrote is theirs on return (REQ-THREAD-4).
 */
#include "desc.h"

struct irq_thread irqsync_threads[IRQSYNC_THREAD_CHANNELS];

/* The primary of request_threaded_irq(irq, NULL, thread_fn, IRQF_ONESHOT, ...). */
irqreturn_t irqsync_default_primary(void *dev_id)
{
	(void)dev_id;
	return IRQ_WAKE_THREAD;
}

/* The one place a thread function is called through its pointer (trusted, as the hard
 * handler's call: acsl/thread.h).  Contract: acsl/thread.h (irqsync_call_thread_fn). */
static irqreturn_t irqsync_call_thread_fn(irq_handler_t thread_fn, void *dev_id)
{
	return thread_fn(dev_id);
}

/* Call channel @chan's thread function with its dev_id.  A function of its own, which takes
 * no address of the channel table: the proof's memory model then keeps the driver's pointers
 * apart from the table (spec/proof.md).  Contract: acsl/thread.h (irqsync_thread_call). */
static void irqsync_thread_call(unsigned int chan)
{
	(void)irqsync_call_thread_fn(irqsync_threads[chan].thread_fn, irqsync_threads[chan].dev_id);
	/*@ ghost g_phase = IRQSYNC_PH_RAN; */	/* the thread function has returned */
}

/* Wake the waiters of @irq's threads (the count just reached 0). */
static void irqsync_wake_waiters(unsigned int irq)
{
	irqsync_port_wake(IRQSYNC_WAIT_CHANNEL(irq));
}

/*
 * The episode protocol's four atomic operations, one helper each.  Each also moves this
 * context's ghost typestate g_phase (acsl/logic/ghost.h), and its contract (acsl/thread.h)
 * says in which states it may run: the order of the protocol (count before raise, give back a
 * folded count, uncount only after the run and its finalisation) is a precondition proved at
 * every call, not a comment.
 */

/* T_COUNT: count one episode of the line (lock held, inside the instance). */
static void irqsync_count_episode(struct irq_desc *desc, unsigned int irq)
{
	(void)irq;	/* the line's number names the instance in the contract only */
	irqsync_atomic_inc_relaxed(&desc->threads_active);
	/*@ ghost g_phase = IRQSYNC_PH_COUNTED; */
}

/* T_WAKE: raise the action's run flag.  Return: its old value (0: a new episode). */
static unsigned int irqsync_raise_run(struct irq_thread *t)
{
	/* Initialised for the proof's initialisation checks (internal.h); read after the call. */
	/* cppcheck-suppress unreadVariable */
	unsigned int was = 0U;

	was = irqsync_atomic_xchg(&t->run_pending, 1U);

	/*@ ghost g_phase = was == 0U ? IRQSYNC_PH_RAISED : IRQSYNC_PH_FOLDED; */
	return was;
}

/* T_RUN: take the action's pending run.  Return: the flag's old value (0: nothing to run). */
static unsigned int irqsync_take_run(struct irq_thread *t)
{
	/* Initialised for the proof's initialisation checks (internal.h); read after the call. */
	/* cppcheck-suppress unreadVariable */
	unsigned int was = 0U;

	was = irqsync_atomic_xchg(&t->run_pending, 0U);

	/*@ ghost g_phase = was != 0U ? IRQSYNC_PH_TAKEN : IRQSYNC_PH_IDLE; */
	return was;
}

/* T_FOLD's give-back and T_DONE: take one episode's count back.  Return: the count left. */
static unsigned int irqsync_uncount(struct irq_desc *desc)
{
	/* Initialised for the proof's initialisation checks (internal.h); read after the call. */
	/* cppcheck-suppress unreadVariable */
	unsigned int left = 0U;

	left = irqsync_atomic_dec_return(&desc->threads_active);

	/*@ ghost g_phase = IRQSYNC_PH_IDLE; */
	return left;
}

/*
 * The waker (T_COUNT, T_WAKE, T_FOLD), for the action with thread channel @thread - 1 whose
 * primary returned IRQ_WAKE_THREAD in the pass just run.  Called at D_RELOCK: desc->lock held
 * and INPROGRESS set, so a synchronize_irq whose locked re-check follows sees the count
 * (REQ-THREAD-1).  A run already pending folds this wake-up into it (REQ-THREAD-7): the count taken
 * is given back, and when that brings it to 0 (the pending run ended meanwhile) the waiters
 * are woken.  On a 0 -> 1 the channel is owed a kick after the unlock (T_WAKEUP) and a
 * ONESHOT action's bit joins the line's mask (REQ-ONESHOT-2).
 */
void irqsync_wake_thread(struct irq_desc *desc, unsigned int irq, unsigned int thread,
			 struct irq_wake *wake) __must_hold(&desc->lock)
{
	struct irq_thread *t = &irqsync_threads[thread - 1U];

	IRQSYNC_STEP(T_COUNT, irq);
	irqsync_count_episode(desc, irq);
	IRQSYNC_STEP(T_WAKE, irq);
	if (irqsync_raise_run(t) != 0U) {
		IRQSYNC_STEP(T_FOLD, irq);
		if (irqsync_uncount(desc) == 0U)
			irqsync_wake_waiters(irq);
		return;
	}
	desc->oneshot_mask |= t->thread_bit;
	if (wake->nr < IRQSYNC_MAX_SHARERS)
		wake->chan[wake->nr++] = thread - 1U;
}

/* Kick the threads an instance woke (T_WAKEUP); called without the lock. */
void irqsync_kick_threads(struct irq_wake *wake, unsigned int irq)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= wake->nr;
	    loop assigns i;
	    loop variant wake->nr - i; */
	for (i = 0; i < wake->nr; i++) {
		IRQSYNC_STEP(T_WAKEUP, irq);
		irqsync_port_thread_kick(wake->chan[i]);
	}
	wake->nr = 0U;
}

/*
 * The end of an instance of a ONESHOT line (lock held, INPROGRESS just cleared): unmask the line
 * when no woken thread holds a bit (T_UNMASK): none was woken, or all have finalised
 * (REQ-ONESHOT-3, -4).  Otherwise the last thread to finalise unmasks it.
 */
void irqsync_oneshot_end(struct irq_desc *desc, const struct irq_wake *wake, unsigned int irq)
	__must_hold(&desc->lock)
{
	if (wake->masked && desc->oneshot_mask == 0U) {
		IRQSYNC_STEP(T_UNMASK, irq);
		irqsync_port_line_unmask(irq);
	}
}

/*
 * T_FIN_CLEAR: clear the thread's bit of the line's mask (REQ-ONESHOT-2: its contract says when
 * it may run); the clear that empties the mask unmasks the line (T_UNMASK, REQ-ONESHOT-3).
 * Called with desc->lock held.
 */
static void irqsync_oneshot_clear(struct irq_desc *desc, const struct irq_thread *t,
				  unsigned int irq) __must_hold(&desc->lock)
{
	desc->oneshot_mask &= ~t->thread_bit;
	if (desc->oneshot_mask == 0U) {
		IRQSYNC_STEP(T_UNMASK, irq);
		irqsync_port_line_unmask(irq);
	}
}

/*
 * ONESHOT finalisation (T_FIN_*): clear the thread's bit, under the lock, once no instance of
 * the line runs (INPROGRESS clear: an instance under way may still wake this thread, and
 * would then find its bit gone and the line unmasked while its primaries ran) and only if no
 * new run is pending (that run's finalisation clears it).  The clear that empties the mask
 * unmasks the line (REQ-ONESHOT-2, -3: irqsync_oneshot_clear).  Called by the thread,
 * interrupts enabled.
 */
static void irqsync_finalize_oneshot(struct irq_desc *desc, struct irq_thread *t,
				     unsigned int irq)
{
	irq_flags_t flags;
	/* Initialised for the proof's initialisation checks (internal.h); read after the read. */
	/* cppcheck-suppress unreadVariable */
	unsigned int status = 0U;

	/*@ loop invariant cpu_ready && no_desc_lock_held && ACSL_INIT;
	    loop invariant g_lock_depth == \at(g_lock_depth, Pre) && lock_prefix_kept{Pre, Here};
	    loop invariant g_irqs_enabled == \at(g_irqs_enabled, Pre);
	    loop invariant \at(instances_ok, Pre) ==> instances_ok;
	    loop assigns flags, status, ACSL_API_EFFECTS; */
	for (;;) {
		flags = irqsync_desc_lock(desc, IRQSYNC_STEP_T_FIN_LOCK, irq);
		IRQSYNC_STEP(T_FIN_CHECK, irq);
		status = irqsync_atomic_read_relaxed(&desc->status);
		if (!(status & IRQS_INPROGRESS))
			break;
		irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_T_FIN_UNLOCK, irq);
		irqsync_port_cpu_relax();
	}
	if (irqsync_atomic_read_relaxed(&t->run_pending) == 0U) {
		IRQSYNC_STEP(T_FIN_CLEAR, irq);
		irqsync_oneshot_clear(desc, t, irq);
	}
	irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_T_FIN_UNLOCK, irq);
}

/*
 * A handler thread's run (the port calls it for channel @chan after a kick): take the pending
 * run (T_RUN; none: a kick folded into an earlier run), call the thread_fn, finalise a ONESHOT
 * action, and end the episode (T_DONE): the uncount comes last, fully ordered, so a waiter
 * that reads 0 with acquire sees every write of the run (REQ-THREAD-4), and the waiters are woken
 * when it reaches 0 (REQ-THREAD-8).
 */
void irqsync_thread_fn(unsigned int chan)
{
	struct irq_thread *t = &irqsync_threads[chan];
	unsigned int irq = chan / IRQSYNC_MAX_SHARERS;
	struct irq_desc *desc = &irq_desc[irq];

	IRQSYNC_STEP(T_RUN, irq);
	if (irqsync_take_run(t) == 0U)
		return;
	irqsync_thread_call(chan);
	if (t->thread_bit != 0U)
		irqsync_finalize_oneshot(desc, t, irq);
	IRQSYNC_STEP(T_DONE, irq);
	if (irqsync_uncount(desc) == 0U)
		irqsync_wake_waiters(irq);
}

/* The waiters' test (their channel @chan): no thread episode of the line is active (acquire,
 * REQ-THREAD-4).  Contract: acsl/thread.h (irqsync_threads_idle). */
int irqsync_threads_idle(unsigned int chan)
{
	return irqsync_atomic_read_acquire(&irq_desc[chan - IRQSYNC_THREAD_CHANNELS].threads_active)
		== 0U;
}

/*
 * S_THREADS: wait until no thread episode of @irq is active.  Called after the hard wait,
 * whose locked re-check ordered every count made by an instance that began before the call
 * before this read (REQ-THREAD-1).  The port's wait tests after announcing the waiter, so the
 * wake-up of the uncount that reaches 0 is not lost (REQ-THREAD-8).
 */
void irqsync_wait_for_threads(struct irq_desc *desc, unsigned int irq)
{
	IRQSYNC_STEP(S_THREADS, irq);
	if (irqsync_atomic_read_acquire(&desc->threads_active) == 0U)
		return;
	IRQSYNC_STEP(S_THREADS_SLEEP, irq);
	irqsync_port_wait(IRQSYNC_WAIT_CHANNEL(irq), irqsync_threads_idle);
}

/*
 * S_CHIP: whether an interrupt of @irq is still in flight at the controller (taken for
 * delivery, its handle_irq not yet returned), where the port can tell (REQ-THREAD-10,
 * 62e0468650c3).  Return: 1 when the caller must wait again, else 0.
 */
int irqsync_wait_for_chip(unsigned int irq)
{
	IRQSYNC_STEP(S_CHIP, irq);
	return irqsync_port_line_inflight(irq) == 1;
}

/* 1 when the calling context runs a handler thread of @irq (REQ-THREAD-5). */
int irqsync_in_own_thread(unsigned int irq)
{
	unsigned int cur = 0U;

	cur = irqsync_port_thread_current();
	return cur != 0U && cur <= IRQSYNC_THREAD_CHANNELS &&
	       (cur - 1U) / IRQSYNC_MAX_SHARERS == irq;
}

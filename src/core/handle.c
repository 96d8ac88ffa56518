/* SPDX-License-Identifier: MIT */
/*
 * handle.c - dispatch: handle_irq() and the handler chain (REQ-DISPATCH-*).
 *
 * The flow is the kernel's: take the descriptor lock; if the line is
 * disabled or its handler runs elsewhere, set PENDING and leave; else set
 * INPROGRESS, drop the lock, run the chain, retake the lock, replay while
 * PENDING was set meanwhile, clear INPROGRESS, drop the lock.  The whole of
 * it runs with local interrupts disabled (REQ-DISPATCH-8).
 */
#include "desc.h"

unsigned int irqsync_serving[IRQSYNC_NR_CONTEXTS];

/* The calling context: the handler thread's channel, else the CPU (internal.h).
 * Contract: acsl/handle.h (irqsync_context). */
unsigned int irqsync_context(void)
{
	unsigned int thread = 0U;

	thread = irqsync_port_thread_current();
	if (thread != 0U && thread <= IRQSYNC_PORT_CHANNELS)
		return IRQSYNC_NR_CPUS + thread - 1U;
	return irqsync_port_cpu_id();
}

/* The one place a handler is called through its pointer.
 * Contract: acsl/handle.h (irqsync_call_handler). */
static irqreturn_t irqsync_call_handler(irq_handler_t handler, void *dev_id)
{
	return handler(dev_id);
}

/*
 * One pass of the chain: call every action, in order, with its own dev_id
 * (REQ-DISPATCH-4).  A primary's IRQ_WAKE_THREAD counts as handled and, for an
 * action with a thread, puts its thread into @woke[slot] (0: none to wake; the waker,
 * irqsync_wake_thread, runs after the pass under the lock).
 * Return: 1 if any returned IRQ_HANDLED or IRQ_WAKE_THREAD, else 0.
 * Contract: acsl/handle.h (irqsync_run_chain).
 */
static int irqsync_run_chain(const struct irq_chain *chain, unsigned int *woke)
{
	unsigned int i;
	int handled = 0;
	/* Initialised for the proof's initialisation checks (internal.h); read after the call. */
	/* cppcheck-suppress unreadVariable */
	irqreturn_t ret = IRQ_NONE;

	/*@ loop invariant 0 <= i <= chain->nr;
	    loop invariant handled == 0 || handled == 1;
	    loop invariant cpu_ready && irqs_off && no_desc_lock_held && ACSL_INIT;
	    loop invariant REQ_SYNC_1: serving_instance;
	    loop invariant g_lock_depth == \at(g_lock_depth, Pre) && lock_prefix_kept{Pre, Here};
	    loop invariant REQ_THREAD_7: woke_own: \forall integer k; 0 <= k < i ==>
	      woke[k] == 0 || woke[k] == chain->thread[k];
	    loop invariant \initialized(&woke[0 .. i - 1]);
	    loop assigns i, handled, ret, woke[0 .. IRQSYNC_MAX_SHARERS - 1], ACSL_DESCS,
	                 ACSL_LOCK_FREE, g_lock_depth,
	                 warn_count[..], g_mask_call[..];
	    loop variant chain->nr - i; */
	for (i = 0; i < chain->nr; i++) {
		ret = irqsync_call_handler(chain->handler[i], chain->dev_id[i]);
		if (ret == IRQ_HANDLED || ret == IRQ_WAKE_THREAD)
			handled = 1;
		woke[i] = ret == IRQ_WAKE_THREAD ? chain->thread[i] : 0U;
	}
	return handled;
}

/* Copy the chain for the next pass.  Called with desc->lock held.
 * Contract: acsl/handle.h (irqsync_snapshot_chain). */
static void irqsync_snapshot_chain(const struct irq_desc *desc, struct irq_chain *chain)
{
	unsigned int i;

	chain->nr = desc->nr_actions;
	/* The sharers agree on ONESHOT (REQ-THREAD-3): the first action says it for the line. */
	chain->oneshot = desc->nr_actions != 0U && (desc->action[0].flags & IRQF_ONESHOT) != 0UL;
	/*@ loop invariant 0 <= i <= chain->nr && chain->nr == desc->nr_actions;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      chain->handler[k] == desc->action[k].handler && chain->dev_id[k] == desc->action[k].dev_id &&
	      chain->thread[k] == desc->action[k].thread;
	    loop invariant \initialized(&chain->nr) && \initialized(&chain->handler[0 .. i - 1]) &&
	      \initialized(&chain->dev_id[0 .. i - 1]) && \initialized(&chain->thread[0 .. i - 1]);
	    loop invariant ACSL_INIT;
	    loop assigns i, chain->handler[0 .. IRQSYNC_MAX_SHARERS - 1],
	                 chain->dev_id[0 .. IRQSYNC_MAX_SHARERS - 1],
	                 chain->thread[0 .. IRQSYNC_MAX_SHARERS - 1];
	    loop variant chain->nr - i; */
	for (i = 0; i < chain->nr; i++) {
		chain->handler[i] = desc->action[i].handler;
		chain->dev_id[i] = desc->action[i].dev_id;
		chain->thread[i] = desc->action[i].thread;
	}
}

/*
 * The waker for each thread the pass's primaries woke (@woke[0 .. @nr-1], 0: none), at
 * D_RELOCK: lock held, inside the instance (irqsync_wake_thread, spec/threaded.md).
 * Contract: acsl/handle.h (irqsync_wake_threads).
 */
static void irqsync_wake_threads(struct irq_desc *desc, unsigned int irq, unsigned int nr,
				 const unsigned int *woke, struct irq_wake *wake)
	__must_hold(&desc->lock)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= nr;
	    loop invariant ACSL_INIT && ACSL_WAKE_OK(wake) && wake->masked == \at(wake->masked, Pre);
	    loop invariant in_critical_section(desc) && instance_running(irq);
	    loop invariant \at(instances_ok, Pre) ==> instances_ok;
	    loop invariant desc->status.counter == \at(desc->status.counter, Pre);
	    loop invariant g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
	    loop assigns i, ACSL_WAKER_EFFECTS(desc, wake);
	    loop variant nr - i; */
	for (i = 0; i < nr; i++) {
		if (woke[i] != 0U)
			irqsync_wake_thread(desc, irq, woke[i], wake);
	}
}

/*
 * The part of a pass that runs with the line's lock dropped, inside the instance: on a
 * ONESHOT line mask it at the controller first (T_MASK, REQ-ONESHOT-1), kick the threads the
 * previous pass woke (T_WAKEUP), then run the chain (D_HANDLER).  A helper of its own so
 * that the replay loop of irqsync_run_passes stays small enough to prove.
 * Return: as irqsync_run_chain().
 * Contract: acsl/handle.h (irqsync_unlocked_pass).
 */
static int irqsync_unlocked_pass(const struct irq_chain *chain, unsigned int *woke,
				 struct irq_wake *wake, unsigned int irq)
{
	if (chain->oneshot) {
		IRQSYNC_STEP(T_MASK, irq);
		irqsync_port_line_mask(irq);
		wake->masked = 1U;
	}
	if (wake->nr != 0U)
		irqsync_kick_threads(wake, irq);

	IRQSYNC_STEP(D_HANDLER, irq);
	return irqsync_run_chain(chain, woke);
}

/*
 * Count one pass (REQ-DISPATCH-5) and run spurious detection
 * (REQ-DISPATCH-6): at the end of each window of IRQSYNC_SPURIOUS_WINDOW
 * passes, a line with more than IRQSYNC_SPURIOUS_THRESHOLD unhandled ones
 * is disabled (depth + 1, saturating at IRQSYNC_DEPTH_MAX).
 * Called with desc->lock held.  Return: 1 if the line was just disabled.
 * Contract: acsl/handle.h (irqsync_note_pass).
 */
static int irqsync_note_pass(struct irq_desc *desc, int handled)
{
	int nobody_cared;

	if (handled) {
		desc->handled++;
	} else {
		desc->unhandled++;
		desc->spur_unhandled++;
	}
	desc->spur_passes++;
	if (desc->spur_passes < IRQSYNC_SPURIOUS_WINDOW)
		return 0;

	nobody_cared = desc->spur_unhandled > IRQSYNC_SPURIOUS_THRESHOLD;
	desc->spur_passes = 0;
	desc->spur_unhandled = 0;
	if (!nobody_cared)
		return 0;
	if (desc->depth < IRQSYNC_DEPTH_MAX)
		desc->depth++;
	(void)irqsync_status_update(desc, 0U, IRQS_DISABLED);
	return 1;
}

/*
 * Run passes of the chain until no arrival is pending.  Entered and left
 * with desc->lock held, INPROGRESS set and local interrupts disabled; the
 * lock is dropped around each pass.
 *
 * A PENDING arrival is replayed here (REQ-DISPATCH-2) unless the line was
 * disabled meanwhile: then it stays PENDING for the enable_irq() that
 * re-enables the line (REQ-DISPATCH-7), which also stops a line found
 * spurious from keeping this CPU here (REQ-DISPATCH-6).
 *
 * Threaded actions (spec/threaded.md): a ONESHOT line is masked before each pass
 * (T_MASK, REQ-ONESHOT-1); the threads a pass's primaries woke are counted and woken
 * under the lock at D_RELOCK, inside the instance (irqsync_wake_thread, REQ-THREAD-1), and
 * kicked after the next unlock (T_WAKEUP): here before the next pass, or by
 * handle_irq after the instance.
 *
 * Return: 1 if spurious detection disabled the line.
 * Contract: acsl/handle.h (irqsync_run_passes).
 */
static int irqsync_run_passes(struct irq_desc *desc, unsigned int irq, struct irq_wake *wake)
	__must_hold(&desc->lock)
{
	struct irq_chain chain;
	unsigned int woke[IRQSYNC_MAX_SHARERS];
	/* Initialised for the proof's initialisation checks (internal.h); read after the calls. */
	/* cppcheck-suppress unreadVariable */
	unsigned int status = 0U;
	/* cppcheck-suppress unreadVariable */
	int handled = 0;
	int spurious = 0;

	/* The lock lies apart from the status words: a fact about addresses, which no store in
	 * the loop can change.  Proved here, before the loop, in a second or two; inside it the
	 * provers had to find it again among the loop's hypotheses (spin_unlock's precondition,
	 * 17-27 s). */
	/*@ assert lock_apart: lock_not_status(&desc->lock); */
	/* (every_pass_in_instance comes before cpu_ready: WP proves each invariant assuming the
	 * ones before it, so a pass outside the instance fails this named one.) */
	/* every_pass_in_instance is instance_running(irq) unfolded: -wp-split then proves its two
	 * halves apart (Qed and 8 s), where as one goal it took cvc4 23 s and z3 20 s. */
	/*@ loop invariant REQ_SYNC_1: REQ_DISPATCH_3: every_pass_in_instance:
	      g_instance[irq] == 1 && inprogress(irq);
	    loop invariant in_critical_section(desc) && ACSL_INIT;
	    loop invariant g_lock_depth == \at(g_lock_depth, Pre);
	    loop invariant in_handler_of(irq) && irqs_off && cpu_ready;
	    loop invariant lock_prefix_kept{Pre, Here};
	    loop invariant spurious == 0 || spurious == 1;
	    loop invariant ACSL_WAKE_OK(wake);
	    loop invariant g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
	    loop assigns chain, status, handled, spurious, woke[0 .. IRQSYNC_MAX_SHARERS - 1],
	                 ACSL_DESCS, g_lock_stack[..], g_lock_depth,
	                 ACSL_SREAD, warn_count[..], *wake, g_phase, g_mask_call[..]; */
	for (;;) {
		irqsync_snapshot_chain(desc, &chain);
		IRQSYNC_STEP(D_UNLOCK, irq);
		spin_unlock(&desc->lock);
		handled = irqsync_unlocked_pass(&chain, woke, wake, irq);

		IRQSYNC_STEP(D_RELOCK, irq);
		spin_lock(&desc->lock);
		spurious |= irqsync_note_pass(desc, handled);

		IRQSYNC_STEP(D_CHECK_PENDING, irq);
		status = irqsync_atomic_read_relaxed(&desc->status);
		irqsync_wake_threads(desc, irq, chain.nr, woke, wake);
		if ((status & (IRQS_PENDING | IRQS_DISABLED)) != IRQS_PENDING)
			return spurious;
		IRQSYNC_STEP(D_CLEAR_PENDING, irq);
		(void)irqsync_status_update(desc, IRQS_PENDING, 0U);
	}
}

/*
 * Run a handler instance: INPROGRESS is set and the lock held on entry and
 * exit.  Records the line as served by this CPU for get_irqfunc_irq() and
 * for the -EDEADLK checks.  Return: as irqsync_run_passes().
 * Contract: acsl/handle.h (irqsync_handler_instance).
 */
static int irqsync_handler_instance(struct irq_desc *desc, unsigned int irq,
				    struct irq_wake *wake) __must_hold(&desc->lock)
{
	unsigned int cpu = 0U;
	unsigned int prev = 0U;
	int spurious = 0;

	cpu = irqsync_context();
	prev = irqsync_serving[cpu];	/* a nested dispatch restores it */
	irqsync_serving[cpu] = irq + 1U;
	spurious = irqsync_run_passes(desc, irq, wake);
	irqsync_serving[cpu] = prev;
	return spurious;
}

/*
 * Begin a handler instance of @irq (D_SET_INPROGRESS): the one status write that may set
 * INPROGRESS.  Its contract (acsl/handle.h) requires the locked read of this hold to have
 * found the line idle and enabled, and carries the instance's ghost state: g_begin across
 * the write, g_instance from it on.  Called with desc->lock held.
 * Contract: acsl/handle.h (irqsync_begin_instance).
 */
static void irqsync_begin_instance(struct irq_desc *desc, unsigned int irq) __must_hold(&desc->lock)
{
	(void)irq;	/* the line's number indexes the ghost state only */
	/*@ ghost int began = g_begin[irq]; */
	/*@ ghost g_begin[irq] = 1; */	/* the one write that may set INPROGRESS ... */
	(void)irqsync_status_update(desc, IRQS_PENDING, IRQS_INPROGRESS);
	/*@ ghost g_begin[irq] = began; */
	/*@ ghost g_instance[irq] = 1; */	/* ... begins the instance */
}

/*
 * End this CPU's handler instance of @irq (D_CLEAR_INPROGRESS): the write that clears
 * INPROGRESS, and with it the ghost g_instance.  Called with desc->lock held.
 * Contract: acsl/handle.h (irqsync_end_instance).
 */
static void irqsync_end_instance(struct irq_desc *desc, unsigned int irq) __must_hold(&desc->lock)
{
	(void)irq;	/* the line's number indexes the ghost state only */
	(void)irqsync_status_update(desc, IRQS_INPROGRESS, 0U);
	/*@ ghost g_instance[irq] = 0; */
}

/*
 * Dispatch one arrival on @irq: every locked path leaves through the one unlock at the end
 * (D_UNLOCK when the arrival was only counted or held, D_UNLOCK_END after an instance ran).
 * Contract: acsl/handle.h (handle_irq).
 */
int handle_irq(unsigned int irq)
{
	struct irq_desc *desc;
	irq_flags_t flags;
	struct irq_wake wake;
	enum irqsync_step unlock_step = IRQSYNC_STEP_D_UNLOCK;
	unsigned int status = 0U;
	int spurious = 0;

	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	desc = &irq_desc[irq];
	wake.nr = 0U;
	wake.masked = 0U;
	/* The interrupted code's status-read log, given back on return (frame_kept): an
	 * interrupt's reads are not the interrupted code's (spec/proof.md, A6). */
	/*@ ghost const irqsync_atomic_t *log_word = g_sread_word; */
	/*@ ghost unsigned int log_value = g_sread_value; */
	/*@ ghost spinlock_t *log_lock = g_sread_lock; */
	/*@ ghost unsigned int log_holds = g_sread_holds; */
	/* ... and its place in the episode protocol: an interrupt begins owing nothing. */
	/*@ ghost int log_phase = g_phase; */
	/*@ ghost g_phase = IRQSYNC_PH_IDLE; */

	flags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);
	if (desc->nr_actions == 0U) {
		/* REQ-DISPATCH-9: a stray interrupt, counted, not dispatched. */
		desc->unhandled++;
		goto unlock;
	}

	IRQSYNC_STEP(D_CHECK, irq);
	/*@ assert status_word: is_status_word(&desc->status); */	/* the read is logged */
	status = irqsync_atomic_read_relaxed(&desc->status);
	if (status & (IRQS_DISABLED | IRQS_INPROGRESS)) {
		/* Held for enable_irq, or replayed by the running instance. */
		IRQSYNC_STEP(D_SET_PENDING, irq);
		(void)irqsync_status_update(desc, 0U, IRQS_PENDING);
		/*@ assert REQ_DISPATCH_2: REQ_DISPATCH_7: held_pending: (desc->status.counter & IRQS_PENDING) != 0; */
		goto unlock;
	}

	/* No instance holds the line and it is enabled: said of the value the status read
	 * logged, read in this hold of the lock (a decision on a read made before the lock was
	 * taken, or in an earlier hold, fails these). */
	/*@ assert REQ_SYNC_1: line_idle: read_in_this_hold(desc) &&
	      (g_sread_value & IRQS_INPROGRESS) == 0; */
	/*@ assert REQ_DISPATCH_7: line_enabled: read_in_this_hold(desc) &&
	      (g_sread_value & IRQS_DISABLED) == 0; */
	IRQSYNC_STEP(D_SET_INPROGRESS, irq);
	irqsync_begin_instance(desc, irq);
	spurious = irqsync_handler_instance(desc, irq, &wake);
	IRQSYNC_STEP(D_CLEAR_INPROGRESS, irq);
	irqsync_end_instance(desc, irq);
	/*@ assert REQ_SYNC_5: instance_closed: (desc->status.counter & IRQS_INPROGRESS) == 0; */
	irqsync_oneshot_end(desc, &wake, irq);
	unlock_step = IRQSYNC_STEP_D_UNLOCK_END;
unlock:
	irqsync_desc_unlock(desc, flags, unlock_step, irq);
	if (wake.nr != 0U)	/* a plain line's dispatch pays no call */
		irqsync_kick_threads(&wake, irq);
	if (spurious)
		irqsync_warn(IRQSYNC_WARN_NOBODY_CARED, irq);
	/*@ ghost g_sread_word = log_word; g_sread_value = log_value; g_sread_lock = log_lock;
	          g_sread_holds = log_holds; */
	/*@ ghost g_phase = log_phase; */
	return 0;
}

/* Contract: acsl/handle.h (irqsync_in_own_handler). */
int irqsync_in_own_handler(unsigned int irq)
{
	return irqsync_serving[irqsync_context()] == irq + 1U;
}

/* Contract: acsl/handle.h (get_irqfunc_irq). */
int get_irqfunc_irq(void)
{
	unsigned int serving = irqsync_serving[irqsync_context()];

	if (serving == 0U)
		return -IRQSYNC_ESRCH;
	return (int)(serving - 1U);
}

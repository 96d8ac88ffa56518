/* SPDX-License-Identifier: MIT */
/*
 * manage.c - the descriptor table and the driver API: request/free,
 * disable/enable, synchronize_irq (REQ-LIFECYCLE-*, REQ-DEPTH-*, REQ-SYNC-*).
 * The wait these share, irqsync_wait_for_handler, is in sync.c.
 *
 * Every descriptor access below takes the descriptor lock with
 * spin_lock_irqsave(): handle_irq() takes the same lock on the same CPU,
 * so holding it with interrupts enabled could deadlock.
 */
#include "desc.h"

struct irq_desc irq_desc[NR_IRQS];

/* Free one action slot.  The line is being initialised or its lock is held.
 * Contract: acsl/manage.h (irqsync_action_clear). */
static void irqsync_action_clear(struct irq_desc *desc, unsigned int slot)
{
	struct irqaction *action = &desc->action[slot];

	action->handler = (irq_handler_t)0;
	action->dev_id = (void *)0;
	action->name = (const char *)0;
	action->flags = 0UL;
	action->thread = 0U;
}

/* Copy action slot @from into slot @to.  Lock held.
 * Contract: acsl/manage.h (irqsync_action_move). */
static void irqsync_action_move(struct irq_desc *desc, unsigned int to, unsigned int from)
{
	/* Field by field: the initialisation proof follows each field (acsl/logic/init.h). */
	desc->action[to].handler = desc->action[from].handler;
	desc->action[to].dev_id = desc->action[from].dev_id;
	desc->action[to].name = desc->action[from].name;
	desc->action[to].flags = desc->action[from].flags;
	desc->action[to].thread = desc->action[from].thread;
}

/* No thread episode counted, no ONESHOT bit: a call of its own, for the initialisation proof
 * (see irqsync_desc_init).  Contract: acsl/manage.h (irqsync_desc_init_threads). */
static void irqsync_desc_init_threads(struct irq_desc *desc)
{
	irqsync_atomic_set_relaxed(&desc->threads_active, 0U);
	desc->oneshot_mask = 0U;
}

/* Put one line in its initial state: no action, depth 1, DISABLED.
 * Contract: acsl/manage.h (irqsync_desc_init). */
static void irqsync_desc_init(struct irq_desc *desc)
{
	unsigned int i;

	spin_lock_init(&desc->lock);
	irqsync_atomic_set_relaxed(&desc->status, IRQS_DISABLED);
	irqsync_desc_init_threads(desc);
	desc->depth = 1U;
	desc->nr_actions = 0U;
	/*
	 * The slots are cleared by a call, not by four stores in the loop body:
	 * with the stores here, keeping ACSL_INIT across an iteration took the
	 * provers 6-40 s per field (a CI run timed out on one); across the
	 * call's contract it is immediate (spec/proof.md, "Initialisation").
	 */
	/*@ loop invariant 0 <= i <= IRQSYNC_MAX_SHARERS;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      action_free(&desc->action[k]);
	    loop invariant ACSL_INIT;
	    loop assigns i, desc->action[0 .. IRQSYNC_MAX_SHARERS - 1];
	    loop variant IRQSYNC_MAX_SHARERS - i; */
	for (i = 0; i < IRQSYNC_MAX_SHARERS; i++)
		irqsync_action_clear(desc, i);
	desc->handled = 0UL;
	desc->unhandled = 0UL;
	desc->spur_passes = 0U;
	desc->spur_unhandled = 0U;
}

/* Release every thread channel (irqsync_init: the threads of actions never freed are the
 * caller's to have freed first; their channels stay started in the port, and a request that
 * takes one again is refused by the port's start, -IRQSYNC_EBUSY).
 * Contract: acsl/manage.h (irqsync_threads_init). */
static void irqsync_threads_init(void)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= IRQSYNC_THREAD_CHANNELS;
	    loop invariant \forall integer k; 0 <= k < i ==> irqsync_threads[k].claimed == 0;
	    loop invariant ACSL_INIT;
	    loop assigns i, irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1];
	    loop variant IRQSYNC_THREAD_CHANNELS - i; */
	for (i = 0; i < IRQSYNC_THREAD_CHANNELS; i++) {
		(void)irqsync_atomic_xchg(&irqsync_threads[i].run_pending, 0U);
		irqsync_threads[i].thread_fn = (irq_handler_t)0;
		irqsync_threads[i].dev_id = (void *)0;
		irqsync_threads[i].thread_bit = 0U;
		irqsync_threads[i].claimed = 0U;
	}
}

/* Contract: acsl/manage.h (irqsync_init). */
void irqsync_init(void)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= NR_IRQS;
	    loop invariant ACSL_INIT;
	    loop invariant initialised_wf: \forall integer k; 0 <= k < i ==> desc_wf(&irq_desc[k]);
	    loop assigns i, irq_desc[0 .. NR_IRQS - 1];
	    loop variant NR_IRQS - i; */
	for (i = 0; i < NR_IRQS; i++) {
		irqsync_desc_init(&irq_desc[i]);
		/*@ assert this_wf: desc_wf(&irq_desc[i]); */
		/* The frame of the call, field by field, only the fields desc_wf reads: stated as
		 * one struct equality, cvc4 took 28 s to carry desc_wf through it (spec/proof.md). */
		/*@ assert earlier_kept: \forall integer k; 0 <= k < i ==>
		      irq_desc[k].nr_actions == \at(irq_desc[k].nr_actions, LoopCurrent) &&
		      irq_desc[k].depth == \at(irq_desc[k].depth, LoopCurrent); */
		/*@ assert earlier_actions_kept: \forall integer k, j;
		      0 <= k < i && 0 <= j < IRQSYNC_MAX_SHARERS ==>
		      irq_desc[k].action[j].handler == \at(irq_desc[k].action[j].handler, LoopCurrent) &&
		      irq_desc[k].action[j].dev_id == \at(irq_desc[k].action[j].dev_id, LoopCurrent) &&
		      irq_desc[k].action[j].thread == \at(irq_desc[k].action[j].thread, LoopCurrent); */
	}
	/*@ loop invariant 0 <= i <= IRQSYNC_NR_CONTEXTS;
	    loop invariant \forall integer c; 0 <= c < i ==>
	      irqsync_serving[c] == 0;
	    loop invariant ACSL_INIT;
	    loop assigns i, irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1];
	    loop variant IRQSYNC_NR_CONTEXTS - i; */
	for (i = 0; i < IRQSYNC_NR_CONTEXTS; i++)
		irqsync_serving[i] = 0U;
	irqsync_threads_init();
	irqsync_warn_reset();
}

/*
 * May an action with @flags and @dev_id join the line?  Sharers must agree on
 * IRQF_ONESHOT (REQ-THREAD-3): the line's mask is kept for all its actions or for none.
 * Lock held.  Return: 0, -IRQSYNC_EBUSY, -IRQSYNC_EINVAL (duplicate shared dev_id) or
 * -IRQSYNC_ENOSPC.
 * Contract: acsl/manage.h (irqsync_check_request).
 */
static int irqsync_check_request(const struct irq_desc *desc, unsigned long flags,
				 const void *dev_id)
{
	unsigned int i;

	if (desc->nr_actions == 0U)
		return 0;
	if (!(flags & IRQF_SHARED))
		return -IRQSYNC_EBUSY;
	/*@ loop invariant 0 <= i <= desc->nr_actions;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      (desc->action[k].flags & IRQF_SHARED) != 0 && desc->action[k].dev_id != dev_id &&
	      ((desc->action[k].flags ^ flags) & IRQF_ONESHOT) == 0;
	    loop assigns i;
	    loop variant desc->nr_actions - i; */
	for (i = 0; i < desc->nr_actions; i++) {
		if (!(desc->action[i].flags & IRQF_SHARED))
			return -IRQSYNC_EBUSY;
		if ((desc->action[i].flags ^ flags) & IRQF_ONESHOT)
			return -IRQSYNC_EBUSY;
		if (desc->action[i].dev_id == dev_id)
			return -IRQSYNC_EINVAL;
	}
	if (desc->nr_actions >= IRQSYNC_MAX_SHARERS)
		return -IRQSYNC_ENOSPC;
	return 0;
}

/*
 * Link an action at the chain's tail; the first one enables the line.  Lock held.
 *
 * Every installation starts a new spurious window (REQ-LIFECYCLE-7), as Linux's __setup_irq
 * does: the unhandled passes counted so far were the old handlers' answers, and left in the
 * window they could cost a new handler that handles every interrupt its line.
 *
 * A shared action joining a line that spurious detection disabled does not re-enable it
 * (REQ-LIFECYCLE-8; Linux does, "another chance"): the spurious disable is one level of the
 * depth that disable_irq counts, not marked apart, so undoing it here could undo a driver's
 * disable instead.  enable_irq re-enables the line (docs/linux-differences.md).
 * Contract: acsl/manage.h (irqsync_install).
 */
static void irqsync_install(struct irq_desc *desc, irq_handler_t handler,
			    unsigned long flags, const char *name, void *dev_id,
			    unsigned int thread)
{
	struct irqaction *action = &desc->action[desc->nr_actions];

	action->handler = handler;
	action->dev_id = dev_id;
	action->name = name;
	action->flags = flags;
	action->thread = thread;
	desc->nr_actions++;
	desc->spur_passes = 0U;
	desc->spur_unhandled = 0U;
	if (desc->nr_actions == 1U) {
		desc->depth = 0U;
		(void)irqsync_status_update(desc, IRQS_DISABLED, 0U);
	}
}

/*
 * Claim a free thread channel of line @irq for an action with @thread_fn, @dev_id and
 * @flags: its thread state is set while no thread runs on it.  A channel stays claimed from
 * here until free_irq has stopped its thread, so a thread still running for a freed action
 * never sees its state rewritten.  Lock held.  Return: 1 + the channel, or 0 when all of the
 * line's channels are claimed (a free_irq of the line is still under way).
 * Contract: acsl/manage.h (irqsync_claim_thread).
 */
static unsigned int irqsync_claim_thread(unsigned int irq, irq_handler_t thread_fn,
					 void *dev_id, unsigned long flags)
{
	struct irq_thread *t;
	unsigned int k;

	/*@ loop invariant 0 <= k <= IRQSYNC_MAX_SHARERS;
	    loop assigns k, t;
	    loop variant IRQSYNC_MAX_SHARERS - k; */
	for (k = 0; k < IRQSYNC_MAX_SHARERS; k++) {
		t = &irqsync_threads[irq * IRQSYNC_MAX_SHARERS + k];
		if (t->claimed)
			continue;
		t->claimed = 1U;
		t->thread_fn = thread_fn;
		t->dev_id = dev_id;
		t->thread_bit = (flags & IRQF_ONESHOT) ? 1U << k : 0U;
		(void)irqsync_atomic_xchg(&t->run_pending, 0U);
		return irq * IRQSYNC_MAX_SHARERS + k + 1U;
	}
	return 0U;
}

/* Give back a channel claimed by irqsync_claim_thread (its thread is stopped).
 * Contract: acsl/manage.h (irqsync_release_thread). */
static void irqsync_release_thread(struct irq_desc *desc, unsigned int irq, unsigned int thread)
{
	irq_flags_t flags;

	flags = irqsync_desc_lock(desc, IRQSYNC_STEP_FREE_LOCK, irq);
	irqsync_threads[thread - 1U].claimed = 0U;
	irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_FREE_UNLOCK, irq);
}

/*
 * Install, under the lock, an action that the checks of request_threaded_irq let through.
 * A threaded action's thread is started first, so it is ready before its line can fire
 * (REQ-THREAD-8): the channel is claimed in a first hold, the thread started without the lock,
 * and the request checked again in the hold that installs it (the line may have changed).
 * Return: 0 or an error, with every claim and start undone.
 * Contract: acsl/manage.h (irqsync_request).
 */
static int irqsync_request(struct irq_desc *desc, unsigned int irq, irq_handler_t handler,
			   irq_handler_t thread_fn, unsigned long flags, const char *name,
			   void *dev_id)
{
	irq_flags_t iflags;
	unsigned int thread = 0U;
	int ret = 0;

	if (thread_fn) {
		iflags = irqsync_desc_lock(desc, IRQSYNC_STEP_REQ_LOCK, irq);
		ret = irqsync_check_request(desc, flags, dev_id);
		if (ret == 0) {
			thread = irqsync_claim_thread(irq, thread_fn, dev_id, flags);
			if (thread == 0U)
				ret = -IRQSYNC_EBUSY;
		}
		irqsync_desc_unlock(desc, iflags, IRQSYNC_STEP_REQ_UNLOCK, irq);
		if (ret)
			return ret;
		ret = irqsync_port_thread_start(thread - 1U, irqsync_thread_fn);
		if (ret) {
			irqsync_release_thread(desc, irq, thread);
			return ret;
		}
	}
	iflags = irqsync_desc_lock(desc, IRQSYNC_STEP_REQ_LOCK, irq);
	ret = irqsync_check_request(desc, flags, dev_id);
	if (ret == 0) {
		IRQSYNC_STEP(REQ_INSTALL, irq);
		irqsync_install(desc, handler, flags, name, dev_id, thread);
	}
	irqsync_desc_unlock(desc, iflags, IRQSYNC_STEP_REQ_UNLOCK, irq);
	if (ret && thread) {
		irqsync_port_thread_stop(thread - 1U);
		irqsync_release_thread(desc, irq, thread);
	}
	return ret;
}

/* Parenthesised: the header's type-checking macro of the same name must not expand here.
 * Contract: acsl/manage.h (request_threaded_irq). */
int (request_threaded_irq)(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			   unsigned long flags, const char *name, void *dev_id)
{
	if (irq >= NR_IRQS || (flags & ~IRQF_VALID_MASK))
		return -IRQSYNC_EINVAL;
	/* REQ-THREAD-2: the default primary cannot quiet a level-triggered device, so only a
	 * ONESHOT line, masked until the thread ran, may have it; and a ONESHOT line without
	 * a thread would stay masked for good. */
	if (!handler && !(flags & IRQF_ONESHOT))
		return -IRQSYNC_EINVAL;
	if ((flags & IRQF_ONESHOT) && !thread_fn)
		return -IRQSYNC_EINVAL;
	if ((flags & IRQF_SHARED) && !dev_id)
		return -IRQSYNC_EINVAL;
	if (!handler)
		handler = irqsync_default_primary;
	return irqsync_request(&irq_desc[irq], irq, handler, thread_fn, flags, name, dev_id);
}

/* request_threaded_irq without a thread: IRQF_ONESHOT, which needs one, is refused (REQ-THREAD-2).
 * Contract: acsl/manage.h (request_irq). */
int (request_irq)(unsigned int irq, irq_handler_t handler, unsigned long flags,
		  const char *name, void *dev_id)
{
	if (irq >= NR_IRQS || !handler || (flags & ~IRQF_VALID_MASK) || (flags & IRQF_ONESHOT))
		return -IRQSYNC_EINVAL;
	if ((flags & IRQF_SHARED) && !dev_id)
		return -IRQSYNC_EINVAL;
	return irqsync_request(&irq_desc[irq], irq, handler, (irq_handler_t)0, flags, name, dev_id);
}

/* Index of the action with @dev_id, or nr_actions if none.  Lock held.
 * Contract: acsl/manage.h (irqsync_find_action). */
static unsigned int irqsync_find_action(const struct irq_desc *desc, const void *dev_id)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= desc->nr_actions;
	    loop invariant \forall integer k; 0 <= k < i ==> desc->action[k].dev_id != dev_id;
	    loop assigns i;
	    loop variant desc->nr_actions - i; */
	for (i = 0; i < desc->nr_actions; i++) {
		if (desc->action[i].dev_id == dev_id)
			break;
	}
	return i;
}

/*
 * Unlink action @idx, keeping the others in order; the last one leaves the
 * line depth 1, DISABLED, no PENDING (REQ-LIFECYCLE-4).  A running pass
 * still holds its own copy of the chain; free_irq waits for it.  Lock held.
 * Contract: acsl/manage.h (irqsync_unlink).
 */
static void irqsync_unlink(struct irq_desc *desc, unsigned int idx)
{
	unsigned int i;

	/*@ loop invariant idx <= i <= desc->nr_actions - 1;
	    loop invariant desc->nr_actions == \at(desc->nr_actions, Pre);
	    loop invariant \forall integer j; 0 <= j < idx ==>
	      desc->action[j] == \at(desc->action[j], Pre);
	    loop invariant \forall integer j; idx <= j < i ==>
	      desc->action[j] == \at(desc->action[j + 1], Pre);
	    loop invariant \forall integer j; i <= j < IRQSYNC_MAX_SHARERS ==>
	      desc->action[j] == \at(desc->action[j], Pre);
	    loop invariant \forall integer j; 0 <= j < desc->nr_actions ==>
	      action_installed(&desc->action[j]);
	    loop invariant \forall integer j; desc->nr_actions <= j < IRQSYNC_MAX_SHARERS ==>
	      action_free(&desc->action[j]);
	    loop invariant ACSL_INIT;
	    loop assigns i, desc->action[0 .. IRQSYNC_MAX_SHARERS - 1];
	    loop variant desc->nr_actions - i; */
	for (i = idx; i + 1U < desc->nr_actions; i++)
		irqsync_action_move(desc, i, i + 1U);	/* a call: see irqsync_desc_init */
	desc->nr_actions--;
	/* The chain's well-formedness, one half per goal, before and after the clear: stated
	 * whole, the provers timed out on it (spec/proof.md, "Initialisation").  Before it, the
	 * chain but its last slot is well formed, and clearing that slot closes the chain (the
	 * clear's closes_chain): desc_wf at the end is that hypothesis, not a frame proof. */
	/*@ assert installed_before: \forall integer j; 0 <= j < desc->nr_actions ==>
	      action_installed(&desc->action[j]); */
	/*@ assert free_before: \forall integer j; desc->nr_actions < j < IRQSYNC_MAX_SHARERS ==>
	      action_free(&desc->action[j]); */
	irqsync_action_clear(desc, desc->nr_actions);
	/*@ assert installed_kept: \forall integer j; 0 <= j < desc->nr_actions ==>
	      action_installed(&desc->action[j]); */
	/*@ assert free_kept: \forall integer j; desc->nr_actions <= j < IRQSYNC_MAX_SHARERS ==>
	      action_free(&desc->action[j]); */
	/* The status words are apart from the chain: instances_ok is carried through the moves
	 * and the clear once, here, not again on each path below (31 s for cvc4 otherwise). */
	/*@ assert REQ_SYNC_1: chain_apart: \at(instances_ok, Pre) ==> instances_ok; */
	if (desc->nr_actions == 0U) {
		desc->depth = 1U;
		(void)irqsync_status_update(desc, IRQS_PENDING, IRQS_DISABLED);
	}
}

/* Refuse to wait on the handler instance that is calling (REQ-ERR-4) and, when @threads,
 * on the handler thread that is calling (REQ-THREAD-5): either would wait for itself.
 * Contract: acsl/manage.h (irqsync_refuse_self_wait). */
static int irqsync_refuse_self_wait(unsigned int irq, int threads)
{
	if (!irqsync_in_own_handler(irq) && !(threads && irqsync_in_own_thread(irq)))
		return 0;
	irqsync_warn(IRQSYNC_WARN_SELF_DEADLOCK, irq);
	return -IRQSYNC_EDEADLK;
}

/*
 * The wait of synchronize_irq, disable_irq and free_irq: the hard instances (the locked
 * re-check, REQ-SYNC-*), the interrupts in flight at the controller where the port can tell
 * (REQ-THREAD-10), then the thread episodes counted by the instances waited for (REQ-THREAD-1).
 * Contract: acsl/manage.h (irqsync_wait_for_line).
 */
static void irqsync_wait_for_line(struct irq_desc *desc, unsigned int irq)
{
	/*@ loop invariant cpu_ready && no_desc_lock_held && ACSL_INIT;
	    loop invariant g_lock_depth == \at(g_lock_depth, Pre) && lock_prefix_kept{Pre, Here};
	    loop invariant g_irqs_enabled == \at(g_irqs_enabled, Pre);
	    loop assigns ACSL_API_EFFECTS; */
	do {
		irqsync_wait_for_handler(desc, irq);
	} while (irqsync_wait_for_chip(irq));
	irqsync_wait_for_threads(desc, irq);
}

/* Contract: acsl/manage.h (free_irq). */
int free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *desc;
	irq_flags_t flags;
	unsigned int idx = 0U;
	unsigned int thread = 0U;
	int found = 0;

	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	if (irqsync_refuse_self_wait(irq, 1))
		return -IRQSYNC_EDEADLK;
	desc = &irq_desc[irq];

	flags = irqsync_desc_lock(desc, IRQSYNC_STEP_FREE_LOCK, irq);
	idx = irqsync_find_action(desc, dev_id);
	found = idx < desc->nr_actions;
	if (found) {
		IRQSYNC_STEP(FREE_UNLINK, irq);
		thread = desc->action[idx].thread;
		irqsync_unlink(desc, idx);
	}
	irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_FREE_UNLOCK, irq);

	if (!found) {
		irqsync_warn(IRQSYNC_WARN_FREE_UNKNOWN, irq);
		return -IRQSYNC_ENOENT;
	}
	irqsync_wait_for_line(desc, irq);	/* REQ-LIFECYCLE-5, REQ-THREAD-6 */
	if (thread) {
		/* Nothing wakes it any more; a run it was owed has ended (the wait above). */
		IRQSYNC_STEP(T_STOP, irq);
		irqsync_port_thread_stop(thread - 1U);
		irqsync_release_thread(desc, irq, thread);
	}
	return 0;
}

/* The depth update shared by disable_irq and disable_irq_nosync (valid irq).
 * Contract: acsl/manage.h (irqsync_disable_depth). */
static int irqsync_disable_depth(struct irq_desc *desc, unsigned int irq)
{
	irq_flags_t flags;
	int ret = 0;

	flags = irqsync_desc_lock(desc, IRQSYNC_STEP_DIS_LOCK, irq);
	if (desc->depth >= IRQSYNC_DEPTH_MAX) {
		ret = -IRQSYNC_EOVERFLOW;	/* REQ-DEPTH-5 */
	} else {
		IRQSYNC_STEP(DIS_DEPTH_INC, irq);
		if (desc->depth++ == 0U)
			(void)irqsync_status_update(desc, 0U, IRQS_DISABLED);
	}
	irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_DIS_UNLOCK, irq);
	return ret;
}

/* Contract: acsl/manage.h (disable_irq_nosync). */
int disable_irq_nosync(unsigned int irq)
{
	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	return irqsync_disable_depth(&irq_desc[irq], irq);
}

/* Contract: acsl/manage.h (disable_irq). */
int disable_irq(unsigned int irq)
{
	int ret = 0;

	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	if (irqsync_refuse_self_wait(irq, 1))
		return -IRQSYNC_EDEADLK;
	ret = irqsync_disable_depth(&irq_desc[irq], irq);
	if (ret)
		return ret;
	irqsync_wait_for_line(&irq_desc[irq], irq);	/* REQ-DEPTH-1 */
	return 0;
}

/* Contract: acsl/manage.h (synchronize_hardirq). */
int synchronize_hardirq(unsigned int irq)
{
	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	if (irqsync_refuse_self_wait(irq, 0))
		return -IRQSYNC_EDEADLK;
	irqsync_wait_for_handler(&irq_desc[irq], irq);
	IRQSYNC_STEP(S_THREADS, irq);
	return irqsync_atomic_read_acquire(&irq_desc[irq].threads_active) == 0U;	/* REQ-THREAD-9 */
}

/* Contract: acsl/manage.h (disable_hardirq). */
int disable_hardirq(unsigned int irq)
{
	int ret = 0;

	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	if (irqsync_refuse_self_wait(irq, 0))
		return -IRQSYNC_EDEADLK;
	ret = irqsync_disable_depth(&irq_desc[irq], irq);
	if (ret)
		return ret;
	return synchronize_hardirq(irq);
}

/*
 * Undo one disable (REQ-DEPTH-3).  Returns -IRQSYNC_EINVAL when the depth is already 0
 * (nothing changed, REQ-DEPTH-4), 1 when this call enabled the line and an arrival was
 * held meanwhile (the caller replays it, REQ-DISPATCH-7), else 0.
 * Contract: acsl/manage.h (irqsync_enable_depth).
 */
static int irqsync_enable_depth(struct irq_desc *desc, unsigned int irq) __must_hold(&desc->lock)
{
	unsigned int status = 0U;

	if (desc->depth == 0U)
		return -IRQSYNC_EINVAL;
	IRQSYNC_STEP(EN_DEPTH_DEC, irq);
	desc->depth--;
	if (desc->depth != 0U)
		return 0;
	status = irqsync_status_update(desc, IRQS_DISABLED, 0U);
	return (status & IRQS_PENDING) != 0U;
}

/* Contract: acsl/manage.h (enable_irq). */
int enable_irq(unsigned int irq)
{
	struct irq_desc *desc;
	irq_flags_t flags;
	int replay = 0;

	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	desc = &irq_desc[irq];

	flags = irqsync_desc_lock(desc, IRQSYNC_STEP_EN_LOCK, irq);
	replay = irqsync_enable_depth(desc, irq);
	irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_EN_UNLOCK, irq);

	if (replay < 0) {
		irqsync_warn(IRQSYNC_WARN_UNBALANCED_ENABLE, irq);
		return -IRQSYNC_EINVAL;
	}
	if (replay) {
		/* REQ-DISPATCH-7: the held interrupt, once, on this CPU. */
		IRQSYNC_STEP(EN_REPLAY, irq);
		(void)handle_irq(irq);
	}
	return 0;
}

/* Contract: acsl/manage.h (synchronize_irq). */
int synchronize_irq(unsigned int irq)
{
	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	if (irqsync_refuse_self_wait(irq, 1))
		return -IRQSYNC_EDEADLK;
	irqsync_wait_for_line(&irq_desc[irq], irq);
	return 0;
}

/* Contract: acsl/manage.h (irq_stats). */
int irq_stats(unsigned int irq, struct irq_stats *out)
{
	struct irq_desc *desc;
	struct irq_stats s;
	irq_flags_t flags;
	unsigned int status = 0U;

	if (irq >= NR_IRQS || !out)
		return -IRQSYNC_EINVAL;
	desc = &irq_desc[irq];

	/* A consistent snapshot under the lock; the caller's memory is written after it. */
	spin_lock_irqsave(&desc->lock, flags);
	s.handled = desc->handled;
	s.unhandled = desc->unhandled;
	s.depth = desc->depth;
	s.nr_actions = desc->nr_actions;
	status = irqsync_atomic_read_relaxed(&desc->status);
	spin_unlock_irqrestore(&desc->lock, flags);
	s.status = status;
	*out = s;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * irqsync/spinlock_body.h - the lock's hot paths, written once: spin_lock(), spin_unlock()
 * and the interrupt-saving pair spin_lock_irqsave()/spin_unlock_irqrestore().
 *
 * Not a header of its own: <irqsync/spinlock.h> includes it to make the functions inline
 * (every production build: the uncontended lock and the unlock are then a few instructions
 * at the call site), and src/core/spinlock.c includes it to compile them out of line (the
 * builds that watch each step or lock event, and the proofs: one body, so the code the proofs
 * and the conformance harness see is the code that ships).  The includer defines:
 *
 *   IRQSYNC_SPIN_FN               the linkage: `static inline`, or nothing
 *   IRQSYNC_SPIN_STEP(name)       the mark of step @name (spec/steps.md)
 *   IRQSYNC_SPIN_ACQUIRED(lock)   the lock events of the valgrind build
 *   IRQSYNC_SPIN_RELEASED(lock)
 *
 * Contracts: acsl/spinlock.h.  Included on its own (IRQSYNC_SPIN_FN undefined), it includes
 * <irqsync/spinlock.h>, which is what the user wanted.
 */
#ifndef IRQSYNC_SPIN_FN
#include <irqsync/spinlock.h>
#else

/*
 * Take a ticket; the first look at @owner usually finds it served.  Otherwise wait out of
 * line, in irqsync_spin_wait(), which reads @owner again (LOCK_WAIT) until it is.
 * Contract: acsl/spinlock.h (spin_lock).
 */
IRQSYNC_SPIN_FN void spin_lock(spinlock_t *lock)
{
	unsigned int ticket = 0U;
	unsigned int turn = 0U;

	IRQSYNC_SPIN_STEP(LOCK_TICKET);
	ticket = irqsync_atomic_fetch_add_acquire(&lock->next, 1U);
	IRQSYNC_SPIN_STEP(LOCK_WAIT);
	turn = irqsync_atomic_read_acquire(&lock->owner);
	/* (turn & ~0U) is turn: the mask states, for the proof, the comparison the wait makes. */
	if ((turn & ~0U) != ticket)
		turn = irqsync_spin_wait(lock, ticket);
	IRQSYNC_SPIN_ACQUIRED(lock);
	/* This CPU owns the lock only because the last acquire it made, a load of @owner after
	 * the ticket's fetch-and-add (which is logged too), returned its ticket: all 32 bits
	 * compared, as the wait compares them.  The proof reads the acquire log (acsl/atomic.h),
	 * the value the load returned, not @turn, which code could overwrite. */
	/*@ assert REQ_LOCK_1: my_turn: loaded_turn(lock, ticket); */
	(void)turn;
	/*@ ghost g_lock_stack[g_lock_depth] = lock; g_lock_depth++; g_holds++; */
}

/* Only the holder writes @owner: it may read it relaxed, and publish owner + 1 by release.
 * Contract: acsl/spinlock.h (spin_unlock). */
IRQSYNC_SPIN_FN void spin_unlock(spinlock_t *lock)
{
	unsigned int owner = 0U;

	owner = irqsync_atomic_read_relaxed(&lock->owner);
	IRQSYNC_SPIN_STEP(UNLOCK);
	IRQSYNC_SPIN_RELEASED(lock);
	irqsync_atomic_set_release(&lock->owner, owner + 1U);
	/*@ ghost g_lock_depth--; */
}

/* REQ-LOCK-3: safe whatever the interrupt state; the state before is returned.
 * Contract: acsl/spinlock.h (irqsync_spin_lock_irqsave). */
IRQSYNC_SPIN_FN irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock)
{
	irq_flags_t flags;

	local_irq_save(flags);
	spin_lock(lock);
	return flags;
}

/* Contract: acsl/spinlock.h (spin_unlock_irqrestore). */
IRQSYNC_SPIN_FN void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}

#endif /* IRQSYNC_SPIN_FN */

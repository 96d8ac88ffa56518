/* SPDX-License-Identifier: MIT */
/*
 * spinlock.c - the ticket lock (REQ-LOCK-1, REQ-LOCK-2) and its irq forms.
 *
 * Ordering: the ticket fetch-and-add and the wait loads are acquires, the
 * unlock a release store: what one holder wrote is visible to the next
 * (REQ-MM-4).  Only the holder writes @owner, so unlock may read it relaxed.
 */
#include "desc.h"

/*
 * Test builds for valgrind's DRD/Helgrind (-DIRQSYNC_VALGRIND) tell the
 * tool that the ticket lock is a lock: it only knows pthread primitives.
 */
#ifdef IRQSYNC_VALGRIND
#include <valgrind/drd.h>
#define VG_LOCK_CREATE(l)   ANNOTATE_RWLOCK_CREATE(l)
#define VG_LOCK_ACQUIRED(l) ANNOTATE_RWLOCK_ACQUIRED(l, 1)
#define VG_LOCK_RELEASED(l) ANNOTATE_RWLOCK_RELEASED(l, 1)
#else
#define VG_LOCK_CREATE(l)   ((void)0)
#define VG_LOCK_ACQUIRED(l) ((void)0)
#define VG_LOCK_RELEASED(l) ((void)0)
#endif

void spin_lock_init(spinlock_t *lock)
{
	irqsync_atomic_set_relaxed(&lock->next, 0U);
	irqsync_atomic_set_relaxed(&lock->owner, 0U);
	VG_LOCK_CREATE(lock);
}

void spin_lock(spinlock_t *lock)
{
	unsigned int ticket = 0U;
	unsigned int turn = 0U;

	IRQSYNC_STEP(LOCK_TICKET, IRQSYNC_NO_IRQ);
	ticket = irqsync_atomic_fetch_add_acquire(&lock->next, 1U);
	turn = irqsync_await(&lock->owner, ~0U, ticket, 1, IRQSYNC_STEP_LOCK_WAIT, IRQSYNC_NO_IRQ);
	VG_LOCK_ACQUIRED(lock);
	/* This CPU owns the lock only because the acquire load returned its ticket: all 32 bits
	 * compared, as the wait compares them (in ACSL ~0U is the integer -1, not this mask). */
	/*@ assert REQ_LOCK_1: my_turn: (turn & 0xFFFFFFFFU) == ticket; */
	(void)turn;	/* read only by the proof's assertion */
	/*@ ghost g_lock_stack[g_lock_depth] = lock; g_lock_depth++; */
}

void spin_unlock(spinlock_t *lock)
{
	unsigned int owner = 0U;

	owner = irqsync_atomic_read_relaxed(&lock->owner);
	IRQSYNC_STEP(UNLOCK, IRQSYNC_NO_IRQ);
	VG_LOCK_RELEASED(lock);
	irqsync_atomic_set_release(&lock->owner, owner + 1U);
	/*@ ghost g_lock_depth--; */
}

void spin_lock_irq(spinlock_t *lock)
{
#ifdef IRQSYNC_DEBUG
	/* REQ-LOCK-4/REQ-ERR-6: spin_unlock_irq would enable them too early. */
	if (irqs_disabled())
		irqsync_warn(IRQSYNC_WARN_LOCK_IRQ_DISABLED, IRQSYNC_NO_IRQ);
#endif
	local_irq_disable();
	spin_lock(lock);
}

void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	local_irq_enable();
}

irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock)
{
	irq_flags_t flags;

	local_irq_save(flags);
	spin_lock(lock);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags)
{
	spin_unlock(lock);
	local_irq_restore(flags);
}

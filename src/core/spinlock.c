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

/* Contract: acsl/spinlock.h (spin_lock_init). */
void spin_lock_init(spinlock_t *lock)
{
	irqsync_atomic_set_relaxed(&lock->next, 0U);
	irqsync_atomic_set_relaxed(&lock->owner, 0U);
	VG_LOCK_CREATE(lock);
}

/* The contended path of spin_lock(): LOCK_WAIT reads until @ticket is served.
 * Contract: acsl/spinlock.h (irqsync_spin_wait). */
unsigned int irqsync_spin_wait(spinlock_t *lock, unsigned int ticket)
{
	irqsync_port_cpu_relax();
	return irqsync_await(&lock->owner, ~0U, ticket, 1, IRQSYNC_STEP_LOCK_WAIT, IRQSYNC_NO_IRQ);
}

#if !IRQSYNC_SPIN_INLINE
/* The builds that watch steps or lock events (and the proofs) call the hot paths out of line.
 * Only the hooks may differ from production's (<irqsync/spinlock.h>, where each is
 * ((void)0)): tests/shipped/hooks_check.py compares the two expansions line by line. */
#define IRQSYNC_SPIN_FN
#define IRQSYNC_SPIN_STEP(name) IRQSYNC_STEP(name, IRQSYNC_NO_IRQ)
#define IRQSYNC_SPIN_ACQUIRED(lock) VG_LOCK_ACQUIRED(lock)
#define IRQSYNC_SPIN_RELEASED(lock) VG_LOCK_RELEASED(lock)
#include <irqsync/spinlock_body.h>
#endif

/* Contract: acsl/spinlock.h (spin_lock_irq). */
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

/* Contract: acsl/spinlock.h (spin_unlock_irq). */
void spin_unlock_irq(spinlock_t *lock)
{
	spin_unlock(lock);
	local_irq_enable();
}

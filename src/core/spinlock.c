/* SPDX-License-Identifier: MIT */
/*
 * spinlock.c - the ticket lock (REQ-LOCK-1, REQ-LOCK-2) and its irq forms.
 *
 * Ordering: the ticket fetch-and-add and the wait loads are acquires, the
 * unlock a release store: what one holder wrote is visible to the next
 * (REQ-MM-4).  Only the holder writes @owner, so unlock may read it relaxed.
 */
#include "internal.h"

void spin_lock_init(spinlock_t *lock)
{
	irqsync_atomic_set_relaxed(&lock->next, 0U);
	irqsync_atomic_set_relaxed(&lock->owner, 0U);
}

void spin_lock(spinlock_t *lock)
{
	unsigned int ticket;

	IRQSYNC_STEP(LOCK_TICKET, IRQSYNC_NO_IRQ);
	ticket = irqsync_atomic_fetch_add_acquire(&lock->next, 1U);
	for (;;) {
		IRQSYNC_STEP(LOCK_WAIT, IRQSYNC_NO_IRQ);
		if (irqsync_atomic_read_acquire(&lock->owner) == ticket)
			break;
		irqsync_port_cpu_relax();
	}
}

void spin_unlock(spinlock_t *lock)
{
	unsigned int owner = irqsync_atomic_read_relaxed(&lock->owner);

	IRQSYNC_STEP(UNLOCK, IRQSYNC_NO_IRQ);
	irqsync_atomic_set_release(&lock->owner, owner + 1U);
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

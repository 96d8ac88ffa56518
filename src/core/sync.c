/* SPDX-License-Identifier: MIT */
/*
 * sync.c - the wait behind synchronize_irq, disable_irq and free_irq: the
 * locked re-check (REQ-SYNC-*).  The only body of irqsync_wait_for_handler
 * that ships; the known-bad ones the tests compare it with are built from
 * twins/variants/, linked in place of this file, never from src/.
 */
#include "desc.h"

/*
 * v2, the shipped version: spin without the lock (so the handler can take
 * it to clear INPROGRESS, REQ-SYNC-5), then re-check under the lock.
 *
 * Why the lock: the unlocked spin may read a stale "clear" (the handler's
 * INPROGRESS store not yet visible), and the caller's earlier stores may
 * not yet be visible to a handler instance that is about to start.  Under
 * the lock neither can happen: an instance that set INPROGRESS before our
 * lock is seen here, and one that starts after our unlock acquires the
 * lock after our release, which publishes the caller's stores
 * (REQ-SYNC-3, -4), while our acquire makes the ended instance's writes
 * visible (REQ-SYNC-2).
 * Contract: acsl/sync.h (irqsync_wait_for_handler).
 */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq)
{
	irq_flags_t flags;
	unsigned int status = 0U;

	/*@ loop invariant cpu_ready && no_desc_lock_held && ACSL_INIT;
	    loop invariant g_lock_depth == \at(g_lock_depth, Pre) && lock_prefix_kept{Pre, Here};
	    loop invariant g_irqs_enabled == \at(g_irqs_enabled, Pre);
	    loop assigns flags, status, ACSL_API_EFFECTS; */
	do {
		(void)irqsync_await(&desc->status, IRQS_INPROGRESS, 0U, 0,
				    IRQSYNC_STEP_S_SPIN_READ, irq);
		flags = irqsync_desc_lock(desc, IRQSYNC_STEP_S_LOCK, irq);
		IRQSYNC_STEP(S_RECHECK, irq);
		status = irqsync_atomic_read_relaxed(&desc->status);
		irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);
	} while (status & IRQS_INPROGRESS);
	IRQSYNC_STEP(S_RETURN, irq);
}

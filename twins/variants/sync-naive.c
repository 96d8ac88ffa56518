/* SPDX-License-Identifier: MIT */
/*
 * twins/variants/sync-naive.c - the naive fix, lock on every spin (variant 3, the
 * benchmark's baseline).
 * Test-only: linked in place of src/core/sync.c (mk/lib.mk).
 */
#include "variant.h"

/* Test builds say which synchronize_irq they carry (REQ-SYNC-6 symbol check). */
const int irqsync_test_variant = 3;

/* The naive fix, for the benchmark only: read INPROGRESS under the lock, every time. */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq)
{
	irq_flags_t flags;
	unsigned int status = 0U;

	for (;;) {
		flags = irqsync_desc_lock(desc, IRQSYNC_STEP_S_LOCK, irq);
		IRQSYNC_STEP(S_RECHECK, irq);
		status = irqsync_atomic_read_relaxed(&desc->status);
		irqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);
		if (!(status & IRQS_INPROGRESS))
			break;
		irqsync_port_cpu_relax();
	}
	IRQSYNC_STEP(S_RETURN, irq);
}

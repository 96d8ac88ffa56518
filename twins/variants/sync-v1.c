/* SPDX-License-Identifier: MIT */
/*
 * twins/variants/sync-v1.c - v1, the barrier-only patch (variant 1).
 * Test-only: linked in place of src/core/sync.c (mk/lib.mk).
 */
#include "variant.h"

/* Test builds say which synchronize_irq they carry (REQ-SYNC-6 symbol check). */
const int irqsync_test_variant = 1;

/* v1, the barrier-only patch: barriers pair, and dispatch has none.  Known bad. */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq)
{
	IRQSYNC_STEP(S_MB, irq);
	irqsync_smp_mb();
	(void)irqsync_await(&desc->status, IRQS_INPROGRESS, 0U, 0, IRQSYNC_STEP_S_SPIN_READ, irq);
	IRQSYNC_STEP(S_RETURN, irq);
}

/* SPDX-License-Identifier: MIT */
/*
 * twins/variants/sync-v0.c - v0, the 2007 synchronize_irq (variant 0).
 * Test-only: linked in place of src/core/sync.c (mk/lib.mk).
 */
#include "variant.h"

/* Test builds say which synchronize_irq they carry (REQ-SYNC-6 symbol check). */
const int irqsync_test_variant = 0;

/* v0, the 2007 original: the spin alone.  Known bad (REQ-SYNC-3, -4). */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq)
{
	(void)irqsync_await(&desc->status, IRQS_INPROGRESS, 0U, 0, IRQSYNC_STEP_S_SPIN_READ, irq);
	IRQSYNC_STEP(S_RETURN, irq);
}

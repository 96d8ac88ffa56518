/* SPDX-License-Identifier: MIT */
/*
 * twins/variants/sync-nowait.c - the no-wait mutant (variant 4): shows that the
 * stress, example and bare-metal detectors can fail.
 * Test-only: linked in place of src/core/sync.c (mk/lib.mk).
 */
#include "variant.h"

/* Test builds say which synchronize_irq they carry (REQ-SYNC-6 symbol check). */
const int irqsync_test_variant = 4;

/* A mutant for the stress test's own check: no wait at all.  Known bad. */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq)
{
	(void)desc;
	IRQSYNC_STEP(S_RETURN, irq);
}

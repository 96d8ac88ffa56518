/* SPDX-License-Identifier: MIT */
/*
 * acsl/sync.h - contracts of the wait of synchronize_irq, disable_irq and free_irq (REQ-SYNC-*).
 * Proved by WP against the body in src/core/sync.c; included by proofs/core.c only
 * (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_SYNC_H
#define _IRQSYNC_ACSL_SYNC_H

#include "logic/api.h"

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures REQ_SYNC_1: REQ_SYNC_3: locked_recheck: saw_idle_under_lock(desc);
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
*/
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq);

#endif /* _IRQSYNC_ACSL_SYNC_H */

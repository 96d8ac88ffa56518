/* SPDX-License-Identifier: MIT */
/*
 * acsl/irqflags.h - contracts of the local interrupt state (irq_flags_t, REQ-LOCK-3/4/6).
 * Proved by WP against the bodies in src/core/irqflags.c; included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_IRQFLAGS_H
#define _IRQSYNC_ACSL_IRQFLAGS_H

#include "logic/api.h"

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures REQ_LOCK_3: saves: saves_state(\result, \old(g_irqs_enabled));
    ensures irqs_off;
*/
irq_flags_t irqsync_local_irq_save(void);

/*@ requires ACSL_INIT;
    requires irq_state_ok && serving_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> cpu_holds_no_lock;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures REQ_LOCK_3: restores: g_irqs_enabled == restored_state(flags);
    ensures serving_ok;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void local_irq_restore(irq_flags_t flags);

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures irqs_off;
*/
void local_irq_disable(void);

/*@ requires ACSL_INIT;
    requires irq_state_ok && serving_ok;
    requires REQ_LOCK_4: cpu_holds_no_lock;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures irqs_on;
    ensures serving_ok;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void local_irq_enable(void);

/*@ requires irq_state_ok;
    assigns \nothing;
    ensures REQ_LOCK_6: \result == 1 - g_irqs_enabled;
*/
int irqs_disabled(void);

#endif /* _IRQSYNC_ACSL_IRQFLAGS_H */

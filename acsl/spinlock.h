/* SPDX-License-Identifier: MIT */
/*
 * acsl/spinlock.h - contracts of the ticket lock and its interrupt-safe forms (REQ-LOCK-*).
 * Proved by WP against the bodies in src/core/spinlock.c and src/include/irqsync/spinlock_body.h
 * (the lock, the unlock and the irqsave pair); included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 *
 * Clauses every lock function shares, written out in each contract (issue 24):
 *  - of its lock argument (first in each contract): requires ACSL_INIT; requires
 *    \valid(lock) && lock_not_status(lock);
 *  - of taking the lock, in every form (last in each contract, "// taken"): one more lock
 *    held and the held locks distinct, the others kept, the descriptor behind @lock (if any)
 *    well formed as its last holder left it (acquired_wf, REQ-LOCK-1), this CPU's instances
 *    kept (instances_kept, REQ-SYNC-1), and the table initialised.
 */
#ifndef _IRQSYNC_ACSL_SPINLOCK_H
#define _IRQSYNC_ACSL_SPINLOCK_H

#include "logic/api.h"

/*@ requires \valid(lock) && lock_not_status(lock);
    assigns lock->next.counter, lock->owner.counter;
    ensures \initialized(&lock->next.counter) && \initialized(&lock->owner.counter);
*/
void spin_lock_init(spinlock_t *lock);

/* The contended path of spin_lock: it returns only once an acquire load of @lock's owner
 * word returned @ticket (all 32 bits compared, as irqsync_await compares them: in ACSL ~0U is
 * the integer -1), and that load is the last acquire this CPU made (the acquire log: served
 * is about the value loaded, not about a variable).  The rely of irqsync_atomic_read_acquire:
 * the lock word is well formed. */
/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    assigns ACSL_DESCS, ACSL_SREAD;
    ensures REQ_LOCK_1: served: loaded_turn(lock, ticket);
    ensures no_lock_taken: g_holds == \old(g_holds);
    ensures REQ_LOCK_1: acquire_rely: owner_word_wf(&lock->owner) && sread_unchanged{Pre, Post};
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
unsigned int irqsync_spin_wait(spinlock_t *lock, unsigned int ticket);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires lock_stack_room && lock_stack_distinct;
    requires REQ_LOCK_1: no_self_deadlock: !cpu_holds(lock);
    assigns ACSL_DESCS, lock->next.counter, g_lock_stack[..], g_lock_depth, ACSL_SREAD;
    ensures REQ_LOCK_1: owned: cpu_holds_innermost(lock);
    ensures REQ_LOCK_1: new_hold: g_holds == (unsigned int)(\old(g_holds) + 1);
    ensures sread_unchanged{Pre, Post};
    // taken
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void spin_lock(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires REQ_LOCK_5: releases_own: cpu_holds_innermost(lock);
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    assigns lock->owner.counter, g_lock_depth, ACSL_SREAD;
    ensures REQ_LOCK_1: advances_by_one:
      lock->owner.counter == (unsigned int)(\old(lock->owner.counter) + 1);
    ensures g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures ACSL_INIT;
*/
void spin_unlock(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires REQ_LOCK_4: REQ_ERR_6: irqs_enabled: irqs_on;
    requires interrupt_safe && lock_stack_room && lock_stack_distinct;
    requires !cpu_holds(lock);
    assigns g_irqs_enabled, ACSL_DESCS, lock->next.counter, g_lock_stack[..],
            g_lock_depth, ACSL_SREAD;
    ensures irqs_off && cpu_holds_innermost(lock);
    ensures sread_unchanged{Pre, Post};
    // taken
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void spin_lock_irq(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires cpu_holds_innermost(lock) && irq_state_ok;
    requires REQ_LOCK_4: only_lock_held: g_lock_depth == 1;
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    requires serving_ok;
    assigns lock->owner.counter, g_lock_depth, g_irqs_enabled, ACSL_IRQ_EFFECTS, ACSL_SREAD;
    ensures irqs_on && g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures serving_ok;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void spin_unlock_irq(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires irq_state_ok && lock_stack_room && lock_stack_distinct;
    requires !cpu_holds(lock);
    assigns g_irqs_enabled, ACSL_DESCS, lock->next.counter, g_lock_stack[..],
            g_lock_depth, ACSL_SREAD;
    ensures REQ_LOCK_3: saves: saves_state(\result, \old(g_irqs_enabled));
    ensures sread_unchanged{Pre, Post};
    ensures irqs_off && cpu_holds_innermost(lock);
    // taken
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires cpu_holds_innermost(lock) && irq_state_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> g_lock_depth == 1;
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    requires serving_ok;
    assigns lock->owner.counter, g_lock_depth, g_irqs_enabled, ACSL_IRQ_EFFECTS, ACSL_SREAD;
    ensures REQ_LOCK_3: restores: g_irqs_enabled == restored_state(flags);
    ensures g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures serving_ok;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags);

#endif /* _IRQSYNC_ACSL_SPINLOCK_H */

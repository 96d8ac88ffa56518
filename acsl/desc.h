/* SPDX-License-Identifier: MIT */
/*
 * acsl/desc.h - contracts of the descriptor helpers of src/core/internal.h: the lock and
 * unlock of a descriptor, the change of status bits, and the one wait loop (REQ-DISPATCH-1,
 * REQ-LOCK-*, REQ-SYNC-5).  Included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_DESC_H
#define _IRQSYNC_ACSL_DESC_H

#include "logic/api.h"

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires irq_state_ok && lock_stack_room && lock_stack_distinct;
    requires REQ_LOCK_1: no_self_deadlock: !cpu_holds(&desc->lock);
    assigns g_irqs_enabled, ACSL_DESCS, g_lock_stack[..], g_lock_depth, ACSL_SREAD;
    ensures REQ_LOCK_3: saves: saves_state(\result, \old(g_irqs_enabled));
    ensures sread_unchanged{Pre, Post};
    ensures REQ_DISPATCH_8: irqs_off;
    ensures REQ_DISPATCH_1: in_critical_section(desc);
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static inline irq_flags_t irqsync_desc_lock(struct irq_desc *desc, enum irqsync_step step,
					    unsigned int irq);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_LOCK_5: releases_own: in_critical_section(desc);
    requires irq_state_ok && serving_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> g_lock_depth == 1;
    assigns g_lock_depth, g_irqs_enabled, ACSL_IRQ_EFFECTS, ACSL_SREAD;
    ensures REQ_LOCK_3: restores: g_irqs_enabled == restored_state(flags);
    ensures g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures serving_ok;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static inline void irqsync_desc_unlock(struct irq_desc *desc, irq_flags_t flags,
				       enum irqsync_step step, unsigned int irq);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires REQ_SYNC_1: owner_clears: (clear & IRQS_INPROGRESS) != 0 && (set & IRQS_INPROGRESS) == 0
      ==> \forall integer i; desc == &irq_desc[i] ==> g_instance[i] == 1;
    requires REQ_SYNC_5: only_beginning_sets: (set & IRQS_INPROGRESS) != 0
      ==> \forall integer i; desc == &irq_desc[i] ==> g_begin[i] == 1;
    assigns desc->status.counter, ACSL_SREAD;
    ensures REQ_DISPATCH_1: fresh: \result == \old(desc->status.counter);
    ensures REQ_DISPATCH_1: updated:
      desc->status.counter == ((\result & (unsigned int)~clear) | set);
    ensures REQ_SYNC_1: instances_kept: (clear & IRQS_INPROGRESS) == 0 ==>
      (\at(instances_ok, Pre) ==> instances_ok);
    ensures read_logged: g_sread_word == &desc->status && g_sread_value == \result;
    ensures read_locked: g_lock_depth > 0 ==> g_sread_lock == g_lock_stack[g_lock_depth - 1];
    // the status word is no part of the action chain: a status write keeps it well formed
    ensures wf_kept: \at(desc_wf(desc), Pre) ==> desc_wf(desc);
    ensures ACSL_INIT;
*/
static inline unsigned int irqsync_status_update(struct irq_desc *desc, unsigned int clear,
						 unsigned int set);

/* One contract for both reads (WP takes a callee's assigns from its default behavior, never
 * from the behavior a call selects): an acquire wait leaves the status-read log as it was, a
 * relaxed one logs its last read of a status word.  Partial: the wait ends only when another
 * CPU makes the condition true (its termination is the model's REQ-SYNC-5, not WP's). */
/*@ requires ACSL_INIT && \valid_read(word);
    assigns ACSL_DESCS, ACSL_SREAD;
    ensures awaited: (\result & mask) == want;
    ensures REQ_LOCK_1: acquire_rely: acquire != 0 ==>
      owner_word_wf((irqsync_atomic_t *)word) && sread_unchanged{Pre, Post};
    ensures REQ_LOCK_1: acquire_logged: acquire != 0 ==>
      g_aread_word == word && g_aread_value == \result;
    ensures no_lock_taken: g_holds == \old(g_holds);
    ensures REQ_SYNC_5: relaxed_logged: acquire == 0 && is_status_word((irqsync_atomic_t *)word) ==>
      g_sread_word == word && g_sread_value == \result;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static inline unsigned int irqsync_await(const irqsync_atomic_t *word, unsigned int mask,
					 unsigned int want, int acquire,
					 enum irqsync_step step, unsigned int irq);

#endif /* _IRQSYNC_ACSL_DESC_H */

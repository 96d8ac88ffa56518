/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/api.h - predicates over this CPU's locks, and the call frame every API contract
 * shares.  Built on the ghost state of logic/model.h and the port contracts of acsl/port.h.
 *
 * Concurrency: postconditions speak of this CPU's ghost state (interrupt state, lock stack,
 * status-read log) and of the descriptor table's well-formedness.  They do not claim that a
 * descriptor field still holds a value after the lock was released: other CPUs may change it.
 * Functional facts about a descriptor are therefore stated for the helpers that run under
 * the lock (install, unlink, find_action, check_request, note_pass, snapshot_chain).
 */
#ifndef _IRQSYNC_ACSL_LOGIC_API_H
#define _IRQSYNC_ACSL_LOGIC_API_H

#include "../port.h"

/*@ predicate lock_stack_distinct =
      \forall integer j, k; 0 <= j < k < g_lock_depth ==> g_lock_stack[j] != g_lock_stack[k];
    predicate no_desc_lock_held =
      \forall integer k, i; 0 <= k < g_lock_depth && 0 <= i < NR_IRQS ==>
        g_lock_stack[k] != &irq_desc[i].lock;
    // A lock's words are apart from the descriptor fields the model reads (a descriptor's
    // own lock, or any lock outside the table).
    predicate lock_not_status(spinlock_t *l) =
      \separated(l, &irq_desc[0 .. NR_IRQS - 1].status) &&
      \separated(l, &irq_desc[0 .. NR_IRQS - 1].depth) &&
      \separated(l, &irq_desc[0 .. NR_IRQS - 1].nr_actions) &&
      \separated(l, &irq_desc[0 .. NR_IRQS - 1].action[0 .. IRQSYNC_MAX_SHARERS - 1]);
    predicate cpu_ready = lib_ok && lock_stack_distinct;
    // no descriptor lock is held below the innermost lock
    predicate no_desc_lock_below_top =
      \forall integer k, i; 0 <= k < g_lock_depth - 1 && 0 <= i < NR_IRQS ==>
        g_lock_stack[k] != &irq_desc[i].lock;
    // the descriptor's lock is held by this CPU (innermost) and the descriptor well formed
    predicate in_critical_section(struct irq_desc *d) =
      cpu_holds_innermost(&d->lock) && desc_wf(d);
*/

/* What the API functions may change (ghost: the free part of the lock stack, the log). */
#define ACSL_API_EFFECTS ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, ACSL_SREAD, g_irqs_enabled, \
	warn_count[..]

/*@ // The last status read of this CPU was of @d's status word, made holding @d's lock
    // innermost, and saw INPROGRESS clear: the locked re-check of synchronize_irq (REQ-SYNC-1).
    predicate saw_idle_under_lock(struct irq_desc *d) =
      g_sread_word == &d->status && g_sread_lock == &d->lock &&
      (g_sread_value & IRQS_INPROGRESS) == 0;
*/

/* The two behaviors every API function on a line number shares: a bad number changes nothing
 * (REQ-ERR-1); a wait on the line whose handler this CPU runs is refused (REQ-ERR-4). */
#define ACSL_BAD_IRQ \
    behavior bad_irq: \
      assumes !irq_ok(irq); \
      assigns \nothing; \
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL
#define ACSL_OWN_LINE \
    behavior own_line: \
      assumes irq_ok(irq) && in_handler_of(irq); \
      assigns warn_count[..]; \
      ensures REQ_ERR_4: \result == -IRQSYNC_EDEADLK

/* The call frame of a driver-API function: called from task context with a consistent CPU
 * (no descriptor lock held, interrupts in a state the caller may restore), it returns holding
 * the same locks, with the same interrupt state.  The clauses and their names are those each
 * API contract spelled out before (the ledger names them); a contract adds its assigns
 * clause, ACSL_INIT on return and its behaviors. */
#define ACSL_API_FRAME \
    requires ACSL_INIT; \
    requires cpu_ready && interrupt_safe && no_desc_lock_held; \
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post}; \
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled); \
    ensures cpu_ready

#endif /* _IRQSYNC_ACSL_LOGIC_API_H */

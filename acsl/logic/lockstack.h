/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/lockstack.h - the locks this CPU holds (REQ-LOCK-1, REQ-LOCK-5; part of
 * logic/model.h), and the rule that ties them to the interrupt state (REQ-LOCK-4).
 *
 *   g_lock_stack[0 .. g_lock_depth-1]   the locks this CPU holds, innermost last
 *   g_lock_depth                        how many (at most IRQSYNC_MAX_HELD)
 *
 * Distinctness of the held locks and the predicates over descriptor locks in particular
 * are the API's frame: logic/api.h.
 */
#ifndef _IRQSYNC_ACSL_LOGIC_LOCKSTACK_H
#define _IRQSYNC_ACSL_LOGIC_LOCKSTACK_H

#include "irqstate.h"

/*@ predicate lock_stack_ok = 0 <= g_lock_depth <= IRQSYNC_MAX_HELD;
    predicate lock_stack_room = 0 <= g_lock_depth < IRQSYNC_MAX_HELD;
    predicate cpu_holds(spinlock_t *l) =
      \exists integer k; 0 <= k < g_lock_depth && g_lock_stack[k] == l;
    predicate cpu_holds_innermost(spinlock_t *l) =
      0 < g_lock_depth <= IRQSYNC_MAX_HELD && g_lock_stack[g_lock_depth - 1] == l;
    predicate cpu_holds_no_lock = g_lock_depth == 0;
    // The locks held at L1 are still held, in the same order, at L2.
    predicate lock_prefix_kept{L1, L2} =
      \forall integer k; 0 <= k < \at(g_lock_depth, L1) ==>
        \at(g_lock_stack[k], L2) == \at(g_lock_stack[k], L1);

    // Interrupts may be on only while this CPU holds no lock: an interrupt handler on this
    // CPU could spin on a lock its own CPU holds (the hazard of REQ-LOCK-4).
    predicate interrupt_safe = irqs_on ==> cpu_holds_no_lock;
*/

/* The free part of the lock stack (entries at and above g_lock_depth): scratch, which every
 * function that takes a lock may write.  A location list, kept as a macro (issue 24): like
 * the other lists (ACSL_DESCS, ACSL_SREAD, ACSL_API_EFFECTS, ACSL_IRQ_EFFECTS) it is named in
 * the loop assigns of src/core as in the contracts, and written out it would add only ghost
 * names to each assigns clause, no fact. */
#define ACSL_LOCK_FREE g_lock_stack[..]

#endif /* _IRQSYNC_ACSL_LOGIC_LOCKSTACK_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/lockrely.h - where a lock lies, and the rely/guarantee of the descriptor locks
 * (REQ-LOCK-1, REQ-LOCK-5; part of logic/model.h): a CPU releases a descriptor's lock only
 * with the descriptor well formed, so a CPU that acquires it finds it well formed.
 */
#ifndef _IRQSYNC_ACSL_LOGIC_LOCKRELY_H
#define _IRQSYNC_ACSL_LOGIC_LOCKRELY_H

#include "descriptors.h"

/*@ // A lock is a descriptor's or lies outside the descriptor table.
    predicate lock_placed(spinlock_t *l) =
      (\exists integer i; 0 <= i < NR_IRQS && l == &irq_desc[i].lock) ||
      \separated(l, &irq_desc[0 .. NR_IRQS - 1]);

    // Rely/guarantee of the descriptor locks: a CPU releases a descriptor's lock only with
    // the descriptor well formed (spin_unlock requires it: proved at every release), so a CPU
    // that acquires it finds it well formed (the acquire's contract: acsl/atomic.h).
    predicate lock_wf(spinlock_t *l) =
      \forall integer i; 0 <= i < NR_IRQS && l == &irq_desc[i].lock ==> desc_wf(&irq_desc[i]);
    predicate owner_word_wf(irqsync_atomic_t *v) =
      \forall integer i; 0 <= i < NR_IRQS && v == &irq_desc[i].lock.owner ==>
        desc_wf(&irq_desc[i]);
*/

#endif /* _IRQSYNC_ACSL_LOGIC_LOCKRELY_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/logs.h - this CPU's logs: its last read of a descriptor status word, its last
 * acquire on a lock word, and the count of its holds (part of logic/model.h).
 *
 *   g_sread_word, g_sread_value,   the last status-word read: which word, the value read,
 *   g_sread_lock, g_sread_holds    the innermost lock held then, and g_holds then (the hold
 *                                  it was read in).  synchronize_irq's contract (REQ-SYNC-1)
 *                                  and the fresh read-modify-write (REQ-DISPATCH-1) are
 *                                  stated over it.
 *   g_holds                        how many locks this CPU has taken (spin_lock counts,
 *                                  modulo 2^32): equal at a read and later, with the same lock
 *                                  innermost at both, means the read was made in the current
 *                                  hold
 *   g_aread_word, g_aread_value    the last acquire on a lock word (the ticket's
 *                                  fetch-and-add, the owner word's loads): which word, the
 *                                  value returned.  The lock's "my turn" is a clause on it.
 * The atomics write the logs (acsl/atomic.h).
 */
#ifndef _IRQSYNC_ACSL_LOGIC_LOGS_H
#define _IRQSYNC_ACSL_LOGIC_LOGS_H

#include "lockstack.h"

/*@ // The status-read log did not change between two states.
    predicate sread_unchanged{L1, L2} =
      \at(g_sread_word, L1) == \at(g_sread_word, L2) &&
      \at(g_sread_value, L1) == \at(g_sread_value, L2) &&
      \at(g_sread_lock, L1) == \at(g_sread_lock, L2) &&
      \at(g_sread_holds, L1) == \at(g_sread_holds, L2);
    // This CPU's last status read was of @d's status word, made in the hold of @d's lock that
    // is current now (innermost then and now, no lock taken since): a decision on its value
    // is a decision on the status under this hold (D_CHECK, S_RECHECK).
    predicate read_in_this_hold(struct irq_desc *d) =
      g_sread_word == &d->status && g_sread_lock == &d->lock && g_sread_holds == g_holds &&
      cpu_holds_innermost(&d->lock);
    // This CPU's last acquire on a lock word was a load of @l's owner word that returned
    // @ticket (all 32 bits): the ticket lock's turn, as loaded (REQ-LOCK-1).
    predicate loaded_turn(spinlock_t *l, integer ticket) =
      g_aread_word == &l->owner && (g_aread_value & 0xFFFFFFFFU) == ticket;
*/

/* The logs (status reads, acquires) and the hold count: assigned by every function that
 * reads a status word or takes a lock, so one name in each contract covers them all.  A
 * location list, kept as a macro (see ACSL_LOCK_FREE, logic/lockstack.h). */
#define ACSL_SREAD     g_sread_word, g_sread_value, g_sread_lock, g_sread_holds, g_holds, \
	g_aread_word, g_aread_value

#endif /* _IRQSYNC_ACSL_LOGIC_LOGS_H */

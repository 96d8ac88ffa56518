/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/instances.h - handler instances (REQ-SYNC-1, REQ-SYNC-5, REQ-DISPATCH-3) and the
 * lines the CPUs serve (REQ-HANDLER-2; part of logic/model.h).
 *
 *   g_instance[i]   1 while this CPU runs a handler instance of line i: from the locked write
 *                   that set INPROGRESS (D_SET_INPROGRESS) to the locked write that clears it
 *                   (D_CLEAR_INPROGRESS); else 0
 *   g_begin[i]      1 only across the locked write by which this CPU begins an instance of
 *                   line i (D_SET_INPROGRESS): the one write allowed to set INPROGRESS
 *                   (inprogress_set_allowed)
 *   irqsync_serving[c]   (real state) 0, or 1 + the line CPU c is serving
 */
#ifndef _IRQSYNC_ACSL_LOGIC_INSTANCES_H
#define _IRQSYNC_ACSL_LOGIC_INSTANCES_H

#include "descriptors.h"

/*@ // The dispatch half of the synchronize_irq guarantee: while this CPU runs an instance of
    // line i, the line's INPROGRESS is set.  Other CPUs rely on it: their locked re-check
    // (saw_idle_under_lock) can see INPROGRESS clear only when no instance runs.
    predicate inprogress(integer i) = (irq_desc[i].status.counter & IRQS_INPROGRESS) != 0;
    predicate instance_running(integer i) = g_instance[i] == 1 && inprogress(i);
    // Every instance this CPU runs has its line's INPROGRESS set (restored by every
    // function; other CPUs keep it: the rely of the acquire and of the handler call).
    predicate instances_ok = \forall integer i; 0 <= i < NR_IRQS ==>
      g_instance[i] == 0 || instance_running(i);
    // It is kept by the clause
    //   ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    // (once the macro ACSL_KEEPS_INSTANCES): the rely on other CPUs at every point where
    // their writes become visible (an acquire, interrupts enabled), and what every function
    // that writes a status word without ending an instance restores.  Other CPUs run the
    // same code, whose every status write is checked against inprogress_clear_allowed.
    // The guarantee behind that rely, asked of every status write (acsl/atomic.h): a CPU
    // clears a line's INPROGRESS only when it runs that line's instance (or in irqsync_init).
    predicate inprogress_clear_allowed(irqsync_atomic_t *v, integer x) =
      g_exclusive == 1 ||
      (\forall integer k; 0 <= k < NR_IRQS && v == &irq_desc[k].status ==>
          ((v->counter & IRQS_INPROGRESS) != 0 && (x & IRQS_INPROGRESS) == 0 ==>
             g_instance[k] == 1));
    // Its other half: a CPU sets a line's INPROGRESS only by the write that begins an
    // instance of that line (or in irqsync_init).  A spurious set would make every
    // synchronize_irq of the line wait for an instance that never ends, and hold every
    // interrupt of the line as PENDING (REQ-SYNC-5, REQ-DISPATCH-3).
    predicate inprogress_set_allowed(irqsync_atomic_t *v, integer x) =
      g_exclusive == 1 ||
      (\forall integer k; 0 <= k < NR_IRQS && v == &irq_desc[k].status ==>
          ((v->counter & IRQS_INPROGRESS) == 0 && (x & IRQS_INPROGRESS) != 0 ==>
             g_begin[k] == 1));

    // irqsync_serving[c] is 0 or 1 + the line CPU c is serving (REQ-HANDLER-2).
    predicate serving_ok =
      \forall integer c; 0 <= c < IRQSYNC_NR_CONTEXTS ==> irqsync_serving[c] <= NR_IRQS;
    predicate in_handler_of(integer irq) = irqsync_serving[this_ctx] == irq + 1;
    // The verified code runs in a handler thread of line irq (REQ-THREAD-5).
    predicate in_thread_of(integer irq) =
      1 <= this_thread <= IRQSYNC_THREAD_CHANNELS && (this_thread - 1) / IRQSYNC_MAX_SHARERS == irq;
*/

#endif /* _IRQSYNC_ACSL_LOGIC_INSTANCES_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/descriptors.h - the descriptor table irq_desc[]: line numbers, the status
 * words and who may write them (REQ-DISPATCH-1), and a well-formed descriptor's action
 * chain (REQ-LIFECYCLE-4, -6; part of logic/model.h).
 *
 *   g_exclusive   1 when no other CPU uses the library (irqsync_init's context): then any
 *                 status word may be written
 */
#ifndef _IRQSYNC_ACSL_LOGIC_DESCRIPTORS_H
#define _IRQSYNC_ACSL_LOGIC_DESCRIPTORS_H

#include "logs.h"

/*@ predicate irq_ok(integer irq) = 0 <= irq < NR_IRQS;
    predicate is_status_word(irqsync_atomic_t *v) =
      \exists integer i; 0 <= i < NR_IRQS && v == &irq_desc[i].status;
    // REQ-DISPATCH-1: a status word is written only by the CPU that holds its line's lock
    // (or by irqsync_init, while no other CPU uses the library).
    predicate status_write_allowed(irqsync_atomic_t *v) =
      g_exclusive == 1 ||
      (\forall integer i; 0 <= i < NR_IRQS && v == &irq_desc[i].status ==>
          cpu_holds(&irq_desc[i].lock));
    // REQ-DISPATCH-1: ... and computed from this CPU's last read of it, whose value is still
    // the word's value: a value read before the lock was taken (or in an earlier hold) could
    // lose a PENDING set meanwhile, or clobber a DISABLED.
    predicate status_write_fresh(irqsync_atomic_t *v) =
      g_exclusive == 1 || !is_status_word(v) ||
      (g_sread_word == v && g_sread_value == v->counter);

    // The action chain of a line: action[0 .. nr_actions-1] are installed (non-NULL handler),
    // the rest of the static pool is free (REQ-LIFECYCLE-4, -6).  That dev_ids differ is
    // shown where a request is checked (irqsync_check_request), not kept as an invariant.
    // An installed action's thread is 0 (none) or 1 + a thread channel.
    predicate action_installed(struct irqaction *a) =
      a->handler != \null && a->thread <= IRQSYNC_THREAD_CHANNELS;
    predicate action_free(struct irqaction *a) =
      a->handler == \null && a->dev_id == \null && a->thread == 0;
    predicate action_chain_wf(struct irq_desc *d) =
      d->nr_actions <= IRQSYNC_MAX_SHARERS &&
      (\forall integer i; 0 <= i < d->nr_actions ==> action_installed(&d->action[i])) &&
      (\forall integer i; d->nr_actions <= i < IRQSYNC_MAX_SHARERS ==>
          action_free(&d->action[i]));
    predicate desc_wf(struct irq_desc *d) =
      action_chain_wf(d) && d->depth <= IRQSYNC_DEPTH_MAX;
    // The words of the threaded handlers shared without the lock: a thread's run-pending
    // flag and a line's episode counter (spec/threaded.md section 2).
    predicate is_thread_word(irqsync_atomic_t *v) =
      (\exists integer c; 0 <= c < IRQSYNC_THREAD_CHANNELS && v == &irqsync_threads[c].run_pending) ||
      (\exists integer i; 0 <= i < NR_IRQS && v == &irq_desc[i].threads_active);
    predicate descs_wf = \forall integer i; 0 <= i < NR_IRQS ==> desc_wf(&irq_desc[i]);
*/

/* The descriptor table, which a function of the API may change: through other CPUs (visible
 * at lock acquisition) and under this CPU's locks.  A location list, kept as a macro (see
 * ACSL_LOCK_FREE, logic/lockstack.h). */
#define ACSL_DESCS     irq_desc[0 .. NR_IRQS - 1], irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]

#endif /* _IRQSYNC_ACSL_LOGIC_DESCRIPTORS_H */

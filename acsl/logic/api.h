/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/api.h - the predicates of the driver API's call frame: this CPU's locks
 * (distinct, no descriptor lock held, apart from the status words), cpu_ready, and the
 * locked re-check of synchronize_irq.  Built on the logic of logic/model.h and the port
 * contracts of acsl/port.h (declared after them: their place in the printed program, which
 * keys the proof units, proofs/units.py).  The call frame itself is written out in each API
 * contract (acsl/manage.h says what it is).
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

/* What the API functions may change (ghost: the free part of the lock stack, the log).  A
 * location list, kept as a macro (see ACSL_LOCK_FREE, logic/lockstack.h): also the loop
 * assigns of irqsync_wait_for_handler (src/core/sync.c) and proofs/negative/ name it. */
#define ACSL_API_EFFECTS ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, ACSL_SREAD, g_irqs_enabled, g_mask_call[..], \
	warn_count[..]

/*@ // The last status read of this CPU was of @d's status word, made holding @d's lock
    // innermost, and saw INPROGRESS clear: the locked re-check of synchronize_irq (REQ-SYNC-1).
    predicate saw_idle_under_lock(struct irq_desc *d) =
      g_sread_word == &d->status && g_sread_lock == &d->lock &&
      (g_sread_value & IRQS_INPROGRESS) == 0;
*/

/* An instance's record of the threads it woke (struct irq_wake, src/core/internal.h): at most
 * one per slot, each a thread channel the port may be kicked on.  A macro (it uses
 * \initialized, see ACSL_INIT). */
#define ACSL_WAKE_OK(w) ((w)->nr <= IRQSYNC_MAX_SHARERS && \initialized(&(w)->nr) && \
	\initialized(&(w)->masked) && \initialized(&(w)->chan[0 .. (w)->nr - 1]) && \
	(\forall integer k; 0 <= k < (w)->nr ==> (w)->chan[k] < IRQSYNC_THREAD_CHANNELS))
/* What the waker may write: the line's counter and mask, the run flags, the record, and its
 * place in the episode protocol (g_phase). */
#define ACSL_WAKER_EFFECTS(d, w) (d)->threads_active.counter, (d)->oneshot_mask, \
	irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1].run_pending.counter, (w)->nr, \
	(w)->chan[0 .. IRQSYNC_MAX_SHARERS - 1], g_phase

#endif /* _IRQSYNC_ACSL_LOGIC_API_H */

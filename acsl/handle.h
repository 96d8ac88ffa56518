/* SPDX-License-Identifier: MIT */
/*
 * acsl/handle.h - contracts of dispatch: handle_irq, the chain and get_irqfunc_irq (REQ-DISPATCH-*).
 * Proved by WP against the bodies in src/core/handle.c; included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_HANDLE_H
#define _IRQSYNC_ACSL_HANDLE_H

#include "logic/api.h"

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires \valid(chain) && \separated(chain, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(chain, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]);
    requires action_chain_wf(desc);
    assigns chain->nr, chain->handler[0 .. IRQSYNC_MAX_SHARERS - 1],
            chain->dev_id[0 .. IRQSYNC_MAX_SHARERS - 1],
            chain->thread[0 .. IRQSYNC_MAX_SHARERS - 1], chain->oneshot;
    ensures REQ_DISPATCH_4: chain->nr == desc->nr_actions;
    ensures REQ_DISPATCH_4: \forall integer i; 0 <= i < chain->nr ==>
      chain->handler[i] == desc->action[i].handler && chain->dev_id[i] == desc->action[i].dev_id &&
      chain->thread[i] == desc->action[i].thread;
    ensures threads_in_range: \forall integer i; 0 <= i < chain->nr ==>
      chain->thread[i] <= IRQSYNC_THREAD_CHANNELS;
    // the line is ONESHOT when its first action is (its sharers agree, REQ-THREAD-3)
    ensures REQ_ONESHOT_1: oneshot_of_actions: chain->oneshot != 0 <==>
      (desc->nr_actions != 0 && (desc->action[0].flags & IRQF_ONESHOT) != 0);
    // the copy holds values up to its length (what irqsync_run_chain requires of it)
    ensures \initialized(&chain->nr) && chain->nr <= IRQSYNC_MAX_SHARERS &&
      \initialized(&chain->handler[0 .. chain->nr - 1]) &&
      \initialized(&chain->dev_id[0 .. chain->nr - 1]) &&
      \initialized(&chain->thread[0 .. chain->nr - 1]) && \initialized(&chain->oneshot);
    ensures ACSL_INIT;
*/
static void irqsync_snapshot_chain(const struct irq_desc *desc, struct irq_chain *chain);

/* The wakers of one pass (spec/threaded.md): under the lock, inside the instance (REQ-THREAD-1). */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: in_critical_section(desc);
    requires REQ_THREAD_1: counted_in_instance: instance_running(irq);
    requires REQ_THREAD_7: owes_nothing: g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    requires nr <= IRQSYNC_MAX_SHARERS && \valid_read(woke + (0 .. IRQSYNC_MAX_SHARERS - 1)) &&
             \initialized(woke + (0 .. nr - 1));
    requires \forall integer k; 0 <= k < nr ==> woke[k] <= IRQSYNC_THREAD_CHANNELS;
    requires \valid(wake) && ACSL_WAKE_OK(wake);
    requires \separated(wake, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(wake, &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]) &&
             \separated(wake, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]) &&
             \separated(wake, woke + (0 .. IRQSYNC_MAX_SHARERS - 1));
    requires \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]);
    // The channel table whole (ACSL_WAKER_EFFECTS names its run flags): the replay loop's
    // assigns then include it as written; through the run flags' field, z3 and cvc4 time out
    // on the inclusion there.
    assigns desc->threads_active.counter, desc->oneshot_mask,
            irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1],
            wake->nr, wake->chan[0 .. IRQSYNC_MAX_SHARERS - 1], g_phase;
    ensures in_critical_section(desc) && instance_running(irq);
    ensures REQ_THREAD_1: REQ_THREAD_7: counts_only_rises:
      g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    ensures ACSL_WAKE_OK(wake) && wake->masked == \old(wake->masked);
    // the wakers write no status word: the replay decision read before them still stands
    ensures status_kept: desc->status.counter == \old(desc->status.counter);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_wake_threads(struct irq_desc *desc, unsigned int irq, unsigned int nr,
				 const unsigned int *woke, struct irq_wake *wake);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires desc_wf(desc);
    assigns desc->handled, desc->unhandled, desc->spur_passes, desc->spur_unhandled,
            desc->depth, desc->status.counter, ACSL_SREAD;
    ensures desc_wf(desc);
    ensures \result == 0 || \result == 1;
    ensures REQ_DISPATCH_5: counted: handled != 0 ?
      desc->handled == (unsigned long)(\old(desc->handled) + 1) :
      desc->unhandled == (unsigned long)(\old(desc->unhandled) + 1);
    ensures REQ_DISPATCH_6: \result == 1 ==> (desc->status.counter & IRQS_DISABLED) != 0;
    ensures REQ_DISPATCH_6: disabled_by_depth: \result == 1 ==>
      desc->depth == (\old(desc->depth) < IRQSYNC_DEPTH_MAX ? \old(desc->depth) + 1 : \old(desc->depth));
    ensures REQ_DISPATCH_6: depth_kept: \result == 0 ==> desc->depth == \old(desc->depth);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static int irqsync_note_pass(struct irq_desc *desc, int handled);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: in_critical_section(desc);
    requires REQ_HANDLER_2: in_handler_of(irq);
    requires REQ_DISPATCH_8: irqs_off;
    requires cpu_ready;
    requires REQ_SYNC_1: REQ_DISPATCH_3: in_instance: instance_running(irq);
    requires g_lock_depth == 1;
    requires REQ_THREAD_7: owes_nothing: g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    requires \valid(wake) && ACSL_WAKE_OK(wake);
    requires \separated(wake, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(wake, &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]) &&
             \separated(wake, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]);
    assigns ACSL_DESCS, g_lock_stack[..], g_lock_depth,
            ACSL_SREAD, warn_count[..], *wake, g_phase, g_mask_call[..];
    ensures REQ_THREAD_1: REQ_THREAD_7: counts_only_rises:
      g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    ensures REQ_LOCK_5: in_critical_section(desc) && g_lock_depth == \old(g_lock_depth);
    ensures lock_prefix_kept{Pre, Post};
    ensures ACSL_WAKE_OK(wake);
    ensures REQ_HANDLER_2: in_handler_of(irq);
    ensures REQ_SYNC_1: REQ_DISPATCH_3: still_in_instance: instance_running(irq);
    ensures REQ_DISPATCH_2: no_replay_left:
      (desc->status.counter & (IRQS_PENDING | IRQS_DISABLED)) != IRQS_PENDING;
    ensures irqs_off && cpu_ready;
    ensures \result == 0 || \result == 1;
    ensures ACSL_INIT;
*/
static int irqsync_run_passes(struct irq_desc *desc, unsigned int irq, struct irq_wake *wake);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires in_critical_section(desc);
    requires irqs_off && cpu_ready;
    requires REQ_SYNC_1: REQ_DISPATCH_3: in_instance: instance_running(irq);
    requires g_lock_depth == 1;
    requires REQ_THREAD_7: owes_nothing: g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    requires \valid(wake) && ACSL_WAKE_OK(wake);
    requires \separated(wake, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(wake, &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]) &&
             \separated(wake, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]);
    assigns ACSL_DESCS, g_lock_stack[..], g_lock_depth,
            ACSL_SREAD, warn_count[..], irqsync_serving[this_ctx], *wake, g_phase, g_mask_call[..];
    ensures REQ_THREAD_1: REQ_THREAD_7: counts_only_rises:
      g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    ensures ACSL_WAKE_OK(wake);
    ensures REQ_SYNC_1: REQ_DISPATCH_3: still_in_instance: instance_running(irq);
    ensures REQ_DISPATCH_2: no_replay_left:
      (desc->status.counter & (IRQS_PENDING | IRQS_DISABLED)) != IRQS_PENDING;
    ensures REQ_LOCK_5: in_critical_section(desc) && g_lock_depth == \old(g_lock_depth);
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_HANDLER_2: irqsync_serving[this_ctx] == \old(irqsync_serving[this_ctx]);
    ensures irqs_off && cpu_ready;
    ensures \result == 0 || \result == 1;
    ensures ACSL_INIT;
*/
static int irqsync_handler_instance(struct irq_desc *desc, unsigned int irq,
				    struct irq_wake *wake);

/* The beginning of an instance (D_SET_INPROGRESS): the guarantee G2's setting half.  It may
 * begin only in a hold whose locked status read found the line idle and enabled (line_free:
 * a call before that read, or on a read made before the lock or in an earlier hold, fails
 * it); it sets INPROGRESS, clears PENDING, and starts this CPU's instance. */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: locked: in_critical_section(desc);
    requires instances_ok;
    requires REQ_SYNC_5: REQ_DISPATCH_7: line_free: read_in_this_hold(desc) &&
      (g_sread_value & (IRQS_INPROGRESS | IRQS_DISABLED)) == 0;
    assigns desc->status.counter, ACSL_SREAD, g_instance[irq], g_begin[irq];
    ensures REQ_SYNC_1: REQ_DISPATCH_3: begun: instance_running(irq) && instances_ok;
    ensures REQ_DISPATCH_2: begun_clears_pending:
      desc->status.counter == ((\old(desc->status.counter) & (unsigned int)~IRQS_PENDING) | IRQS_INPROGRESS);
    ensures g_begin[irq] == \old(g_begin[irq]);
    ensures ACSL_INIT;
*/
static void irqsync_begin_instance(struct irq_desc *desc, unsigned int irq);

/* The end of this CPU's instance (D_CLEAR_INPROGRESS): INPROGRESS cleared, g_instance 0. */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: locked: in_critical_section(desc);
    requires instances_ok;
    requires REQ_SYNC_1: ends_own: instance_running(irq);
    assigns desc->status.counter, ACSL_SREAD, g_instance[irq];
    ensures REQ_SYNC_1: ended: g_instance[irq] == 0 && instances_ok;
    ensures REQ_SYNC_5: closed: (desc->status.counter & IRQS_INPROGRESS) == 0;
    ensures ACSL_INIT;
*/
static void irqsync_end_instance(struct irq_desc *desc, unsigned int irq);

/* The boundary to driver code (trusted: WP 25 cannot verify a call through a pointer).
 * A handler runs with interrupts off (REQ-DISPATCH-8, proved at the call), holding none of
 * the core's locks, inside the handler instance of the line this CPU serves (REQ-SYNC-1,
 * proved at the call); it may use the API, and returns with locks, interrupt state and this
 * CPU's instances as given (each API function proves that for itself: its call frame,
 * acsl/manage.h). */
/*@ requires ACSL_INIT;
    requires REQ_DISPATCH_8: irqs_off;
    requires REQ_SYNC_1: REQ_DISPATCH_3: in_instance: serving_instance;
    requires cpu_ready && no_desc_lock_held;
    assigns ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, warn_count[..], g_mask_call[..];
    ensures cpu_ready && irqs_off && g_lock_depth == \old(g_lock_depth);
    ensures no_desc_lock_held && lock_prefix_kept{Pre, Post};
    ensures ACSL_INIT;
*/
static irqreturn_t irqsync_call_handler(irq_handler_t handler, void *dev_id);

/*@ requires ACSL_INIT;
    // a pass's copy of the action chain holds values up to its length
    requires \valid_read(chain) && \initialized(&chain->nr) && chain->nr <= IRQSYNC_MAX_SHARERS &&
      \initialized(&chain->handler[0 .. chain->nr - 1]) &&
      \initialized(&chain->dev_id[0 .. chain->nr - 1]);
    requires \initialized(&chain->thread[0 .. chain->nr - 1]);
    requires \separated(chain, &irq_desc[0 .. NR_IRQS - 1]);
    requires \valid(woke + (0 .. IRQSYNC_MAX_SHARERS - 1)) && \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), chain) &&
             \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]);
    requires REQ_DISPATCH_8: irqs_off;
    requires REQ_SYNC_1: REQ_DISPATCH_3: in_instance: serving_instance;
    requires cpu_ready && no_desc_lock_held;
    // the primaries of a ONESHOT line run only after this context masked the line it serves
    requires REQ_ONESHOT_1: masked_before_primaries: \initialized(&chain->oneshot) &&
      (chain->oneshot != 0 ==> g_mask_call[irqsync_serving[this_ctx] - 1] == 1);
    assigns ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, warn_count[..], g_mask_call[..],
            woke[0 .. IRQSYNC_MAX_SHARERS - 1];
    ensures REQ_THREAD_7: woke_own: \forall integer k; 0 <= k < chain->nr ==>
      woke[k] == 0 || woke[k] == chain->thread[k];
    ensures \initialized(&woke[0 .. chain->nr - 1]);
    ensures REQ_DISPATCH_5: \result == 0 || \result == 1;
    ensures cpu_ready && irqs_off && g_lock_depth == \old(g_lock_depth);
    ensures no_desc_lock_held && lock_prefix_kept{Pre, Post};
    ensures ACSL_INIT;
*/
static int irqsync_run_chain(const struct irq_chain *chain, unsigned int *woke);

/* The unlocked part of a pass: the ONESHOT mask, the kick, the chain (src/core/handle.c).
 * What it needs and gives is irqsync_run_chain's, plus the record of the wakers. */
/*@ requires ACSL_INIT;
    requires irq_ok(irq);
    requires \valid_read(chain) && \initialized(&chain->nr) && chain->nr <= IRQSYNC_MAX_SHARERS &&
      \initialized(&chain->handler[0 .. chain->nr - 1]) &&
      \initialized(&chain->dev_id[0 .. chain->nr - 1]) &&
      \initialized(&chain->thread[0 .. chain->nr - 1]) && \initialized(&chain->oneshot);
    requires \separated(chain, &irq_desc[0 .. NR_IRQS - 1]);
    requires threads_in_range: \forall integer i; 0 <= i < chain->nr ==>
      chain->thread[i] <= IRQSYNC_THREAD_CHANNELS;
    requires \valid(woke + (0 .. IRQSYNC_MAX_SHARERS - 1)) && \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), chain) &&
             \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(woke + (0 .. IRQSYNC_MAX_SHARERS - 1), &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]);
    requires \valid(wake) && ACSL_WAKE_OK(wake);
    requires \separated(wake, chain) && \separated(wake, woke + (0 .. IRQSYNC_MAX_SHARERS - 1)) &&
             \separated(wake, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(wake, &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]) &&
             \separated(wake, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]);
    requires REQ_DISPATCH_8: irqs_off;
    requires REQ_SYNC_1: REQ_DISPATCH_3: in_instance: serving_instance;
    requires REQ_HANDLER_2: in_handler_of(irq);
    requires cpu_ready && no_desc_lock_held;
    assigns ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, warn_count[..], g_mask_call[..],
            woke[0 .. IRQSYNC_MAX_SHARERS - 1], wake->nr, wake->masked;
    ensures REQ_THREAD_7: woke_own: \forall integer k; 0 <= k < chain->nr ==>
      woke[k] == 0 || woke[k] == chain->thread[k];
    ensures woke_in_range: \forall integer k; 0 <= k < chain->nr ==>
      woke[k] <= IRQSYNC_THREAD_CHANNELS;
    ensures \initialized(&woke[0 .. chain->nr - 1]);
    ensures REQ_DISPATCH_5: \result == 0 || \result == 1;
    ensures ACSL_WAKE_OK(wake);
    ensures cpu_ready && irqs_off && g_lock_depth == \old(g_lock_depth);
    ensures no_desc_lock_held && lock_prefix_kept{Pre, Post};
    ensures ACSL_INIT;
*/
static int irqsync_unlocked_pass(const struct irq_chain *chain, unsigned int *woke,
				 struct irq_wake *wake, unsigned int irq);

/*@ assigns \nothing;
    ensures REQ_HANDLER_2: context: \result == this_ctx && \result < IRQSYNC_NR_CONTEXTS;
*/
unsigned int irqsync_context(void);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && serving_ok;
    assigns \nothing;
    ensures REQ_ERR_4: \result == 1 <==> in_handler_of(irq);
    ensures \result == 0 || \result == 1;
    ensures ACSL_INIT;
*/
int irqsync_in_own_handler(unsigned int irq);

/*@ requires ACSL_INIT;
    requires serving_ok;
    assigns \nothing;
    ensures ACSL_INIT;
    behavior serving:
      assumes irqsync_serving[this_ctx] != 0;
      ensures REQ_HANDLER_2: \result == irqsync_serving[this_ctx] - 1;
      ensures 0 <= \result < NR_IRQS;
    behavior not_serving:
      assumes irqsync_serving[this_ctx] == 0;
      ensures REQ_HANDLER_2: \result == -IRQSYNC_ESRCH;
    complete behaviors;
    disjoint behaviors;
*/
int get_irqfunc_irq(void);

/* handle_irq is called as a driver-API function is (the call frame of acsl/manage.h), with no
 * lock held at all. */
/*@ requires REQ_LOCK_4: dispatch_without_locks: cpu_holds_no_lock;
    // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS, irqsync_serving[this_ctx], g_instance[irq], g_begin[irq], g_phase;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_DISPATCH_9: REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior dispatch:
      assumes irq_ok(irq);
      ensures \result == 0;
      ensures REQ_HANDLER_2: irqsync_serving[this_ctx] == \old(irqsync_serving[this_ctx]);
      ensures REQ_SYNC_1: instance_ended: g_instance[irq] == \old(g_instance[irq]);
      ensures REQ_LOCK_6: frame_kept: sread_unchanged{Pre, Post} &&
        g_begin[irq] == \old(g_begin[irq]) && g_phase == \old(g_phase);
    complete behaviors;
    disjoint behaviors;
*/
int handle_irq(unsigned int irq);

#endif /* _IRQSYNC_ACSL_HANDLE_H */

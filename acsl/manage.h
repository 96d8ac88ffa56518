/* SPDX-License-Identifier: MIT */
/*
 * acsl/manage.h - contracts of the driver API: request/free, disable/enable, synchronize (REQ-LIFECYCLE-*, REQ-DEPTH-*).
 * Proved by WP against the bodies in src/core/manage.c; included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_MANAGE_H
#define _IRQSYNC_ACSL_MANAGE_H

#include "logic/api.h"

/* The slot helpers: one slot's four stores, out of the callers' loops (irqsync_desc_init). */
/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: g_exclusive == 1 || cpu_holds(&desc->lock);
    requires slot < IRQSYNC_MAX_SHARERS;
    assigns desc->action[slot];
    ensures REQ_LIFECYCLE_1: REQ_LIFECYCLE_4: slot_free: action_free(&desc->action[slot]);
    // Freeing the slot just past a chain that is well formed but for that slot closes it
    // (irqsync_unlink's last slot): the chain is then well formed.
    ensures REQ_LIFECYCLE_4: closes_chain: (\old(desc->nr_actions) == slot &&
      \old(desc->depth) <= IRQSYNC_DEPTH_MAX &&
      (\forall integer j; 0 <= j < slot ==> \at(action_installed(&desc->action[j]), Pre)) &&
      (\forall integer j; slot < j < IRQSYNC_MAX_SHARERS ==>
         \at(action_free(&desc->action[j]), Pre)))
      ==> desc_wf(desc);
    ensures ACSL_INIT;
*/
static void irqsync_action_clear(struct irq_desc *desc, unsigned int slot);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires to < IRQSYNC_MAX_SHARERS && from < IRQSYNC_MAX_SHARERS;
    assigns desc->action[to];
    ensures REQ_LIFECYCLE_4: moved: desc->action[to] == \old(desc->action[from]);
    ensures ACSL_INIT;
*/
static void irqsync_action_move(struct irq_desc *desc, unsigned int to, unsigned int from);

/*@ requires g_exclusive == 1 && ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    assigns desc->threads_active.counter, desc->oneshot_mask;
    ensures REQ_THREAD_8: no_episode: desc->threads_active.counter == 0 && desc->oneshot_mask == 0;
    ensures ACSL_INIT;
*/
static void irqsync_desc_init_threads(struct irq_desc *desc);

/*@ requires g_exclusive == 1 && ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    assigns *desc;
    ensures desc_wf(desc) && ACSL_INIT;
    ensures REQ_LIFECYCLE_1: desc->nr_actions == 0 && desc->depth == 1 &&
      desc->status.counter == IRQS_DISABLED;
*/
static void irqsync_desc_init(struct irq_desc *desc);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires action_chain_wf(desc);
    assigns \nothing;
    ensures \result == 0 || \result == -IRQSYNC_EBUSY || \result == -IRQSYNC_EINVAL ||
            \result == -IRQSYNC_ENOSPC;
    ensures REQ_LIFECYCLE_2: REQ_LIFECYCLE_3: REQ_LIFECYCLE_6: \result == 0 ==>
      desc->nr_actions < IRQSYNC_MAX_SHARERS &&
      (\forall integer i; 0 <= i < desc->nr_actions ==> desc->action[i].dev_id != dev_id);
    ensures REQ_LIFECYCLE_2: \result == 0 && desc->nr_actions > 0 ==> (flags & IRQF_SHARED) != 0;
    ensures REQ_THREAD_3: oneshot_agreed: \result == 0 ==> \forall integer i; 0 <= i < desc->nr_actions ==>
      ((desc->action[i].flags ^ flags) & IRQF_ONESHOT) == 0;
    ensures ACSL_INIT;
*/
static int irqsync_check_request(const struct irq_desc *desc, unsigned long flags,
				 const void *dev_id);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires desc_wf(desc) && handler != \null && thread <= IRQSYNC_THREAD_CHANNELS;
    requires desc->nr_actions < IRQSYNC_MAX_SHARERS;
    requires \forall integer i; 0 <= i < desc->nr_actions ==> desc->action[i].dev_id != dev_id;
    assigns desc->action[desc->nr_actions], desc->nr_actions, desc->depth,
            desc->status.counter, desc->spur_passes, desc->spur_unhandled, ACSL_SREAD;
    ensures REQ_LIFECYCLE_1: desc->nr_actions == \old(desc->nr_actions) + 1;
    ensures REQ_LIFECYCLE_7: REQ_DISPATCH_6: window_reset:
      desc->spur_passes == 0 && desc->spur_unhandled == 0;
    ensures REQ_LIFECYCLE_8: join_keeps_depth: \old(desc->nr_actions) > 0 ==>
      desc->depth == \old(desc->depth) && desc->status.counter == \old(desc->status.counter);
    ensures REQ_LIFECYCLE_1: desc->action[\old(desc->nr_actions)].handler == handler &&
      desc->action[\old(desc->nr_actions)].dev_id == dev_id &&
      desc->action[\old(desc->nr_actions)].thread == thread;
    ensures REQ_LIFECYCLE_1: \old(desc->nr_actions) == 0 ==> desc->depth == 0 &&
      (desc->status.counter & IRQS_DISABLED) == 0;
    ensures desc_wf(desc);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_install(struct irq_desc *desc, irq_handler_t handler,
			    unsigned long flags, const char *name, void *dev_id,
			    unsigned int thread);

/* The thread channels of the handler threads (struct irq_thread, src/core/internal.h). */
/*@ requires g_exclusive == 1 && ACSL_INIT;
    assigns irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1];
    ensures \forall integer c; 0 <= c < IRQSYNC_THREAD_CHANNELS ==> irqsync_threads[c].claimed == 0;
    ensures ACSL_INIT;
*/
static void irqsync_threads_init(void);

/*@ requires ACSL_INIT;
    requires irq_ok(irq);
    requires REQ_DISPATCH_1: cpu_holds(&irq_desc[irq].lock);
    assigns irqsync_threads[irq * IRQSYNC_MAX_SHARERS .. irq * IRQSYNC_MAX_SHARERS + IRQSYNC_MAX_SHARERS - 1];
    ensures REQ_THREAD_6: own_line: \result == 0 ||
      (irq * IRQSYNC_MAX_SHARERS < \result <= irq * IRQSYNC_MAX_SHARERS + IRQSYNC_MAX_SHARERS &&
       \old(irqsync_threads[\result - 1].claimed) == 0 && irqsync_threads[\result - 1].claimed == 1);
    // a mask bit for an IRQF_ONESHOT action only (52abb700e16a gave every threaded action one)
    ensures REQ_ONESHOT_3: bit_only_oneshot: \result != 0 && (flags & IRQF_ONESHOT) == 0 ==>
      irqsync_threads[\result - 1].thread_bit == 0;
    ensures \result <= IRQSYNC_THREAD_CHANNELS;
    ensures ACSL_INIT;
*/
static unsigned int irqsync_claim_thread(unsigned int irq, irq_handler_t thread_fn,
					 void *dev_id, unsigned long flags);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires 1 <= thread <= IRQSYNC_THREAD_CHANNELS;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready && no_desc_lock_held;
    // no status read: free_irq's locked re-check stays its last (REQ-LIFECYCLE-5)
    ensures sread_unchanged{Pre, Post};
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_release_thread(struct irq_desc *desc, unsigned int irq, unsigned int thread);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq] && handler != \null;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready && no_desc_lock_held;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
    ensures REQ_LIFECYCLE_2: REQ_LIFECYCLE_6: REQ_THREAD_3: \result == 0 || \result == -IRQSYNC_EBUSY ||
      \result == -IRQSYNC_EINVAL || \result == -IRQSYNC_ENOSPC || \result == -IRQSYNC_ENOMEM;
    ensures thread_fn == \null ==> \result != -IRQSYNC_ENOMEM;
*/
static int irqsync_request(struct irq_desc *desc, unsigned int irq, irq_handler_t handler,
			   irq_handler_t thread_fn, unsigned long flags, const char *name,
			   void *dev_id);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures REQ_SYNC_1: REQ_SYNC_3: locked_recheck: saw_idle_under_lock(desc);
    ensures REQ_THREAD_1: REQ_THREAD_4: threads_idle_acquired:
      g_aread_word == &desc->threads_active && g_aread_value == 0;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
*/
static void irqsync_wait_for_line(struct irq_desc *desc, unsigned int irq);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires action_chain_wf(desc);
    assigns \nothing;
    ensures \result <= desc->nr_actions;
    ensures REQ_LIFECYCLE_4: \result < desc->nr_actions ==> desc->action[\result].dev_id == dev_id;
    ensures REQ_ERR_3: \result == desc->nr_actions ==>
      (\forall integer i; 0 <= i < desc->nr_actions ==> desc->action[i].dev_id != dev_id);
    ensures ACSL_INIT;
*/
static unsigned int irqsync_find_action(const struct irq_desc *desc, const void *dev_id);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires desc_wf(desc) && idx < desc->nr_actions;
    assigns desc->action[0 .. IRQSYNC_MAX_SHARERS - 1], desc->nr_actions, desc->depth,
            desc->status.counter, ACSL_SREAD;
    ensures REQ_LIFECYCLE_4: desc->nr_actions == \old(desc->nr_actions) - 1;
    ensures REQ_LIFECYCLE_4: keeps_before: \forall integer j; 0 <= j < idx ==>
      desc->action[j] == \old(desc->action[j]);
    ensures REQ_LIFECYCLE_4: shifts_after: \forall integer j; idx <= j < desc->nr_actions ==>
      desc->action[j] == \old(desc->action[j + 1]);
    ensures REQ_LIFECYCLE_4: last_disables: desc->nr_actions == 0 ==>
      desc->depth == 1 && (desc->status.counter & IRQS_DISABLED) != 0;
    ensures wf_kept: desc_wf(desc);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_unlink(struct irq_desc *desc, unsigned int idx);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_DEPTH_5: \result == 0 || \result == -IRQSYNC_EOVERFLOW;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
*/
static int irqsync_disable_depth(struct irq_desc *desc, unsigned int irq);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires desc_wf(desc);
    assigns desc->depth, desc->status.counter, ACSL_SREAD;
    ensures desc_wf(desc);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
    behavior unbalanced:
      assumes desc->depth == 0;
      assigns \nothing;
      ensures REQ_DEPTH_4: \result == -IRQSYNC_EINVAL;
    behavior still_disabled:
      assumes desc->depth > 1;
      assigns desc->depth;
      ensures REQ_DEPTH_3: desc->depth == \old(desc->depth) - 1 && \result == 0;
    behavior enables:
      assumes desc->depth == 1;
      ensures REQ_DEPTH_3: desc->depth == 0 && (desc->status.counter & IRQS_DISABLED) == 0;
      ensures REQ_DEPTH_3: REQ_DISPATCH_7: replays_held: g_sread_word == &desc->status &&
        (\result == 1 <==> (g_sread_value & IRQS_PENDING) != 0) &&
        (\result == 0 || \result == 1);
    complete behaviors;
    disjoint behaviors;
*/
static int irqsync_enable_depth(struct irq_desc *desc, unsigned int irq);

/* The table and the serving words have static storage duration: C initialises them before
 * the program starts (C11 6.7.9p10), so irqsync_init finds them initialised. */
/*@ requires REQ_DISPATCH_1: g_exclusive == 1;
    requires static_storage: ACSL_INIT;
    requires REQ_SYNC_1: no_instance: \forall integer i; 0 <= i < NR_IRQS ==> g_instance[i] == 0;
    assigns irq_desc[0 .. NR_IRQS - 1], irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1],
            irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1], warn_count[..];
    ensures ACSL_INIT;
    ensures REQ_LOCK_5: all_wf: descs_wf;
    ensures instances_ok;
    ensures serving_ok;
    ensures REQ_HANDLER_2: \forall integer c; 0 <= c < IRQSYNC_NR_CONTEXTS ==> irqsync_serving[c] == 0;
*/
void irqsync_init(void);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && serving_ok;
    assigns warn_count[..];
    ensures ACSL_INIT;
    behavior own_line:
      assumes in_handler_of(irq) || (threads != 0 && in_thread_of(irq));
      assigns warn_count[..];
      ensures REQ_ERR_4: REQ_THREAD_5: \result == -IRQSYNC_EDEADLK;
    behavior other_line:
      assumes !in_handler_of(irq) && !(threads != 0 && in_thread_of(irq));
      assigns \nothing;
      ensures \result == 0;
    complete behaviors;
    disjoint behaviors;
*/
static int irqsync_refuse_self_wait(unsigned int irq, int threads);

/* The driver API.  Each contract below begins with the call frame of a driver-API function
 * ("// the API call frame"; spec/proof.md's ACSL_API_FRAME, written out since issue 24; the
 * contracts of irqsync_disable_depth and irqsync_wait_for_handler, and handle_irq's in
 * acsl/handle.h, state the same frame): called from task context with a consistent CPU (no
 * descriptor lock held, interrupts in a state the caller may restore), it returns holding the
 * same locks, with the same interrupt state.  Then come its assigns clause, ACSL_INIT on
 * return and its behaviors.  Those on a line number share two (once ACSL_BAD_IRQ and
 * ACSL_OWN_LINE): bad_irq, a bad number changes nothing (REQ-ERR-1), and, where the call may
 * wait, own_line, a wait on the line whose handler this CPU runs is refused (REQ-ERR-4). */
/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && (in_handler_of(irq) || in_thread_of(irq));
      assigns warn_count[..];
      ensures REQ_ERR_4: REQ_THREAD_5: \result == -IRQSYNC_EDEADLK;
    behavior wait:
      assumes irq_ok(irq) && !in_handler_of(irq) && !in_thread_of(irq);
      ensures \result == 0;
      ensures REQ_SYNC_1: REQ_SYNC_3: locked_recheck: saw_idle_under_lock(&irq_desc[irq]);
      ensures REQ_THREAD_1: REQ_THREAD_4: threads_idle_acquired:
        g_aread_word == &irq_desc[irq].threads_active && g_aread_value == 0;
    complete behaviors;
    disjoint behaviors;
*/
int synchronize_irq(unsigned int irq);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && in_handler_of(irq);
      assigns warn_count[..];
      ensures REQ_ERR_4: \result == -IRQSYNC_EDEADLK;
    behavior wait:
      assumes irq_ok(irq) && !in_handler_of(irq);
      ensures REQ_THREAD_9: hard_only: saw_idle_under_lock(&irq_desc[irq]) &&
        g_aread_word == &irq_desc[irq].threads_active &&
        (\result == 1 <==> g_aread_value == 0) && (\result == 0 || \result == 1);
    complete behaviors;
    disjoint behaviors;
*/
int synchronize_hardirq(unsigned int irq);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && in_handler_of(irq);
      assigns warn_count[..];
      ensures REQ_ERR_4: \result == -IRQSYNC_EDEADLK;
    behavior disable:
      assumes irq_ok(irq) && !in_handler_of(irq);
      ensures REQ_DEPTH_5: REQ_THREAD_9: \result == 0 || \result == 1 || \result == -IRQSYNC_EOVERFLOW;
      ensures REQ_DEPTH_1: REQ_THREAD_9: \result >= 0 ==> saw_idle_under_lock(&irq_desc[irq]);
    complete behaviors;
    disjoint behaviors;
*/
int disable_hardirq(unsigned int irq);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && (in_handler_of(irq) || in_thread_of(irq));
      assigns warn_count[..];
      ensures REQ_ERR_4: REQ_THREAD_5: \result == -IRQSYNC_EDEADLK;
    behavior disable:
      assumes irq_ok(irq) && !in_handler_of(irq) && !in_thread_of(irq);
      ensures REQ_DEPTH_5: \result == 0 || \result == -IRQSYNC_EOVERFLOW;
      ensures REQ_DEPTH_1: \result == 0 ==> saw_idle_under_lock(&irq_desc[irq]);
      ensures REQ_THREAD_1: \result == 0 ==>
        g_aread_word == &irq_desc[irq].threads_active && g_aread_value == 0;
    complete behaviors;
    disjoint behaviors;
*/
int disable_irq(unsigned int irq);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior disable:
      assumes irq_ok(irq);
      ensures REQ_DEPTH_2: REQ_DEPTH_5: \result == 0 || \result == -IRQSYNC_EOVERFLOW;
    complete behaviors;
    disjoint behaviors;
*/
int disable_irq_nosync(unsigned int irq);

/*@ requires REQ_LOCK_4: dispatch_without_locks: cpu_holds_no_lock;
    // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    // g_phase: the replay is an interrupt on this CPU (handle_irq), which hands it back
    assigns ACSL_API_EFFECTS, irqsync_serving[this_ctx], g_instance[irq], g_begin[irq], g_phase;
    ensures irqsync_serving[this_ctx] == \old(irqsync_serving[this_ctx]);
    ensures g_phase == \old(g_phase);
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior enable:
      assumes irq_ok(irq);
      ensures REQ_DEPTH_4: \result == 0 || \result == -IRQSYNC_EINVAL;
      ensures REQ_SYNC_1: g_instance[irq] == \old(g_instance[irq]);
    complete behaviors;
    disjoint behaviors;
*/
int enable_irq(unsigned int irq);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_args:
      assumes !irq_ok(irq) || handler == \null || (flags & (unsigned long)~IRQF_VALID_MASK) != 0 ||
              (flags & IRQF_ONESHOT) != 0 || ((flags & IRQF_SHARED) != 0 && dev_id == \null);
      assigns \nothing;
      ensures REQ_ERR_1: REQ_ERR_2: REQ_LIFECYCLE_3: REQ_THREAD_2: \result == -IRQSYNC_EINVAL;
    behavior request:
      assumes irq_ok(irq) && handler != \null && (flags & (unsigned long)~IRQF_VALID_MASK) == 0 &&
              (flags & IRQF_ONESHOT) == 0 && ((flags & IRQF_SHARED) == 0 || dev_id != \null);
      ensures REQ_LIFECYCLE_2: REQ_LIFECYCLE_6: \result == 0 || \result == -IRQSYNC_EBUSY ||
              \result == -IRQSYNC_EINVAL || \result == -IRQSYNC_ENOSPC;
    complete behaviors;
    disjoint behaviors;
*/
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_args:
      assumes !irq_ok(irq) || (flags & (unsigned long)~IRQF_VALID_MASK) != 0 ||
              (handler == \null && (flags & IRQF_ONESHOT) == 0) ||
              ((flags & IRQF_ONESHOT) != 0 && thread_fn == \null) ||
              ((flags & IRQF_SHARED) != 0 && dev_id == \null);
      assigns \nothing;
      ensures REQ_ERR_1: REQ_ERR_2: REQ_THREAD_2: \result == -IRQSYNC_EINVAL;
    behavior request:
      assumes irq_ok(irq) && (flags & (unsigned long)~IRQF_VALID_MASK) == 0 &&
              (handler != \null || (flags & IRQF_ONESHOT) != 0) &&
              ((flags & IRQF_ONESHOT) == 0 || thread_fn != \null) &&
              ((flags & IRQF_SHARED) == 0 || dev_id != \null);
      ensures REQ_LIFECYCLE_2: REQ_LIFECYCLE_6: REQ_THREAD_3: \result == 0 || \result == -IRQSYNC_EBUSY ||
              \result == -IRQSYNC_EINVAL || \result == -IRQSYNC_ENOSPC || \result == -IRQSYNC_ENOMEM;
    complete behaviors;
    disjoint behaviors;
*/
int request_threaded_irq(unsigned int irq, irq_handler_t handler, irq_handler_t thread_fn,
			 unsigned long flags, const char *name, void *dev_id);

/*@ // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && (in_handler_of(irq) || in_thread_of(irq));
      assigns warn_count[..];
      ensures REQ_ERR_4: REQ_THREAD_5: \result == -IRQSYNC_EDEADLK;
    behavior free:
      assumes irq_ok(irq) && !in_handler_of(irq) && !in_thread_of(irq);
      ensures REQ_ERR_3: \result == 0 || \result == -IRQSYNC_ENOENT;
      ensures REQ_LIFECYCLE_5: \result == 0 ==> saw_idle_under_lock(&irq_desc[irq]);
    complete behaviors;
    disjoint behaviors;
*/
int free_irq(unsigned int irq, void *dev_id);

/* No "ensures ACSL_INIT" here: after the write to *out (apart from the table, as the proved
 * assigns clause says) the provers time out re-deriving the initialisation of every descriptor
 * field (spec/proof.md, "Initialisation"); no function of the core calls irq_stats. */
/*@ requires out == \null || (\valid(out) && \separated(out, &irq_desc[0 .. NR_IRQS - 1]) &&
                              \separated(out, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]));
    // the API call frame
    requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    assigns ACSL_API_EFFECTS, *out;
    behavior bad_args:
      assumes !irq_ok(irq) || out == \null;
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior stats:
      assumes irq_ok(irq) && out != \null;
      ensures REQ_DISPATCH_5: \result == 0 && out->depth <= IRQSYNC_DEPTH_MAX &&
        out->nr_actions <= IRQSYNC_MAX_SHARERS;
    complete behaviors;
    disjoint behaviors;
*/
int irq_stats(unsigned int irq, struct irq_stats *out);

#endif /* _IRQSYNC_ACSL_MANAGE_H */

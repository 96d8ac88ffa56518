/* SPDX-License-Identifier: MIT */
/*
 * acsl/thread.h - contracts of the handler threads (spec/threaded.md; REQ-THREAD-n,
 * REQ-ONESHOT-n): the waker of dispatch, the thread and its ONESHOT finalisation, the waits.
 * Proved by WP against the bodies in src/core/thread.c; included by proofs/core.c only
 * (spec/proof.md).  Besides each function's frame and context (the lock held, inside the
 * instance, the thread's call frame), the episode protocol's order is the preconditions of the
 * four helpers that perform its atomic operations, stated on the ghost typestate g_phase
 * (spec/proof.md (g)), and the ONESHOT clear's conditions are its helper's preconditions.
 */
#ifndef _IRQSYNC_ACSL_THREAD_H
#define _IRQSYNC_ACSL_THREAD_H

#include "logic/api.h"

/*@ assigns \nothing;
    ensures REQ_THREAD_2: default_wakes: \result == IRQ_WAKE_THREAD;
*/
irqreturn_t irqsync_default_primary(void *dev_id);

/* The boundary to driver code (trusted: WP 25 cannot verify a call through a pointer).  A
 * thread function runs in task context, holding none of the core's locks, and may use the
 * API; it returns with locks and interrupt state as given (each API function proves that for
 * itself: its call frame, acsl/manage.h). */
/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures cpu_ready && no_desc_lock_held && serving_ok;
    ensures g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures g_irqs_enabled == \old(g_irqs_enabled);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static irqreturn_t irqsync_call_thread_fn(irq_handler_t thread_fn, void *dev_id);

/*@ requires ACSL_INIT && chan < IRQSYNC_THREAD_CHANNELS;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    // one run per taken episode: the thread function runs only after a take found a run
    requires REQ_THREAD_7: runs_taken: g_phase == IRQSYNC_PH_TAKEN;
    assigns ACSL_API_EFFECTS, g_phase;
    ensures g_phase == IRQSYNC_PH_RAN;
    ensures cpu_ready && no_desc_lock_held && serving_ok;
    ensures g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures g_irqs_enabled == \old(g_irqs_enabled);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_thread_call(unsigned int chan);

/*@ requires irq_ok(irq);
    assigns \nothing;
*/
static void irqsync_wake_waiters(unsigned int irq);

/* The episode protocol's atomic operations (src/core/thread.c): each moves g_phase, and may
 * run only in the states its precondition names. */
/*@ requires irq_ok(irq) && desc == &irq_desc[irq] && ACSL_INIT;
    requires REQ_DISPATCH_1: in_critical_section(desc);
    requires REQ_THREAD_1: counted_in_instance: instance_running(irq);
    // a waker counts once per wake-up: it owes nothing when it begins
    requires REQ_THREAD_7: owes_nothing: g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    assigns desc->threads_active.counter, g_phase;
    ensures g_phase == IRQSYNC_PH_COUNTED;
    ensures ACSL_INIT;
*/
static void irqsync_count_episode(struct irq_desc *desc, unsigned int irq);

/*@ requires \valid(t) && (\exists integer c; 0 <= c < IRQSYNC_THREAD_CHANNELS && t == &irqsync_threads[c]);
    requires ACSL_INIT;
    // the count comes before the raise: a thread that takes the run at once and uncounts
    // finds the count there (spec/threaded.md, "Count before the exchange")
    requires REQ_THREAD_1: REQ_THREAD_8: counted_first: g_phase == IRQSYNC_PH_COUNTED;
    assigns t->run_pending.counter, g_phase;
    ensures \result == 0 ==> g_phase == IRQSYNC_PH_RAISED;
    ensures \result != 0 ==> g_phase == IRQSYNC_PH_FOLDED;
    ensures ACSL_INIT;
*/
static unsigned int irqsync_raise_run(struct irq_thread *t);

/*@ requires \valid(t) && (\exists integer c; 0 <= c < IRQSYNC_THREAD_CHANNELS && t == &irqsync_threads[c]);
    requires ACSL_INIT;
    assigns t->run_pending.counter, g_phase;
    ensures \result != 0 ==> g_phase == IRQSYNC_PH_TAKEN;
    ensures \result == 0 ==> g_phase == IRQSYNC_PH_IDLE;
    ensures ACSL_INIT;
*/
static unsigned int irqsync_take_run(struct irq_thread *t);

/*@ requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires ACSL_INIT;
    // an uncount gives back a folded count, or ends an episode whose thread function returned
    // (on a ONESHOT line also finalised: the finalisation requires PH_RAN, which this ends)
    requires REQ_THREAD_1: REQ_THREAD_7: uncount_owed:
      g_phase == IRQSYNC_PH_FOLDED || g_phase == IRQSYNC_PH_RAN;
    assigns desc->threads_active.counter, g_phase;
    ensures g_phase == IRQSYNC_PH_IDLE;
    ensures ACSL_INIT;
*/
static unsigned int irqsync_uncount(struct irq_desc *desc);

/* The waker: under the line's lock, inside this CPU's instance of the line (REQ-THREAD-1: a
 * synchronize_irq whose locked re-check follows the instance sees the count). */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: in_critical_section(desc);
    requires REQ_THREAD_1: counted_in_instance: instance_running(irq);
    requires 1 <= thread <= IRQSYNC_THREAD_CHANNELS;
    requires REQ_THREAD_7: owes_nothing: g_phase == IRQSYNC_PH_IDLE || g_phase == IRQSYNC_PH_RAISED;
    requires \valid(wake) && ACSL_WAKE_OK(wake);
    requires \separated(wake, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(wake, &irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1]) &&
             \separated(wake, &irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]);
    assigns ACSL_WAKER_EFFECTS(desc, wake);
    // no count without a rise of the run flag, none left over from a fold: the count the
    // waker leaves is a new episode's (RAISED) or given back (IDLE)
    ensures REQ_THREAD_1: REQ_THREAD_7: counts_only_rises:
      g_phase == IRQSYNC_PH_RAISED || g_phase == IRQSYNC_PH_IDLE;
    ensures ACSL_WAKE_OK(wake) && wake->masked == \old(wake->masked);
    // the waker writes no status word
    ensures status_kept: desc->status.counter == \old(desc->status.counter);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void irqsync_wake_thread(struct irq_desc *desc, unsigned int irq, unsigned int thread,
			 struct irq_wake *wake);

/*@ requires irq_ok(irq) && \valid(wake) && ACSL_WAKE_OK(wake);
    assigns wake->nr;
    ensures wake->nr == 0 && ACSL_WAKE_OK(wake);
*/
void irqsync_kick_threads(struct irq_wake *wake, unsigned int irq);

/* Called at the end of an instance, INPROGRESS just cleared, the lock still held.  An instance
 * that masked the line unmasks it when no woken thread holds a bit (REQ-ONESHOT-4: none was
 * woken; the bits of earlier episodes are theirs to clear), and never while a bit is set
 * (REQ-ONESHOT-3). */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires \valid_read(wake) && \initialized(&wake->masked);
    assigns g_mask_call[irq];
    ensures REQ_ONESHOT_4: unmasked_when_no_bit:
      \old(wake->masked) != 0 && desc->oneshot_mask == 0 ==> g_mask_call[irq] == 0;
    ensures REQ_ONESHOT_3: kept_while_bit_set:
      desc->oneshot_mask != 0 ==> g_mask_call[irq] == \old(g_mask_call[irq]);
*/
void irqsync_oneshot_end(struct irq_desc *desc, const struct irq_wake *wake, unsigned int irq);

/* T_FIN_CLEAR: the one write that clears a ONESHOT bit.  Only the thread that ran the action's
 * episode clears it (its own channel, its thread function returned), under the line's lock,
 * after a read in this hold saw no instance of the line running, and with no new run pending
 * (REQ-ONESHOT-2).  The clear that empties the mask unmasks the line; one that leaves a bit
 * does not (REQ-ONESHOT-3). */
/*@ requires ACSL_INIT && irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: REQ_ONESHOT_2: under_lock: in_critical_section(desc);
    requires REQ_ONESHOT_2: own_thread: 1 <= this_thread <= IRQSYNC_THREAD_CHANNELS &&
      t == &irqsync_threads[this_thread - 1] && (this_thread - 1) / IRQSYNC_MAX_SHARERS == irq;
    requires REQ_ONESHOT_2: after_run: g_phase == IRQSYNC_PH_RAN;
    requires REQ_ONESHOT_2: no_instance: read_in_this_hold(desc) &&
      (g_sread_value & IRQS_INPROGRESS) == 0;
    requires REQ_ONESHOT_2: no_run_pending: t->run_pending.counter == 0;
    assigns desc->oneshot_mask, g_mask_call[irq];
    ensures REQ_ONESHOT_2: own_bit_only:
      desc->oneshot_mask == (\old(desc->oneshot_mask) & (unsigned int)~t->thread_bit);
    ensures REQ_ONESHOT_3: unmasked_when_emptied: desc->oneshot_mask == 0 ==> g_mask_call[irq] == 0;
    ensures REQ_ONESHOT_3: kept_while_bit_set:
      desc->oneshot_mask != 0 ==> g_mask_call[irq] == \old(g_mask_call[irq]);
    ensures in_critical_section(desc);
    ensures ACSL_INIT;
*/
static void irqsync_oneshot_clear(struct irq_desc *desc, const struct irq_thread *t,
				  unsigned int irq);

/* The finalisation, in the thread's call frame: it takes and drops the line's lock. */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires 1 <= this_thread <= IRQSYNC_THREAD_CHANNELS && t == &irqsync_threads[this_thread - 1] &&
      (this_thread - 1) / IRQSYNC_MAX_SHARERS == irq;
    requires REQ_ONESHOT_2: after_run: g_phase == IRQSYNC_PH_RAN;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures cpu_ready && no_desc_lock_held;
    ensures g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures g_irqs_enabled == \old(g_irqs_enabled);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
static void irqsync_finalize_oneshot(struct irq_desc *desc, struct irq_thread *t,
				     unsigned int irq);

/* A handler thread's run.  The port calls it (trusted: port.h's thread contract) in task
 * context, with no lock of the core held: that is this precondition, assumed, not proved at
 * a call. */
/*@ requires ACSL_INIT;
    requires chan < IRQSYNC_THREAD_CHANNELS;
    // the port runs channel @chan's function in that channel's thread (port.h)
    requires this_thread == chan + 1;
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS, g_phase;
    // every run the thread took is uncounted before it returns (after its run and its
    // finalisation: uncount_owed, after_run), and nothing else is owed
    ensures REQ_THREAD_8: episode_closed: g_phase == IRQSYNC_PH_IDLE;
    ensures cpu_ready && no_desc_lock_held;
    ensures g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures g_irqs_enabled == \old(g_irqs_enabled);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void irqsync_thread_fn(unsigned int chan);

/*@ requires IRQSYNC_THREAD_CHANNELS <= chan < IRQSYNC_PORT_CHANNELS && ACSL_INIT;
    assigns ACSL_DESCS, g_aread_word, g_aread_value;
    ensures REQ_THREAD_4: idle_acquired:
      g_aread_word == &irq_desc[chan - IRQSYNC_THREAD_CHANNELS].threads_active &&
      (\result != 0 <==> g_aread_value == 0);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
int irqsync_threads_idle(unsigned int chan);

/* S_THREADS: returns after an acquire read saw the line's counter at 0 (REQ-THREAD-1, -4). */
/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    assigns ACSL_DESCS, g_aread_word, g_aread_value;
    ensures REQ_THREAD_1: REQ_THREAD_4: threads_idle_acquired:
      g_aread_word == &desc->threads_active && g_aread_value == 0;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void irqsync_wait_for_threads(struct irq_desc *desc, unsigned int irq);

/*@ requires irq_ok(irq);
    assigns \nothing;
    ensures REQ_THREAD_10: \result == 0 || \result == 1;
*/
int irqsync_wait_for_chip(unsigned int irq);

/*@ requires irq_ok(irq);
    assigns \nothing;
    ensures REQ_THREAD_5: \result == 1 <==> in_thread_of(irq);
    ensures \result == 0 || \result == 1;
*/
int irqsync_in_own_thread(unsigned int irq);

#endif /* _IRQSYNC_ACSL_THREAD_H */

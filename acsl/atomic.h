/* SPDX-License-Identifier: MIT */
/*
 * acsl/atomic.h - contracts of the atomics (src/include/irqsync/atomic.h: C11 atomics in real
 * builds), part of the trusted base of the proofs (REQ-TCB-2) with the port's contracts
 * (acsl/port.h, which includes this file where these contracts stood, so the proved program
 * is the same).  None of these has a body under Frama-C; WP assumes each contract and
 * proofs/gate.py lists every one in build/evidence/proofs.json ("assumptions").  The list of
 * functions allowed here is proofs/trusted-base.txt; spec/proof.md argues each item.
 *
 * Here the other CPUs appear in the proof: an acquire makes their writes visible (the rely),
 * and every status write is checked against what they rely on (the guarantee).  The logs
 * these write are logic/logs.h.
 *
 * A store never makes a location uninitialised: each store's contract says so for the
 * descriptor table (ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT), so that a goal after an atomic
 * store need not re-derive the initialisation of every field of every descriptor (a goal the
 * provers time out on).
 */
#ifndef _IRQSYNC_ACSL_ATOMIC_H
#define _IRQSYNC_ACSL_ATOMIC_H

#include "logic/model.h"

/* Every read of a descriptor status word is logged with the innermost lock held at the
 * time: synchronize_irq's contract (REQ-SYNC-1) is stated over that log.  A status word is
 * shared with other CPUs: without its line's lock the read may return any value.  Holding
 * the lock, it returns the word's current value (locked_read_current): only the holder of
 * the lock writes the word (REQ-DISPATCH-1, proved at every write below), and the acquire
 * that took the lock made every earlier holder's write visible (REQ-MM-4). */
/*@ requires \valid_read(v);
    assigns g_sread_word, g_sread_value, g_sread_lock, g_sread_holds;
    behavior status_word:
      assumes is_status_word((irqsync_atomic_t *)v);
      assigns g_sread_word, g_sread_value, g_sread_lock, g_sread_holds;
      ensures g_sread_word == v && g_sread_value == \result && g_sread_holds == g_holds;
      ensures REQ_DISPATCH_1: locked_read_current: \forall integer k;
        0 <= k < NR_IRQS && v == &irq_desc[k].status && cpu_holds(&irq_desc[k].lock) ==>
          \result == v->counter;
      ensures g_lock_depth > 0 ==> g_sread_lock == g_lock_stack[g_lock_depth - 1];
      ensures g_lock_depth <= 0 ==> g_sread_lock == \null;
    behavior other_word:
      assumes !is_status_word((irqsync_atomic_t *)v);
      assigns \nothing;
      ensures \result == v->counter;
      ensures sread_unchanged{Pre, Post};
    complete behaviors;
    disjoint behaviors;
*/
unsigned int irqsync_atomic_read_relaxed(const irqsync_atomic_t *v);

/* The ticket lock's wait: an acquire.  Other CPUs' releases become visible here: any
 * descriptor may have changed, and the descriptor whose lock word this is is well formed
 * (the rely of the lock discipline; its guarantee is irqsync_atomic_set_release's
 * precondition, proved at every release); the instances this CPU runs kept their INPROGRESS
 * (the rely of REQ-SYNC-1; its guarantee is irqsync_atomic_set_relaxed's owner_clears).
 * Mutual exclusion rests on two more facts about other CPUs, not stated here: tickets are
 * unique (the fetch-and-add is atomic) and only the holder advances the owner word, by one
 * release store (spin_unlock's advances_by_one, proved).  spec/proof.md lists them. */
/* Each acquire is logged (g_aread_*: the word and the value returned), so the lock's "my
 * turn" is a clause on the value this load returned, not on a copy the code may overwrite. */
/*@ requires \valid_read(v) && ACSL_INIT;
    assigns ACSL_DESCS, g_aread_word, g_aread_value;
    ensures REQ_LOCK_1: acquire_logged: g_aread_word == v && g_aread_value == \result;
    ensures REQ_LOCK_1: rely: owner_word_wf((irqsync_atomic_t *)v);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
unsigned int irqsync_atomic_read_acquire(const irqsync_atomic_t *v);

/*@ requires \valid(v);
    requires REQ_DISPATCH_1: status_write_allowed(v);
    requires REQ_DISPATCH_1: fresh_rmw: status_write_fresh(v);
    requires REQ_SYNC_1: owner_clears: inprogress_clear_allowed(v, i);
    requires REQ_SYNC_5: only_beginning_sets: inprogress_set_allowed(v, i);
    assigns v->counter;
    ensures v->counter == i && \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
void irqsync_atomic_set_relaxed(irqsync_atomic_t *v, unsigned int i);

/* The unlock: a release store.  Guarantee: the descriptor is well formed when its lock is
 * released. */
/*@ requires \valid(v) && !is_status_word(v);
    requires REQ_LOCK_5: guarantee: owner_word_wf(v);
    assigns v->counter;
    ensures v->counter == i && \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
void irqsync_atomic_set_release(irqsync_atomic_t *v, unsigned int i);

/*@ requires \valid(v) && !is_status_word(v);
    assigns v->counter, g_aread_word, g_aread_value;
    ensures \result == \old(v->counter);
    ensures REQ_LOCK_1: acquire_logged: g_aread_word == v && g_aread_value == \result;
    ensures v->counter == (unsigned int)(\old(v->counter) + i) && \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
unsigned int irqsync_atomic_fetch_add_acquire(irqsync_atomic_t *v, unsigned int i);

/*@ requires \valid(v) && !is_status_word(v);
    assigns v->counter;
    ensures \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
void irqsync_atomic_inc_relaxed(irqsync_atomic_t *v);

/* The run-pending flag's exchange and the episode counter's decrement (threaded handlers):
 * words shared WITHOUT the lock, which other CPUs and threads change at any time, so the
 * value returned says nothing about the word's value now (no \result == ... clause). */
/*@ requires \valid(v) && is_thread_word(v);
    assigns v->counter;
    ensures v->counter == i && \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
unsigned int irqsync_atomic_xchg(irqsync_atomic_t *v, unsigned int i);

/*@ requires \valid(v) && is_thread_word(v);
    assigns v->counter;
    ensures \initialized(&v->counter);
    ensures \at(ACSL_INIT, Pre) ==> ACSL_INIT;
*/
unsigned int irqsync_atomic_dec_return(irqsync_atomic_t *v);

/*@ assigns \nothing; */
void irqsync_smp_mb(void);

#endif /* _IRQSYNC_ACSL_ATOMIC_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/port.h - contracts of the port primitives and, through acsl/atomic.h, of the
 * atomics: the trusted base of the proofs (REQ-TCB-2).  None of these has a body under
 * Frama-C; WP assumes each contract and proofs/gate.py lists every one in
 * build/evidence/proofs.json ("assumptions").  The list of functions allowed here is
 * proofs/trusted-base.txt; spec/proof.md argues each item.
 *
 * Needs warn.c's counters (interrupts delivered by the port may warn): the proof's unity file
 * proofs/core.c includes this after src/core/warn.c.
 */
#ifndef _IRQSYNC_ACSL_PORT_H
#define _IRQSYNC_ACSL_PORT_H

#include "logic/model.h"

/* What an interrupt delivered on this CPU may change: handle_irq runs (REQ-LOCK-6).  It
 * leaves this CPU's g_instance, g_begin and status-read log as it found them (handle_irq's
 * contract proves that: instance_ended, frame_kept), so the contracts below do not list them;
 * it takes a lock, so the hold count and the acquire log change (A6, spec/proof.md).  A
 * location list, kept as a macro (see ACSL_LOCK_FREE, logic/lockstack.h): spec/proof.md and
 * docs/porting.md name it as the one place where held interrupts run. */
#define ACSL_IRQ_EFFECTS ACSL_DESCS, warn_count[..], g_holds, g_aread_word, g_aread_value

/* ---- the CPU ---------------------------------------------------------------------------- */

/*@ assigns \nothing;
    ensures cpu_id: \result == this_cpu;
*/
unsigned int irqsync_port_cpu_id(void);

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures REQ_LOCK_3: saves_state_port: saves_state(\result, \old(g_irqs_enabled));
    ensures irqs_off;
*/
irq_flags_t irqsync_port_irq_save(void);

/* Restoring "enabled" delivers the interrupts held meanwhile: only safe with no lock held. */
/*@ requires irq_state_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> cpu_holds_no_lock;
    requires serving_ok && ACSL_INIT;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures REQ_LOCK_3: restores_port: g_irqs_enabled == restored_state(flags);
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures serving_ok && ACSL_INIT;
*/
void irqsync_port_irq_restore(irq_flags_t flags);

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures irqs_off;
*/
void irqsync_port_irq_disable(void);

/*@ requires irq_state_ok;
    requires REQ_LOCK_4: cpu_holds_no_lock;
    requires serving_ok && ACSL_INIT;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures irqs_on;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures serving_ok && ACSL_INIT;
*/
void irqsync_port_irq_enable(void);

/*@ requires irq_state_ok;
    assigns \nothing;
    ensures REQ_LOCK_6: \result == 1 - g_irqs_enabled;
*/
int irqsync_port_irqs_disabled(void);

/* A pause.  Other CPUs' updates are modelled where this CPU can observe them (see below). */
/*@ assigns \nothing; */
void irqsync_port_cpu_relax(void);

/* ---- handler threads (port.h, "Threaded handlers") ------------------------------------------
 * The port runs the core's thread function in another context: nothing of this CPU's state
 * changes by a start, a kick or a wake.  A stop returns after the thread's last run: what that
 * run wrote becomes visible (the descriptor table may have changed, as at an acquire). */

/*@ requires chan < IRQSYNC_PORT_CHANNELS && fn != \null;
    assigns \nothing;
    ensures \result == 0 || \result == -IRQSYNC_EINVAL || \result == -IRQSYNC_EBUSY ||
            \result == -IRQSYNC_ENOMEM;
*/
int irqsync_port_thread_start(unsigned int chan, void (*fn)(unsigned int chan));

/*@ requires chan < IRQSYNC_PORT_CHANNELS;
    assigns \nothing;
*/
void irqsync_port_thread_kick(unsigned int chan);

/*@ requires chan < IRQSYNC_PORT_CHANNELS && ACSL_INIT;
    assigns ACSL_DESCS;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void irqsync_port_thread_stop(unsigned int chan);

/*@ assigns \nothing;
    ensures thread_current: \result == this_thread;
*/
unsigned int irqsync_port_thread_current(void);

/* The wait returns when ready(chan) returned non-zero: the threads' waiters' ready() is one
 * acquire read of the line's threads_active (irqsync_threads_idle), so the last acquire this
 * CPU logged is that read, of value 0 (REQ-THREAD-1, -4). */
/*@ requires IRQSYNC_THREAD_CHANNELS <= chan < IRQSYNC_PORT_CHANNELS && ACSL_INIT;
    requires ready == &irqsync_threads_idle;
    assigns ACSL_DESCS, g_aread_word, g_aread_value;
    ensures REQ_THREAD_1: ready_seen:
      g_aread_word == &irq_desc[chan - IRQSYNC_THREAD_CHANNELS].threads_active &&
      g_aread_value == 0;
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok;
    ensures ACSL_INIT;
*/
void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan));

/*@ requires chan < IRQSYNC_PORT_CHANNELS;
    assigns \nothing;
*/
void irqsync_port_wake(unsigned int chan);

/* The mask calls are logged (g_mask_call): what the ONESHOT clauses say is which call this
 * context made last; that the port then masks or unmasks is the port's contract (A15). */
/*@ requires irq_ok(irq);
    assigns g_mask_call[irq];
    ensures g_mask_call[irq] == 1;
*/
void irqsync_port_line_mask(unsigned int irq);

/*@ requires irq_ok(irq);
    assigns g_mask_call[irq];
    ensures g_mask_call[irq] == 0;
*/
void irqsync_port_line_unmask(unsigned int irq);

/*@ requires irq_ok(irq);
    assigns \nothing;
    ensures \result == 0 || \result == 1 || \result == IRQSYNC_PORT_CANNOT_TELL;
*/
int irqsync_port_line_inflight(unsigned int irq);

/* ---- the atomics (irqsync/atomic.h): their contracts are acsl/atomic.h ------------------ */

#include "atomic.h"

#endif /* _IRQSYNC_ACSL_PORT_H */

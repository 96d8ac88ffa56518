/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/model.h - the logic model of irqsync for Frama-C WP (spec/proof.md).
 *
 * WP proves one CPU's sequential code.  The ghost state below is therefore the state of "this
 * CPU", the one running the verified function (per-CPU state is exactly that: every CPU has its
 * own copy, and the proof holds for each copy).  Other CPUs appear only as interference, at
 * the points where it can happen: an acquire load of a lock word makes their descriptor
 * updates visible (its contract assigns the descriptor table and promises only that the
 * descriptor whose lock is acquired is well formed, which every CPU restores before it
 * releases the lock), a status word read returns any value, and interrupts delivered when
 * this CPU enables them may change any descriptor.
 *
 * Ghost state (Frama-C 25 has no ghost struct fields, so all of it is ghost globals):
 *   g_irqs_enabled             this CPU's local interrupt-enable state (1 enabled, 0 disabled)
 *   g_lock_stack[0 .. depth-1] the locks this CPU holds, innermost last: "lock l is owned by
 *   g_lock_depth               this CPU" is cpu_holds(l)
 *   g_sread_*                  the log of this CPU's last read of a descriptor status word:
 *                              which word, the value read, the innermost lock held then, and
 *                              g_holds then (g_sread_holds: the hold it was read in)
 *   g_holds                    how many locks this CPU has taken (spin_lock counts, modulo
 *                              2^32): equal at a read and later, with the same lock innermost
 *                              at both, means the read was made in the current hold
 *   g_aread_*                  the log of this CPU's last acquire on a lock word (the ticket's
 *                              fetch-and-add, the owner word's loads): which word, the value
 *                              returned.  The lock's "my turn" is a clause on it.
 *   g_exclusive                1 when no other CPU uses the library (irqsync_init's context)
 *   g_instance[i]              1 while this CPU runs a handler instance of line i: from the
 *                              locked write that set INPROGRESS (D_SET_INPROGRESS) to the
 *                              locked write that clears it (D_CLEAR_INPROGRESS); else 0
 *   g_begin[i]                 1 only across the locked write by which this CPU begins an
 *                              instance of line i (D_SET_INPROGRESS): the one write allowed to
 *                              set INPROGRESS (inprogress_set_allowed)
 * Real state the model reads: irq_desc[] (status word, depth, action chain) and
 * irqsync_serving[] (which line each CPU is serving).
 */
#ifndef _IRQSYNC_ACSL_MODEL_H
#define _IRQSYNC_ACSL_MODEL_H

#include "../../src/core/internal.h"

/* The most locks one CPU may hold at once in the proofs (the core itself needs one). */
#define IRQSYNC_MAX_HELD 4

//@ ghost int g_irqs_enabled;
//@ ghost spinlock_t *g_lock_stack[IRQSYNC_MAX_HELD];
//@ ghost int g_lock_depth;
//@ ghost const irqsync_atomic_t *g_sread_word;
//@ ghost unsigned int g_sread_value;
//@ ghost spinlock_t *g_sread_lock;
//@ ghost unsigned int g_sread_holds;
//@ ghost unsigned int g_holds;
//@ ghost const irqsync_atomic_t *g_aread_word;
//@ ghost unsigned int g_aread_value;
//@ ghost int g_exclusive;
//@ ghost int g_instance[NR_IRQS];
//@ ghost int g_begin[NR_IRQS];

/*@ axiomatic this_cpu {
      // The id of the CPU that runs the verified code (trusted base: port contract).
      logic integer this_cpu;
      axiom this_cpu_range: 0 <= this_cpu < IRQSYNC_NR_CPUS;
      // Whether a saved interrupt state says "enabled" (the encoding is the port's:
      // REQ-FLAGS-2); only the port contracts relate it to g_irqs_enabled.
      logic boolean port_state_enabled(irq_flags_t f);
    }
*/

/*@ // --- local interrupt state (REQ-LOCK-3, REQ-LOCK-4, REQ-LOCK-6) ------------------------
    predicate irq_state_ok = g_irqs_enabled == 0 || g_irqs_enabled == 1;
    predicate irqs_on = g_irqs_enabled == 1;
    predicate irqs_off = g_irqs_enabled == 0;

    predicate saved_enabled(irq_flags_t f) = port_state_enabled(f) == \true;
    predicate saves_state(irq_flags_t f, integer enabled) =
      (saved_enabled(f) <==> enabled == 1);
    logic integer restored_state(irq_flags_t f) = port_state_enabled(f) ? 1 : 0;

    // --- lock ownership (REQ-LOCK-1, REQ-LOCK-5) -------------------------------------------
    predicate lock_stack_ok = 0 <= g_lock_depth <= IRQSYNC_MAX_HELD;
    predicate lock_stack_room = 0 <= g_lock_depth < IRQSYNC_MAX_HELD;
    predicate cpu_holds(spinlock_t *l) =
      \exists integer k; 0 <= k < g_lock_depth && g_lock_stack[k] == l;
    predicate cpu_holds_innermost(spinlock_t *l) =
      0 < g_lock_depth <= IRQSYNC_MAX_HELD && g_lock_stack[g_lock_depth - 1] == l;
    predicate cpu_holds_no_lock = g_lock_depth == 0;
    // The locks held at L1 are still held, in the same order, at L2.
    predicate lock_prefix_kept{L1, L2} =
      \forall integer k; 0 <= k < \at(g_lock_depth, L1) ==>
        \at(g_lock_stack[k], L2) == \at(g_lock_stack[k], L1);

    // Interrupts may be on only while this CPU holds no lock: an interrupt handler on this
    // CPU could spin on a lock its own CPU holds (the hazard of REQ-LOCK-4).
    predicate interrupt_safe = irqs_on ==> cpu_holds_no_lock;

    // The status-read log did not change between two states.
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

    // --- descriptors ---------------------------------------------------------------------
    predicate irq_ok(integer irq) = 0 <= irq < NR_IRQS;
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
    predicate action_installed(struct irqaction *a) = a->handler != \null;
    predicate action_free(struct irqaction *a) = a->handler == \null && a->dev_id == \null;
    predicate action_chain_wf(struct irq_desc *d) =
      d->nr_actions <= IRQSYNC_MAX_SHARERS &&
      (\forall integer i; 0 <= i < d->nr_actions ==> action_installed(&d->action[i])) &&
      (\forall integer i; d->nr_actions <= i < IRQSYNC_MAX_SHARERS ==>
          action_free(&d->action[i]));
    predicate desc_wf(struct irq_desc *d) =
      action_chain_wf(d) && d->depth <= IRQSYNC_DEPTH_MAX;
    predicate descs_wf = \forall integer i; 0 <= i < NR_IRQS ==> desc_wf(&irq_desc[i]);

    // --- handler instances (REQ-SYNC-1, REQ-DISPATCH-3) ---------------------------------
    // The dispatch half of the synchronize_irq guarantee: while this CPU runs an instance of
    // line i, the line's INPROGRESS is set.  Other CPUs rely on it: their locked re-check
    // (saw_idle_under_lock) can see INPROGRESS clear only when no instance runs.
    predicate inprogress(integer i) = (irq_desc[i].status.counter & IRQS_INPROGRESS) != 0;
    predicate instance_running(integer i) = g_instance[i] == 1 && inprogress(i);
    // Every instance this CPU runs has its line's INPROGRESS set (restored by every
    // function; other CPUs keep it: the rely of the acquire and of the handler call).
    predicate instances_ok = \forall integer i; 0 <= i < NR_IRQS ==>
      g_instance[i] == 0 || instance_running(i);
    // The guarantee behind that rely, asked of every status write (acsl/port.h): a CPU
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
      \forall integer c; 0 <= c < IRQSYNC_NR_CPUS ==> irqsync_serving[c] <= NR_IRQS;
    predicate in_handler_of(integer irq) = irqsync_serving[this_cpu] == irq + 1;

    // A lock is a descriptor's or lies outside the descriptor table.
    predicate lock_placed(spinlock_t *l) =
      (\exists integer i; 0 <= i < NR_IRQS && l == &irq_desc[i].lock) ||
      \separated(l, &irq_desc[0 .. NR_IRQS - 1]);

    // Rely/guarantee of the descriptor locks: a CPU releases a descriptor's lock only with
    // the descriptor well formed (spin_unlock requires it: proved at every release), so a CPU
    // that acquires it finds it well formed (the acquire's contract: acsl/port.h).
    predicate lock_wf(spinlock_t *l) =
      \forall integer i; 0 <= i < NR_IRQS && l == &irq_desc[i].lock ==> desc_wf(&irq_desc[i]);
    predicate owner_word_wf(irqsync_atomic_t *v) =
      \forall integer i; 0 <= i < NR_IRQS && v == &irq_desc[i].lock.owner ==>
        desc_wf(&irq_desc[i]);

    // Everything a function of the library may rely on when it is called, and restores.
    predicate lib_ok = serving_ok && irq_state_ok && lock_stack_room && instances_ok;
    // This CPU serves a line and runs that line's instance: the state a handler is called in.
    predicate serving_instance =
      irqsync_serving[this_cpu] != 0 && instance_running(irqsync_serving[this_cpu] - 1);
*/

/* Locations a function of the API may change.  The descriptor table changes through other
 * CPUs (visible at lock acquisition) and under this CPU's locks; the free part of the lock
 * stack is scratch. */
#define ACSL_DESCS     irq_desc[0 .. NR_IRQS - 1]
#define ACSL_LOCK_FREE g_lock_stack[..]
/* The logs (status reads, acquires) and the hold count: assigned by every function that
 * reads a status word or takes a lock, so one name in each contract covers them all. */
#define ACSL_SREAD     g_sread_word, g_sread_value, g_sread_lock, g_sread_holds, g_holds, \
	g_aread_word, g_aread_value

/* Initialisation (-rte-initialized): every descriptor field the core reads (the atomics are
 * read only through the port) and every per-CPU serving word holds a value.  C's static
 * storage starts so and every store keeps it so; the contracts require it and ensure it.
 * Field by field, because a store to one field then visibly keeps the others (stated for the
 * whole struct, every store made the provers re-derive every field and they timed out).
 * A macro, not a predicate: Frama-C 25 WP drops a user predicate whose body uses
 * \initialized from the hypotheses of the goals that use it (spec/proof.md). */
#define ACSL_DESC_INIT(f) \initialized(&irq_desc[0 .. NR_IRQS - 1].f)
#define ACSL_ACTION_INIT(f) \initialized(&irq_desc[0 .. NR_IRQS - 1].action[0 .. IRQSYNC_MAX_SHARERS - 1].f)
#define ACSL_INIT (ACSL_DESC_INIT(depth) && ACSL_DESC_INIT(nr_actions) && \
	ACSL_DESC_INIT(handled) && ACSL_DESC_INIT(unhandled) && ACSL_DESC_INIT(spur_passes) && \
	ACSL_DESC_INIT(spur_unhandled) && ACSL_ACTION_INIT(handler) && ACSL_ACTION_INIT(dev_id) && \
	ACSL_ACTION_INIT(name) && ACSL_ACTION_INIT(flags) && \
	\initialized(&irqsync_serving[0 .. IRQSYNC_NR_CPUS - 1]))
/* A store never makes a location uninitialised: the atomics' contracts (acsl/port.h) say so for
 * the descriptor table, so that a goal after an atomic store need not re-derive the
 * initialisation of every field of every descriptor (a goal the provers time out on). */
#define ACSL_INIT_KEPT \at(ACSL_INIT, Pre) ==> ACSL_INIT
/* The rely on other CPUs at every point where their writes become visible, and what every
 * function that writes a status word without ending an instance restores: the instances this
 * CPU runs keep their INPROGRESS (REQ-SYNC-1).  Other CPUs run the same code, whose every
 * status write is checked against inprogress_clear_allowed (acsl/port.h). */
#define ACSL_KEEPS_INSTANCES \
    ensures REQ_SYNC_1: instances_kept: \at(instances_ok, Pre) ==> instances_ok
/* A pass's copy of the action chain holds values up to its length. */
#define ACSL_CHAIN_INIT(c) \initialized(&(c)->nr) && (c)->nr <= IRQSYNC_MAX_SHARERS && \
	\initialized(&(c)->handler[0 .. (c)->nr - 1]) && \initialized(&(c)->dev_id[0 .. (c)->nr - 1])

#endif /* _IRQSYNC_ACSL_MODEL_H */

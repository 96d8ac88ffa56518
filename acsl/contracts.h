/* SPDX-License-Identifier: MIT */
/*
 * acsl/contracts.h - the contracts of the core's functions (public API and the internal
 * functions of the lock, dispatch and synchronize paths), proved by WP against the bodies in
 * src/core/*.c.  They sit here, on declarations, rather than above each definition so that the
 * C sources stay readable and can change without merge conflicts; loop annotations and the two
 * ghost statements of the ticket lock are in the sources.  Included by proofs/core.c only.
 *
 * Convention: a clause that covers a requirement is named after it with underscores
 * (REQ_SYNC_1 covers REQ-SYNC-1); proofs/gate.py maps the names back (spec/proof.md).
 *
 * Concurrency: postconditions speak of this CPU's ghost state (interrupt state, lock stack,
 * status-read log) and of the descriptor table's well-formedness.  They do not claim that a
 * descriptor field still holds a value after the lock was released: other CPUs may change it.
 * Functional facts about a descriptor are therefore stated for the helpers that run under
 * the lock (install, unlink, find_action, check_request, note_pass, snapshot_chain).
 */
#ifndef _IRQSYNC_ACSL_CONTRACTS_H
#define _IRQSYNC_ACSL_CONTRACTS_H

#include "port.h"

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

/* What the API functions may change (ghost: the free part of the lock stack, the log). */
#define ACSL_API_EFFECTS ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, ACSL_SREAD, g_irqs_enabled, \
	warn_count[..]

/* ======================================================================= warn.c */

/*@ assigns warn_count[..]; */
void irqsync_warn(enum irqsync_warn_code code, unsigned int irq);

/* The user's warning hook (trusted: a call through a pointer). It must leave the library alone. */
/*@ assigns \nothing; */
static void irqsync_call_warn_hook(irqsync_warn_hook_t hook, enum irqsync_warn_code code,
				   unsigned int irq);

/*@ assigns warn_hook;
    ensures \result == \old(warn_hook) && warn_hook == hook;
*/
irqsync_warn_hook_t irqsync_set_warn_hook(irqsync_warn_hook_t hook);

/*@ assigns ACSL_SREAD;
    ensures sread_unchanged{Pre, Post};
    behavior bad_code:
      assumes code < 0 || code >= IRQSYNC_WARN_NR_CODES;
      ensures REQ_ERR_7: \result == -IRQSYNC_EINVAL;
    behavior count:
      assumes 0 <= code < IRQSYNC_WARN_NR_CODES;
      ensures REQ_ERR_7: \result == warn_count[code].counter;
    complete behaviors;
    disjoint behaviors;
*/
long irqsync_warn_count(int code);

/*@ assigns warn_count[..];
    ensures \forall integer c; 0 <= c < IRQSYNC_WARN_NR_CODES ==> warn_count[c].counter == 0;
*/
void irqsync_warn_reset(void);

/* ======================================================================= spinlock.c */

/*@ requires \valid(lock) && lock_not_status(lock);
    assigns lock->next.counter, lock->owner.counter;
    ensures \initialized(&lock->next.counter) && \initialized(&lock->owner.counter);
*/
void spin_lock_init(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires lock_stack_room && lock_stack_distinct;
    requires REQ_LOCK_1: no_self_deadlock: !cpu_holds(lock);
    assigns ACSL_DESCS, lock->next.counter, g_lock_stack[..], g_lock_depth;
    ensures REQ_LOCK_1: owned: cpu_holds_innermost(lock);
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures ACSL_INIT;
*/
void spin_lock(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires REQ_LOCK_5: releases_own: cpu_holds_innermost(lock);
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    assigns lock->owner.counter, g_lock_depth, ACSL_SREAD;
    ensures g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures ACSL_INIT;
*/
void spin_unlock(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires REQ_LOCK_4: REQ_ERR_6: irqs_enabled: irqs_on;
    requires interrupt_safe && lock_stack_room && lock_stack_distinct;
    requires !cpu_holds(lock);
    assigns g_irqs_enabled, ACSL_DESCS, lock->next.counter, g_lock_stack[..],
            g_lock_depth;
    ensures irqs_off && cpu_holds_innermost(lock);
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures ACSL_INIT;
*/
void spin_lock_irq(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires cpu_holds_innermost(lock) && irq_state_ok;
    requires REQ_LOCK_4: only_lock_held: g_lock_depth == 1;
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    requires serving_ok;
    assigns lock->owner.counter, g_lock_depth, g_irqs_enabled, ACSL_IRQ_EFFECTS, ACSL_SREAD;
    ensures irqs_on && g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures serving_ok;
    ensures ACSL_INIT;
*/
void spin_unlock_irq(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires irq_state_ok && lock_stack_room && lock_stack_distinct;
    requires !cpu_holds(lock);
    assigns g_irqs_enabled, ACSL_DESCS, lock->next.counter, g_lock_stack[..],
            g_lock_depth;
    ensures REQ_LOCK_3: saves: saves_state(\result, \old(g_irqs_enabled));
    ensures irqs_off && cpu_holds_innermost(lock);
    ensures g_lock_depth == \old(g_lock_depth) + 1 && lock_stack_distinct;
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_1: acquired_wf: lock_wf(lock);
    ensures ACSL_INIT;
*/
irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock);

/*@ requires ACSL_INIT;
    requires \valid(lock) && lock_not_status(lock);
    requires cpu_holds_innermost(lock) && irq_state_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> g_lock_depth == 1;
    requires REQ_LOCK_5: releases_wf: lock_wf(lock);
    requires serving_ok;
    assigns lock->owner.counter, g_lock_depth, g_irqs_enabled, ACSL_IRQ_EFFECTS, ACSL_SREAD;
    ensures REQ_LOCK_3: restores: g_irqs_enabled == restored_state(flags);
    ensures g_lock_depth == \old(g_lock_depth) - 1;
    ensures sread_unchanged{Pre, Post};
    ensures serving_ok;
    ensures ACSL_INIT;
*/
void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags);

/* ======================================================================= irqflags.c */

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures REQ_LOCK_3: saves: saves_state(\result, \old(g_irqs_enabled));
    ensures irqs_off;
*/
irq_flags_t irqsync_local_irq_save(void);

/*@ requires ACSL_INIT;
    requires irq_state_ok && serving_ok;
    requires REQ_LOCK_4: saved_enabled(flags) ==> cpu_holds_no_lock;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures REQ_LOCK_3: restores: g_irqs_enabled == restored_state(flags);
    ensures serving_ok;
    ensures ACSL_INIT;
*/
void local_irq_restore(irq_flags_t flags);

/*@ requires irq_state_ok;
    assigns g_irqs_enabled;
    ensures irqs_off;
*/
void local_irq_disable(void);

/*@ requires ACSL_INIT;
    requires irq_state_ok && serving_ok;
    requires REQ_LOCK_4: cpu_holds_no_lock;
    assigns g_irqs_enabled, ACSL_IRQ_EFFECTS;
    ensures irqs_on;
    ensures serving_ok;
    ensures ACSL_INIT;
*/
void local_irq_enable(void);

/*@ requires irq_state_ok;
    assigns \nothing;
    ensures REQ_LOCK_6: \result == 1 - g_irqs_enabled;
*/
int irqs_disabled(void);

/* ======================================================================= handle.c */

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires \valid(chain) && \separated(chain, &irq_desc[0 .. NR_IRQS - 1]) &&
             \separated(chain, &irqsync_serving[0 .. IRQSYNC_NR_CPUS - 1]);
    requires action_chain_wf(desc);
    assigns chain->nr, chain->handler[0 .. IRQSYNC_MAX_SHARERS - 1],
            chain->dev_id[0 .. IRQSYNC_MAX_SHARERS - 1];
    ensures REQ_DISPATCH_4: chain->nr == desc->nr_actions;
    ensures REQ_DISPATCH_4: \forall integer i; 0 <= i < chain->nr ==>
      chain->handler[i] == desc->action[i].handler && chain->dev_id[i] == desc->action[i].dev_id;
    ensures ACSL_CHAIN_INIT(chain);
    ensures ACSL_INIT;
*/
static void irqsync_snapshot_chain(const struct irq_desc *desc, struct irq_chain *chain);

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
    ensures ACSL_INIT;
*/
static int irqsync_note_pass(struct irq_desc *desc, int handled);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires REQ_DISPATCH_1: in_critical_section(desc);
    requires REQ_HANDLER_2: in_handler_of(irq);
    requires REQ_DISPATCH_8: irqs_off;
    requires cpu_ready;
    requires g_lock_depth == 1;
    assigns ACSL_DESCS, g_lock_stack[..], g_lock_depth,
            ACSL_SREAD, warn_count[..];
    ensures REQ_LOCK_5: in_critical_section(desc) && g_lock_depth == \old(g_lock_depth);
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_HANDLER_2: in_handler_of(irq);
    ensures irqs_off && cpu_ready;
    ensures \result == 0 || \result == 1;
    ensures ACSL_INIT;
*/
static int irqsync_run_passes(struct irq_desc *desc, unsigned int irq);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires in_critical_section(desc);
    requires irqs_off && cpu_ready;
    requires g_lock_depth == 1;
    assigns ACSL_DESCS, g_lock_stack[..], g_lock_depth,
            ACSL_SREAD, warn_count[..], irqsync_serving[this_cpu];
    ensures REQ_LOCK_5: in_critical_section(desc) && g_lock_depth == \old(g_lock_depth);
    ensures lock_prefix_kept{Pre, Post};
    ensures REQ_HANDLER_2: irqsync_serving[this_cpu] == \old(irqsync_serving[this_cpu]);
    ensures irqs_off && cpu_ready;
    ensures \result == 0 || \result == 1;
    ensures ACSL_INIT;
*/
static int irqsync_handler_instance(struct irq_desc *desc, unsigned int irq);

/* The boundary to driver code (trusted: WP 25 cannot verify a call through a pointer).
 * A handler runs with interrupts off (REQ-DISPATCH-8, proved at the call), holding none of
 * the core's locks; it may use the API, and returns with locks and interrupt state as given. */
/*@ requires ACSL_INIT;
    requires REQ_DISPATCH_8: irqs_off;
    requires cpu_ready && no_desc_lock_held;
    assigns ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, warn_count[..];
    ensures cpu_ready && irqs_off && g_lock_depth == \old(g_lock_depth);
    ensures no_desc_lock_held && lock_prefix_kept{Pre, Post};
    ensures ACSL_INIT;
*/
static irqreturn_t irqsync_call_handler(irq_handler_t handler, void *dev_id);

/*@ requires ACSL_INIT;
    requires \valid_read(chain) && ACSL_CHAIN_INIT(chain);
    requires \separated(chain, &irq_desc[0 .. NR_IRQS - 1]);
    requires REQ_DISPATCH_8: irqs_off;
    requires cpu_ready && no_desc_lock_held;
    assigns ACSL_DESCS, ACSL_LOCK_FREE, g_lock_depth, warn_count[..];
    ensures REQ_DISPATCH_5: \result == 0 || \result == 1;
    ensures cpu_ready && irqs_off && g_lock_depth == \old(g_lock_depth);
    ensures no_desc_lock_held && lock_prefix_kept{Pre, Post};
    ensures ACSL_INIT;
*/
static int irqsync_run_chain(const struct irq_chain *chain);

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
      assumes irqsync_serving[this_cpu] != 0;
      ensures REQ_HANDLER_2: \result == irqsync_serving[this_cpu] - 1;
      ensures 0 <= \result < NR_IRQS;
    behavior not_serving:
      assumes irqsync_serving[this_cpu] == 0;
      ensures REQ_HANDLER_2: \result == -IRQSYNC_ESRCH;
    complete behaviors;
    disjoint behaviors;
*/
int get_irqfunc_irq(void);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    requires REQ_LOCK_4: dispatch_without_locks: cpu_holds_no_lock;
    assigns ACSL_API_EFFECTS, irqsync_serving[this_cpu];
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_DISPATCH_9: REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior dispatch:
      assumes irq_ok(irq);
      ensures \result == 0;
      ensures REQ_HANDLER_2: irqsync_serving[this_cpu] == \old(irqsync_serving[this_cpu]);
    complete behaviors;
    disjoint behaviors;
*/
int handle_irq(unsigned int irq);

/* ============================================================== manage.c, sync.c */

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    assigns ACSL_SREAD;
    ensures REQ_SYNC_5: spin_saw_idle: g_sread_word == &desc->status &&
      (g_sread_value & IRQS_INPROGRESS) == 0;
    ensures ACSL_INIT;
*/
static void irqsync_spin_while_inprogress(const struct irq_desc *desc, unsigned int irq);

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
    ensures ACSL_INIT;
*/
static int irqsync_check_request(const struct irq_desc *desc, unsigned long flags,
				 const void *dev_id);

/*@ requires ACSL_INIT;
    requires \exists integer i; irq_ok(i) && desc == &irq_desc[i];
    requires REQ_DISPATCH_1: cpu_holds(&desc->lock);
    requires desc_wf(desc) && handler != \null;
    requires desc->nr_actions < IRQSYNC_MAX_SHARERS;
    requires \forall integer i; 0 <= i < desc->nr_actions ==> desc->action[i].dev_id != dev_id;
    assigns desc->action[desc->nr_actions], desc->nr_actions, desc->depth,
            desc->status.counter, ACSL_SREAD;
    ensures REQ_LIFECYCLE_1: desc->nr_actions == \old(desc->nr_actions) + 1;
    ensures REQ_LIFECYCLE_1: desc->action[\old(desc->nr_actions)].handler == handler &&
      desc->action[\old(desc->nr_actions)].dev_id == dev_id;
    ensures REQ_LIFECYCLE_1: \old(desc->nr_actions) == 0 ==> desc->depth == 0 &&
      (desc->status.counter & IRQS_DISABLED) == 0;
    ensures desc_wf(desc);
    ensures ACSL_INIT;
*/
static void irqsync_install(struct irq_desc *desc, irq_handler_t handler,
			    unsigned long flags, const char *name, void *dev_id);

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
    ensures desc_wf(desc);
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
    assigns irq_desc[0 .. NR_IRQS - 1], irqsync_serving[0 .. IRQSYNC_NR_CPUS - 1],
            warn_count[..];
    ensures ACSL_INIT;
    ensures serving_ok;
    ensures REQ_HANDLER_2: \forall integer c; 0 <= c < IRQSYNC_NR_CPUS ==> irqsync_serving[c] == 0;
*/
void irqsync_init(void);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && serving_ok;
    assigns warn_count[..];
    ensures ACSL_INIT;
    behavior own_line:
      assumes in_handler_of(irq);
      assigns warn_count[..];
      ensures REQ_ERR_4: \result == -IRQSYNC_EDEADLK;
    behavior other_line:
      assumes !in_handler_of(irq);
      assigns \nothing;
      ensures \result == 0;
    complete behaviors;
    disjoint behaviors;
*/
static int irqsync_refuse_self_wait(unsigned int irq);

/*@ requires ACSL_INIT;
    requires irq_ok(irq) && desc == &irq_desc[irq];
    requires cpu_ready && interrupt_safe && no_desc_lock_held && serving_ok;
    assigns ACSL_API_EFFECTS;
    ensures REQ_SYNC_1: REQ_SYNC_3: locked_recheck: g_sread_word == &desc->status &&
      g_sread_lock == &desc->lock && (g_sread_value & IRQS_INPROGRESS) == 0;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
*/
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
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
      ensures \result == 0;
      ensures REQ_SYNC_1: REQ_SYNC_3: locked_recheck: g_sread_word == &irq_desc[irq].status &&
        g_sread_lock == &irq_desc[irq].lock && (g_sread_value & IRQS_INPROGRESS) == 0;
    complete behaviors;
    disjoint behaviors;
*/
int synchronize_irq(unsigned int irq);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
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
      ensures REQ_DEPTH_5: \result == 0 || \result == -IRQSYNC_EOVERFLOW;
      ensures REQ_DEPTH_1: \result == 0 ==> g_sread_word == &irq_desc[irq].status &&
        g_sread_lock == &irq_desc[irq].lock && (g_sread_value & IRQS_INPROGRESS) == 0;
    complete behaviors;
    disjoint behaviors;
*/
int disable_irq(unsigned int irq);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
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

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    requires REQ_LOCK_4: dispatch_without_locks: cpu_holds_no_lock;
    assigns ACSL_API_EFFECTS, irqsync_serving[this_cpu];
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures irqsync_serving[this_cpu] == \old(irqsync_serving[this_cpu]);
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior enable:
      assumes irq_ok(irq);
      ensures REQ_DEPTH_4: \result == 0 || \result == -IRQSYNC_EINVAL;
    complete behaviors;
    disjoint behaviors;
*/
int enable_irq(unsigned int irq);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
    behavior bad_args:
      assumes !irq_ok(irq) || handler == \null || (flags & (unsigned long)~IRQF_VALID_MASK) != 0 ||
              ((flags & IRQF_SHARED) != 0 && dev_id == \null);
      assigns \nothing;
      ensures REQ_ERR_1: REQ_ERR_2: REQ_LIFECYCLE_3: \result == -IRQSYNC_EINVAL;
    behavior request:
      assumes irq_ok(irq) && handler != \null && (flags & (unsigned long)~IRQF_VALID_MASK) == 0 &&
              ((flags & IRQF_SHARED) == 0 || dev_id != \null);
      ensures REQ_LIFECYCLE_2: REQ_LIFECYCLE_6: \result == 0 || \result == -IRQSYNC_EBUSY ||
              \result == -IRQSYNC_EINVAL || \result == -IRQSYNC_ENOSPC;
    complete behaviors;
    disjoint behaviors;
*/
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    assigns ACSL_API_EFFECTS;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
    ensures ACSL_INIT;
    behavior bad_irq:
      assumes !irq_ok(irq);
      assigns \nothing;
      ensures REQ_ERR_1: \result == -IRQSYNC_EINVAL;
    behavior own_line:
      assumes irq_ok(irq) && in_handler_of(irq);
      assigns warn_count[..];
      ensures REQ_ERR_4: \result == -IRQSYNC_EDEADLK;
    behavior free:
      assumes irq_ok(irq) && !in_handler_of(irq);
      ensures REQ_ERR_3: \result == 0 || \result == -IRQSYNC_ENOENT;
      ensures REQ_LIFECYCLE_5: \result == 0 ==> g_sread_word == &irq_desc[irq].status &&
        g_sread_lock == &irq_desc[irq].lock && (g_sread_value & IRQS_INPROGRESS) == 0;
    complete behaviors;
    disjoint behaviors;
*/
int free_irq(unsigned int irq, void *dev_id);

/* No "ensures ACSL_INIT" here: after the write to *out (apart from the table, as the proved
 * assigns clause says) the provers time out re-deriving the initialisation of every descriptor
 * field (spec/proof.md, "Initialisation"); no function of the core calls irq_stats. */
/*@ requires ACSL_INIT;
    requires cpu_ready && interrupt_safe && no_desc_lock_held;
    requires out == \null || (\valid(out) && \separated(out, &irq_desc[0 .. NR_IRQS - 1]) &&
                              \separated(out, &irqsync_serving[0 .. IRQSYNC_NR_CPUS - 1]));
    assigns ACSL_API_EFFECTS, *out;
    ensures REQ_LOCK_5: g_lock_depth == \old(g_lock_depth) && lock_prefix_kept{Pre, Post};
    ensures REQ_LOCK_5: g_irqs_enabled == \old(g_irqs_enabled);
    ensures cpu_ready;
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

#endif /* _IRQSYNC_ACSL_CONTRACTS_H */

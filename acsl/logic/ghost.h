/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/ghost.h - this CPU's ghost state, and the CPU it is (part of logic/model.h).
 *
 * Frama-C 25 has no ghost struct fields, so all of it is ghost globals; they are declared
 * here together, before any predicate (the order of logic/model.h), each described by the
 * file whose predicates read it:
 *   g_irqs_enabled             this CPU's local interrupt-enable state (1 enabled, 0 disabled):
 *                              logic/irqstate.h
 *   g_lock_stack[0 .. depth-1] the locks this CPU holds, innermost last: "lock l is owned by
 *   g_lock_depth               this CPU" is cpu_holds(l): logic/lockstack.h
 *   g_sread_*, g_holds,        the logs of this CPU's last status-word read and last acquire,
 *   g_aread_*                  and the hold count: logic/logs.h
 *   g_exclusive                1 when no other CPU uses the library (irqsync_init's context):
 *                              logic/descriptors.h (who may write a status word)
 *   g_instance[i], g_begin[i]  the handler instances this CPU runs: logic/instances.h
 *   g_phase                    where this context stands in the threaded-episode protocol
 *                              (IRQSYNC_PH_*, below): acsl/thread.h's helper contracts
 *   g_mask_call[i]             the last mask call this context made for line i at the port:
 *                              1 irqsync_port_line_mask, 0 irqsync_port_line_unmask (or none):
 *                              acsl/port.h sets it, the ONESHOT clauses read it
 * Real state the model reads: irq_desc[] (status word, depth, action chain) and
 * irqsync_serving[] (which line each CPU is serving), both declared by src/core/internal.h.
 */
#ifndef _IRQSYNC_ACSL_LOGIC_GHOST_H
#define _IRQSYNC_ACSL_LOGIC_GHOST_H

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

/* The threaded-episode protocol's typestate of this context (spec/proof.md, "Episodes").  Only
 * the helpers of src/core/thread.c that perform one atomic operation of the protocol move it
 * (and handle_irq, which gives an interrupt a fresh one and hands the interrupted code's back);
 * their contracts say from which states each may run. */
#define IRQSYNC_PH_IDLE    0	/* owes nothing */
#define IRQSYNC_PH_COUNTED 1	/* a waker counted an episode and has not raised the run flag */
#define IRQSYNC_PH_RAISED  2	/* the raise found the flag 0: the count is a new episode's */
#define IRQSYNC_PH_FOLDED  3	/* the raise found the flag up: the count is owed back */
#define IRQSYNC_PH_TAKEN   4	/* a thread took a pending run: it owes the run */
#define IRQSYNC_PH_RAN     5	/* its thread function returned: it owes the finalisation and
				 * the uncount */
//@ ghost int g_phase;

/* The line mask at the port, as this context's calls left it (REQ-ONESHOT-1, -3, -4): a log of
 * this context's calls, not the controller's state, which other contexts' calls change too
 * (spec/proof.md (g) says how the two are tied). */
//@ ghost int g_mask_call[NR_IRQS];

/*@ axiomatic this_cpu {
      // The id of the CPU that runs the verified code (trusted base: port contract).
      logic integer this_cpu;
      axiom this_cpu_range: 0 <= this_cpu < IRQSYNC_NR_CPUS;
      // 1 + the channel whose handler thread runs the verified code, 0 outside every
      // thread (trusted base: irqsync_port_thread_current's contract).
      logic integer this_thread;
      axiom this_thread_range: 0 <= this_thread <= IRQSYNC_PORT_CHANNELS;
      // Whether a saved interrupt state says "enabled" (the encoding is the port's:
      // REQ-FLAGS-2); only the port contracts relate it to g_irqs_enabled.
      logic boolean port_state_enabled(irq_flags_t f);
    }
    // The context the verified code runs in (irqsync_serving's index, src/core/internal.h).
    logic integer this_ctx = this_thread != 0 ? IRQSYNC_NR_CPUS + this_thread - 1 : this_cpu;
*/

#endif /* _IRQSYNC_ACSL_LOGIC_GHOST_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/model.h - the logic model of irqsync for Frama-C WP (spec/proof.md): one file
 * per concept, included here in this order.
 *
 * WP proves one CPU's sequential code.  The ghost state is therefore the state of "this
 * CPU", the one running the verified function (per-CPU state is exactly that: every CPU has its
 * own copy, and the proof holds for each copy).  Other CPUs appear only as interference, at
 * the points where it can happen: an acquire load of a lock word makes their descriptor
 * updates visible (its contract assigns the descriptor table and promises only that the
 * descriptor whose lock is acquired is well formed, which every CPU restores before it
 * releases the lock), a status word read returns any value, and interrupts delivered when
 * this CPU enables them may change any descriptor.
 *
 *   ghost.h        the ghost state (all of it, declared first) and this_cpu
 *   irqstate.h     the local interrupt state: irqs_on, irqs_off, saved/restored states
 *   lockstack.h    the locks this CPU holds: cpu_holds, lock_prefix_kept, interrupt_safe
 *   logs.h         the status-read and acquire logs: sread_unchanged, read_in_this_hold,
 *                  loaded_turn
 *   descriptors.h  line numbers, status words and who may write them, desc_wf
 *   instances.h    handler instances (INPROGRESS) and the lines CPUs serve
 *   lockrely.h     where a lock lies; a descriptor lock is released and acquired well formed
 *   lib.h          lib_ok (what every function relies on and restores), serving_instance
 *   init.h         ACSL_INIT, the initialisation invariant (a macro: see there)
 * The predicates of the API's call frame (held locks distinct, no descriptor lock held,
 * saw_idle_under_lock) follow the port's contracts: logic/api.h.
 *
 * The order is that of the single file this was, and must stay so: Frama-C prints the
 * declarations in source order, and each proof unit's key is that print (proofs/units.py):
 * a declaration moved from one place to another is a new key for every unit.  Each file
 * includes only files before it, so any of them may be included alone.
 */
#ifndef _IRQSYNC_ACSL_MODEL_H
#define _IRQSYNC_ACSL_MODEL_H

#include "ghost.h"
#include "irqstate.h"
#include "lockstack.h"
#include "logs.h"
#include "descriptors.h"
#include "instances.h"
#include "lockrely.h"
#include "lib.h"
#include "init.h"

#endif /* _IRQSYNC_ACSL_MODEL_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/init.h - the initialisation invariant ACSL_INIT (-rte-initialized; part of
 * logic/model.h).
 */
#ifndef _IRQSYNC_ACSL_LOGIC_INIT_H
#define _IRQSYNC_ACSL_LOGIC_INIT_H

#include "ghost.h"

/* Initialisation (-rte-initialized): every descriptor field the core reads (the atomics are
 * read only through the port) and every per-CPU serving word holds a value.  C's static
 * storage starts so and every store keeps it so; the contracts require it and ensure it.
 * Field by field, because a store to one field then visibly keeps the others (stated for the
 * whole struct, every store made the provers re-derive every field and they timed out).
 * A macro, not a predicate: Frama-C 25 WP drops a user predicate whose body uses
 * \initialized from the hypotheses of the goals that use it (spec/proof.md).  The one macro
 * of the contracts that builds a condition (issue 24 wrote out the others); build/evidence/
 * contracts.c (make prove-contracts) shows it expanded. */
#define ACSL_DESC_INIT(f) \initialized(&irq_desc[0 .. NR_IRQS - 1].f)
#define ACSL_ACTION_INIT(f) \initialized(&irq_desc[0 .. NR_IRQS - 1].action[0 .. IRQSYNC_MAX_SHARERS - 1].f)
#define ACSL_THREAD_INIT(f) \initialized(&irqsync_threads[0 .. IRQSYNC_THREAD_CHANNELS - 1].f)
#define ACSL_INIT (ACSL_DESC_INIT(depth) && ACSL_DESC_INIT(nr_actions) && \
	ACSL_DESC_INIT(handled) && ACSL_DESC_INIT(unhandled) && ACSL_DESC_INIT(spur_passes) && \
	ACSL_DESC_INIT(spur_unhandled) && ACSL_ACTION_INIT(handler) && ACSL_ACTION_INIT(dev_id) && \
	ACSL_ACTION_INIT(name) && ACSL_ACTION_INIT(flags) && ACSL_ACTION_INIT(thread) && \
	ACSL_DESC_INIT(oneshot_mask) && ACSL_THREAD_INIT(thread_fn) && ACSL_THREAD_INIT(dev_id) && \
	ACSL_THREAD_INIT(thread_bit) && ACSL_THREAD_INIT(claimed) && \
	\initialized(&irqsync_serving[0 .. IRQSYNC_NR_CONTEXTS - 1]))

#endif /* _IRQSYNC_ACSL_LOGIC_INIT_H */

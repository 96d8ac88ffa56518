/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the descriptor table and per-CPU state of the core.
 *
 * Coding rule of the core: a local that will hold a call's result is initialised
 * where it is declared ("unsigned int status = 0U;" then "status = f();").  The
 * compiler drops the dead store; Frama-C 25's initialisation checks
 * (-rte-initialized, spec/proof.md) do not count a call's result as initialising a
 * local that was not initialised before.
 */
#ifndef _IRQSYNC_CORE_INTERNAL_H
#define _IRQSYNC_CORE_INTERNAL_H

#include <irqsync/irqsync.h>
#include "../port/port.h"
#include "steps.h"

/* One installed handler.  Lives in its line's static pool (REQ-LIFECYCLE-6). */
struct irqaction {
	irq_handler_t handler;
	void *dev_id;
	const char *name;
	unsigned long flags;
};

/*
 * struct irq_desc - one interrupt line.
 *
 * Locking rules: everything below @lock is read and written only with
 * @lock held and local interrupts disabled (handle_irq takes the lock on
 * this CPU too), with one exception: @status is also read WITHOUT the lock
 * by the spin of synchronize_irq (S_SPIN_READ), which is why it is an
 * atomic word.  Writes of @status happen only under @lock
 * (REQ-DISPATCH-1).
 *
 * The chain is action[0 .. nr_actions-1], in registration order.  Dispatch
 * copies it under the lock at the start of each pass and runs the copy
 * without the lock, so a concurrent free_irq never races with the walk;
 * free_irq then waits for that pass to end (REQ-LIFECYCLE-5).
 */
struct irq_desc {
	spinlock_t lock;
	irqsync_atomic_t status;	/* IRQS_* */
	unsigned int depth;		/* nested disables; 0 = enabled */
	unsigned int nr_actions;
	struct irqaction action[IRQSYNC_MAX_SHARERS];
	unsigned long handled;		/* irq_stats() */
	unsigned long unhandled;
	unsigned int spur_passes;	/* passes in this spurious window */
	unsigned int spur_unhandled;	/* unhandled among them */
};

extern struct irq_desc irq_desc[NR_IRQS];

/*
 * irqsync_serving[cpu] - 1 + the line whose handler runs on cpu, 0 if none.
 * Written and read only by that CPU (with its interrupts disabled when
 * written), so it needs no lock.
 */
extern unsigned int irqsync_serving[IRQSYNC_NR_CPUS];

/* A pass's private copy of the chain (see struct irq_desc). */
struct irq_chain {
	unsigned int nr;
	irq_handler_t handler[IRQSYNC_MAX_SHARERS];
	void *dev_id[IRQSYNC_MAX_SHARERS];
};

/* sync.c: the wait of synchronize_irq, disable_irq and free_irq (test libraries link a
 * variant of twins/variants/ in its place). */
void irqsync_wait_for_handler(struct irq_desc *desc, unsigned int irq);

/* 1 when the calling CPU is running a handler of @irq. */
int irqsync_in_own_handler(unsigned int irq);

/* warn.c: zero the warning counters (irqsync_init only). */
void irqsync_warn_reset(void);

#endif /* _IRQSYNC_CORE_INTERNAL_H */

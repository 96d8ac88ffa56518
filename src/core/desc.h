/* SPDX-License-Identifier: MIT */
/*
 * desc.h - the descriptor helpers: the one way the core takes and drops a descriptor's lock,
 * changes bits of its status word, and waits on a word.  The lock helpers perform the step
 * they are given (spec/steps.md); a status change is part of the step its caller marks.
 * Their contracts are in acsl/desc.h.  A header of its own, after internal.h: under Frama-C
 * their loop annotations name the ghost state that acsl/logic/model.h declares after the
 * descriptor types.
 */
#ifndef _IRQSYNC_CORE_DESC_H
#define _IRQSYNC_CORE_DESC_H

#include "internal.h"

/* Take @desc's lock with local interrupts saved and disabled: step @step.  Return: the
 * interrupt state to restore at the unlock. */
static inline irq_flags_t irqsync_desc_lock(struct irq_desc *desc, enum irqsync_step step,
					    unsigned int irq) __acquires(&desc->lock)
{
	IRQSYNC_STEP_AT(step, irq);
	return irqsync_spin_lock_irqsave(&desc->lock);
}

/* Drop @desc's lock and restore the interrupt state @flags: step @step. */
static inline void irqsync_desc_unlock(struct irq_desc *desc, irq_flags_t flags,
				       enum irqsync_step step, unsigned int irq)
	__releases(&desc->lock)
{
	IRQSYNC_STEP_AT(step, irq);
	spin_unlock_irqrestore(&desc->lock, flags);
}

/*
 * Clear the bits @clear, then set the bits @set, of @desc's status word.  Only the holder of
 * the descriptor lock writes the status (REQ-DISPATCH-1), so the read and the write here
 * cannot be split by another writer.  Return: the status before.
 */
static inline unsigned int irqsync_status_update(struct irq_desc *desc, unsigned int clear,
						 unsigned int set) __must_hold(&desc->lock)
{
	unsigned int old = 0U;

	old = irqsync_atomic_read_relaxed(&desc->status);
	irqsync_atomic_set_relaxed(&desc->status, (old & ~clear) | set);
	return old;
}

/*
 * Spin until (*@word & @mask) == @want: the one wait loop of the core (the ticket lock's
 * wait for its turn, and synchronize_irq's unlocked spin on INPROGRESS).  Each read is step
 * @step.  @acquire chooses the read: acquire for the lock (what the previous holder wrote
 * becomes visible), relaxed for the spin (a locked re-check follows it, REQ-SYNC-1).
 * Return: the value read last.
 */
static inline unsigned int irqsync_await(const irqsync_atomic_t *word, unsigned int mask,
					 unsigned int want, int acquire,
					 enum irqsync_step step, unsigned int irq)
{
	/* Initialised for the proof's initialisation checks (internal.h); read after the reads. */
	/* cppcheck-suppress unreadVariable */
	unsigned int v = 0U;

	/*@ loop invariant ACSL_INIT;
	    loop invariant \at(instances_ok, Pre) ==> instances_ok;
	    loop invariant acquire != 0 ==> sread_unchanged{Pre, Here};
	    loop invariant g_holds == \at(g_holds, Pre);
	    loop assigns v, ACSL_DESCS, ACSL_SREAD; */
	for (;;) {
		IRQSYNC_STEP_AT(step, irq);
		if (acquire)
			v = irqsync_atomic_read_acquire(word);
		else
			v = irqsync_atomic_read_relaxed(word);
		if ((v & mask) == want)
			return v;
		irqsync_port_cpu_relax();
	}
}

#endif /* _IRQSYNC_CORE_DESC_H */

/* SPDX-License-Identifier: MIT */
/*
 * spin.h - the unlocked wait of synchronize_irq (S_SPIN_READ).  Included by
 * sync.c, and by the test variants of tests/variants/ that spin the same way,
 * so that the contract of acsl/sync.h covers the one copy in every build.
 */
#ifndef _IRQSYNC_CORE_SPIN_H
#define _IRQSYNC_CORE_SPIN_H

#include "internal.h"

/* Wait, without the lock, while INPROGRESS is set (S_SPIN_READ). */
static void irqsync_spin_while_inprogress(const struct irq_desc *desc, unsigned int irq)
{
	/*@ loop assigns ACSL_SREAD; */
	for (;;) {
		IRQSYNC_STEP(S_SPIN_READ, irq);
		if (!(irqsync_atomic_read_relaxed(&desc->status) & IRQS_INPROGRESS))
			return;
		irqsync_port_cpu_relax();
	}
}

#endif /* _IRQSYNC_CORE_SPIN_H */

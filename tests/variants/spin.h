/* SPDX-License-Identifier: MIT */
/*
 * tests/variants/spin.h - the unlocked spin of v0 and v1: a copy of the one in
 * src/core/sync.c (static there), with the same name, so that the contract of
 * acsl/contracts.h applies to it in the v0 proof (mk/prove.mk prove-neg-sync-v0).
 */
#ifndef _IRQSYNC_TESTS_VARIANT_SPIN_H
#define _IRQSYNC_TESTS_VARIANT_SPIN_H

#include "variant.h"

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

#endif /* _IRQSYNC_TESTS_VARIANT_SPIN_H */

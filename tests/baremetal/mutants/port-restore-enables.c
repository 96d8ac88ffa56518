/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD Armv7-M port, linked only into the bare-metal test's expected-failure build:
 * irq_restore enables interrupts whatever the saved state was -- the hazard of REQ-LOCK-3
 * and REQ-LOCK-4 (an inner irqsave/irqrestore pair reopening an outer masked region).
 * The bare-metal test must notice it (tests/suites/70-cross.sh expects
 * "not ok .* local_irq_masks_the_cpu"). Everything else is the real port.
 */
#define irqsync_port_irq_restore irqsync_port_irq_restore_real
#include "../../../src/port/baremetal-armv7m/port.c"
#undef irqsync_port_irq_restore

void irqsync_port_irq_restore(irq_flags_t flags);

void irqsync_port_irq_restore(irq_flags_t flags)
{
	(void)flags;
	irqsync_port_irq_enable();	/* BUG: ignores a saved "disabled" */
}

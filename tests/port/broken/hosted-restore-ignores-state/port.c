/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): irq_restore enables
 * interrupts whatever state irq_save saved -- an inner save/restore pair reopens the outer
 * masked region (REQ-LOCK-3; acsl/port.h restores_port). The port conformance suite must fail
 * "irq/save-restore-nesting-exact". Everything else is the real hosted port.
 */
#define irqsync_port_irq_restore irqsync_port_irq_restore_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irq_restore

void irqsync_port_irq_restore(irq_flags_t flags);

void irqsync_port_irq_restore(irq_flags_t flags)
{
	(void)flags;
	hosted_unmask();	/* BUG: a saved "disabled" is restored as "enabled" */
}

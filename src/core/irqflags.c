/* SPDX-License-Identifier: MIT */
/*
 * irqflags.c - local interrupt state: thin, typed wrappers of the port.
 *
 * The port keeps the state; these give it the distinct irq_flags_t type
 * (REQ-FLAGS-1) and mark the steps (REQ-IMPL-3).
 */
#include "internal.h"

irq_flags_t irqsync_local_irq_save(void)
{
	irq_flags_t flags;

	IRQSYNC_STEP(IRQ_SAVE, IRQSYNC_NO_IRQ);
	flags.arch = irqsync_port_irq_save();
	return flags;
}

void local_irq_restore(irq_flags_t flags)
{
	IRQSYNC_STEP(IRQ_RESTORE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_restore(flags.arch);
}

void local_irq_disable(void)
{
	IRQSYNC_STEP(IRQ_DISABLE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_disable();
}

void local_irq_enable(void)
{
	IRQSYNC_STEP(IRQ_ENABLE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_enable();
}

int irqs_disabled(void)
{
	return irqsync_port_irqs_disabled();
}

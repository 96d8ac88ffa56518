/* SPDX-License-Identifier: MIT */
/*
 * irqflags.c - local interrupt state: thin, typed wrappers of the port.
 *
 * The port keeps the state and its encoding in irq_flags_t (REQ-FLAGS-1/2):
 * the core never reads a field of it, it only hands the value back.  These
 * mark the steps (REQ-IMPL-3).
 */
#include "internal.h"

/* Contract: acsl/irqflags.h (irqsync_local_irq_save). */
irq_flags_t irqsync_local_irq_save(void)
{
	IRQSYNC_STEP(IRQ_SAVE, IRQSYNC_NO_IRQ);
	return irqsync_port_irq_save();
}

/* Contract: acsl/irqflags.h (local_irq_restore). */
void local_irq_restore(irq_flags_t flags)
{
	IRQSYNC_STEP(IRQ_RESTORE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_restore(flags);
}

/* Contract: acsl/irqflags.h (local_irq_disable). */
void local_irq_disable(void)
{
	IRQSYNC_STEP(IRQ_DISABLE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_disable();
}

/* Contract: acsl/irqflags.h (local_irq_enable). */
void local_irq_enable(void)
{
	IRQSYNC_STEP(IRQ_ENABLE, IRQSYNC_NO_IRQ);
	irqsync_port_irq_enable();
}

/* Contract: acsl/irqflags.h (irqs_disabled). */
int irqs_disabled(void)
{
	return irqsync_port_irqs_disabled();
}

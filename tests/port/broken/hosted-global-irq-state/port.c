/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the interrupt state the port
 * reports and restores is one variable for all CPUs, not one per CPU (port.h: "the
 * interrupt-state functions act on the calling CPU only"; the model's irq_en[] has a bit per
 * CPU). On one CPU it behaves; with two, each sees the other's state. The port conformance
 * suite must fail "irq/state-is-per-cpu".
 */
#define irqsync_port_irq_save irqsync_port_irq_save_shipped
#define irqsync_port_irq_restore irqsync_port_irq_restore_shipped
#define irqsync_port_irq_disable irqsync_port_irq_disable_shipped
#define irqsync_port_irq_enable irqsync_port_irq_enable_shipped
#define irqsync_port_irqs_disabled irqsync_port_irqs_disabled_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irq_save
#undef irqsync_port_irq_restore
#undef irqsync_port_irq_disable
#undef irqsync_port_irq_enable
#undef irqsync_port_irqs_disabled

irq_flags_t irqsync_port_irq_save(void);
void irqsync_port_irq_restore(irq_flags_t flags);
void irqsync_port_irq_disable(void);
void irqsync_port_irq_enable(void);
int irqsync_port_irqs_disabled(void);

static volatile sig_atomic_t broken_state_off;	/* BUG: one for every CPU */

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = (unsigned long)broken_state_off };

	broken_state_off = 1;
	irqsync_port_irq_disable_shipped();
	return old;
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	broken_state_off = flags.arch ? 1 : 0;
	if (flags.arch)
		irqsync_port_irq_disable_shipped();
	else
		irqsync_port_irq_enable_shipped();
}

void irqsync_port_irq_disable(void)
{
	broken_state_off = 1;
	irqsync_port_irq_disable_shipped();
}

void irqsync_port_irq_enable(void)
{
	broken_state_off = 0;
	irqsync_port_irq_enable_shipped();
}

int irqsync_port_irqs_disabled(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	return broken_state_off ? 1 : 0;
}

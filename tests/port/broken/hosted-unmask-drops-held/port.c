/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the unmask clears the mask
 * and throws away the interrupts that arrived while it was set, instead of delivering them
 * (REQ-LOCK-6; port.h: "it must deliver every interrupt held meanwhile"). The port
 * conformance suite must fail "irq/masked-interrupt-held-then-delivered-at-unmask".
 */
#define irqsync_port_irq_restore irqsync_port_irq_restore_shipped
#define irqsync_port_irq_enable irqsync_port_irq_enable_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irq_restore
#undef irqsync_port_irq_enable

void irqsync_port_irq_restore(irq_flags_t flags);
void irqsync_port_irq_enable(void);

static void broken_unmask(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
	/* BUG: the held lines are cleared, not delivered */
	atomic_store_explicit(hosted_pending_word, 0ULL, memory_order_relaxed);
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	if (flags.arch) {
		hosted_masked = 1;
		atomic_signal_fence(memory_order_seq_cst);
	} else {
		broken_unmask();
	}
}

void irqsync_port_irq_enable(void)
{
	broken_unmask();
}

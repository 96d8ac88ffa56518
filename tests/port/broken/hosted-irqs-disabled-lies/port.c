/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): irqs_disabled() always says
 * "enabled" (acsl/port.h REQ_LOCK_6: \result == 1 - g_irqs_enabled); the core's debug check of
 * spin_lock_irq (REQ-ERR-6) would never fire. The port conformance suite must fail
 * "irq/irqs-disabled-tells-the-truth".
 */
#define irqsync_port_irqs_disabled irqsync_port_irqs_disabled_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irqs_disabled

int irqsync_port_irqs_disabled(void);

int irqsync_port_irqs_disabled(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	return 0;	/* BUG: whatever the mask says */
}

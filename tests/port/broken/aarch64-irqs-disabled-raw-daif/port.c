/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD AArch64 bare-metal port (tests/port/broken/, docs/porting.md): irqs_disabled()
 * returns the DAIF.I bit where it stands (0x80), not 1. Right for `if (irqs_disabled())`,
 * wrong for the contract the proofs assume (acsl/port.h REQ_LOCK_6: \result == 1 -
 * g_irqs_enabled) and for any caller that compares or adds. The port conformance suite must
 * fail "irq/irqs-disabled-tells-the-truth" ("neither 0 nor 1").
 */
#define irqsync_port_irqs_disabled irqsync_port_irqs_disabled_shipped
#include "../../../../src/port/baremetal-aarch64/port.c"
#undef irqsync_port_irqs_disabled

int irqsync_port_irqs_disabled(void);

int irqsync_port_irqs_disabled(void)
{
	return (int)(aarch64_daif() & DAIF_I);	/* BUG: 0 or 0x80 */
}

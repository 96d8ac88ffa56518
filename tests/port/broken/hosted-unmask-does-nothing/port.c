/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the line unmask clears the
 * line's mask bit but never delivers the interrupt the mask held (port.h: "one raised
 * meanwhile is held and delivered after the unmask"). Later raises of the line come again, so
 * the line looks alive; the one interrupt that came while it was masked -- on a ONESHOT line,
 * the device's next request while its thread ran -- is lost. The port conformance suite must
 * fail "line/mask-holds-then-unmask-delivers-once" (0 deliveries where 1 is due).
 */
#define irqsync_port_line_unmask irqsync_port_line_unmask_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_line_unmask

void irqsync_port_line_unmask(unsigned int irq);

void irqsync_port_line_unmask(unsigned int irq)
{
	hosted_cb();
	if (irq < NR_IRQS)
		atomic_fetch_and(&hosted_line_masked, ~(1ULL << irq));	/* BUG: the held one stays */
	hosted_cb();
}

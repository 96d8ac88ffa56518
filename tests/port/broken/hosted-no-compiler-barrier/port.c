/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): irq_disable sets the soft
 * mask with a volatile store only. A volatile access orders nothing but other volatile
 * accesses: the compiler may move the caller's plain accesses across it, into or out of the
 * masked region (port.h: "each function is also a compiler barrier"). The mask itself still
 * works, so only the compiler-barrier check can see it: the port conformance suite must fail
 * "compiler-barrier/static/irqsync_port_irq_disable".
 */
#define irqsync_port_irq_disable irqsync_port_irq_disable_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irq_disable

void irqsync_port_irq_disable(void);

void irqsync_port_irq_disable(void)
{
	hosted_masked = 1;	/* BUG: no atomic_signal_fence after it */
}

/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the classic lost interrupt.
 * The unmask looks for pending interrupts BEFORE it clears the mask. An interrupt raised
 * between the look and the clear finds the mask still set, so its signal leaves it to the
 * unmask -- which has already looked. It stays pending with interrupts enabled until some
 * later unmask (REQ-LOCK-6; port.h: "deliver every interrupt held meanwhile"). Every case
 * that raises before or after the unmask passes; the port conformance suite must fail
 * "irq/unmask-window-delivers-exactly-once" (0 deliveries where 1 is due).
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
	/* BUG: the look comes first; the window is between it and the clear */
	int pending = atomic_load_explicit(hosted_pending_word, memory_order_relaxed) != 0ULL;

	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (pending)
		hosted_unmask_deliver();
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

/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the doubled delivery. The
 * unmask clears the mask, reads the pending lines, replays the ones it read and only then
 * clears them. A signal that comes between the read and the replay's own masking finds the
 * mask clear and delivers the same lines from the pending word, and the unmask delivers them
 * again from its copy: one interrupt, two handler calls (REQ-LOCK-6; REQ-DISPATCH-8: one
 * arrival is one dispatch). Every case that counts "at least once" passes; the port
 * conformance suite must fail "irq/unmask-window-delivers-exactly-once" (2 where 1 is due).
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
	unsigned long long bits, b;

	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
	bits = atomic_load_explicit(hosted_pending_word, memory_order_acquire);
	if (bits == 0ULL)
		return;
	/* BUG: the lines are claimed (cleared) after the replay, not exchanged before it */
	hosted_masked = 1;
	atomic_signal_fence(memory_order_seq_cst);
	for (b = bits; b; b &= b - 1ULL)
		(void)handle_irq((unsigned int)__builtin_ctzll(b));
	atomic_fetch_and_explicit(hosted_pending_word, ~bits, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
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

/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the restore first clears the
 * mask and then sets it to the saved state, so a nested restore of a saved "disabled" leaves
 * the CPU open for a moment inside a region its caller holds masked. The state after the call
 * is right (every before/after case passes); an interrupt that comes in that moment runs its
 * handler inside the caller's critical section (REQ-LOCK-3, REQ-LOCK-6). The port conformance
 * suite must fail "irq/nested-restore-window-holds".
 */
#define irqsync_port_irq_restore irqsync_port_irq_restore_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_irq_restore

void irqsync_port_irq_restore(irq_flags_t flags);

void irqsync_port_irq_restore(irq_flags_t flags)
{
	/* BUG: drops the mask, then sets the saved state */
	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = flags.arch ? 1 : 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (!flags.arch &&
	    atomic_load_explicit(hosted_pending_word, memory_order_relaxed) != 0ULL)
		hosted_unmask_deliver();
}

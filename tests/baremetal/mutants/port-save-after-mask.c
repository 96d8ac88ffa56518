/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD AArch64 bare-metal port, linked only into the bare-metal test's
 * expected-failure build: irq_save reads DAIF *after* masking, so it always
 * reports "disabled" and the matching restore never unmasks -- restore does
 * not restore exactly what was saved (REQ-LOCK-3); a CPU that took any lock
 * with irqsave stays masked. The test must notice it (tests/suites/70-cross.sh
 * expects "not ok .* local_irq_masks_the_cpu"). Everything else is the real
 * port.
 *
 * (The Armv7-M twin, port-restore-enables.c, unmasks in every restore. On
 * AArch64 that bug also lets IRQs nest inside the IRQ vector; on a loaded
 * host the nesting can run the stack over before the test reports, so this
 * port's expected failure is the other half of the same requirement.)
 */
#define irqsync_port_irq_save irqsync_port_irq_save_real
#include "../../../src/port/baremetal-aarch64/port.c"
#undef irqsync_port_irq_save

irq_flags_t irqsync_port_irq_save(void);

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old;

	__asm__ __volatile__("msr daifset, #2" : : : "memory");
	old.arch = (aarch64_daif() & DAIF_I) ? 1UL : 0UL;	/* BUG: the state after masking */
	return old;
}

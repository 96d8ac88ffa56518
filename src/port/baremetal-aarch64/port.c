/* SPDX-License-Identifier: MIT */
/*
 * port.c - the bare-metal AArch64 port (Armv8-A at EL1, no OS; one CPU, or
 * up to 8 in one cluster).
 *
 * Local interrupt state is the CPU's own mask: PSTATE.I, read through the
 * DAIF register and changed with `msr daifset, #2` / `msr daifclr, #2`.
 * While I is set the interrupt controller keeps a raised interrupt
 * pending and the CPU takes it as soon as I is cleared, so an interrupt
 * that arrived while masked is delivered by the unmask with no software
 * bookkeeping (REQ-LOCK-6).  Only I is touched: D, A and F (debug,
 * SError, FIQ) belong to the platform; the board routes its device
 * interrupts as IRQs.  Writes to PSTATE.{D,A,I,F} are self-synchronising;
 * the isb after an unmask is there so that a pending interrupt is taken
 * before the next instruction, which the tests rely on to observe it.
 *
 * The board's IRQ vector calls handle_irq(line); exception entry sets I,
 * and handle_irq saves and restores the state itself.
 *
 * The lock is the core's ticket lock on the C11 atomics of
 * <irqsync/atomic.h>: ldaxr/stxr (or LSE ldadda) for the ticket, ldar for
 * the wait, stlr for the unlock, dmb ish for smp_mb (spec/targets.md;
 * tests/cross/ checks them in the binary).  Build with
 * -mno-outline-atomics: the out-of-line helpers test CPU features through
 * the OS (getauxval), which bare metal does not have.
 *
 * Every function carries a "memory" clobber: the core relies on no access
 * moving across a change of interrupt state (port.h).
 */
#include <irqsync/irqsync.h>
#include "../port.h"

#if !defined(__aarch64__)
#error "src/port/baremetal-aarch64 is for AArch64"
#endif
#if IRQSYNC_NR_CPUS < 1 || IRQSYNC_NR_CPUS > 8
#error "the bare-metal AArch64 port numbers CPUs by MPIDR_EL1.Aff0 within one cluster: 1..8 CPUs"
#endif

#define DAIF_I (1UL << 7)	/* PSTATE.I as DAIF shows it */

static inline unsigned long aarch64_daif(void)
{
	unsigned long daif;

	__asm__ __volatile__("mrs %0, daif" : "=r"(daif) : : "memory");
	return daif;
}

/*
 * The CPU id is MPIDR_EL1.Aff0: the core number within the cluster, which
 * the boot code of every CPU leaves untouched.  Stable per CPU, so also
 * within any calling context (port.h).  The platform must bring up only
 * cores with Aff0 < IRQSYNC_NR_CPUS.
 */
unsigned int irqsync_port_cpu_id(void)
{
#if IRQSYNC_NR_CPUS == 1
	__asm__ __volatile__("" : : : "memory");	/* a compiler barrier, as port.h asks */
	return 0U;
#else
	unsigned long mpidr;

	__asm__ __volatile__("mrs %0, mpidr_el1" : "=r"(mpidr) : : "memory");
	return (unsigned int)(mpidr & 0xffUL);
#endif
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = (aarch64_daif() & DAIF_I) ? 1UL : 0UL };

	__asm__ __volatile__("msr daifset, #2" : : : "memory");
	return old;
}

/* Restores exactly the saved state (REQ-LOCK-3): 1 stays masked, 0 unmasks. */
void irqsync_port_irq_restore(irq_flags_t flags)
{
	if (flags.arch)
		__asm__ __volatile__("msr daifset, #2" : : : "memory");
	else
		__asm__ __volatile__("msr daifclr, #2\n\tisb" : : : "memory");
}

void irqsync_port_irq_disable(void)
{
	__asm__ __volatile__("msr daifset, #2" : : : "memory");
}

void irqsync_port_irq_enable(void)
{
	__asm__ __volatile__("msr daifclr, #2\n\tisb" : : : "memory");
}

int irqsync_port_irqs_disabled(void)
{
	return (aarch64_daif() & DAIF_I) ? 1 : 0;
}

void irqsync_port_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

/* Handler threads, waits, line masks: port_threads.h (a part of this file). */
#include "port_threads.h"

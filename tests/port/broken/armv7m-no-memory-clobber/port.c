/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD Armv7-M port (tests/port/broken/, docs/porting.md): the shipped port's
 * instructions, but every asm statement without its "memory" clobber. PRIMASK still masks
 * exactly as it should; what is lost is the compiler barrier (port.h: "each function is also
 * a compiler barrier"): once the compiler sees these bodies (-flto, or the suite's single
 * translation unit) it may sink a store past `cpsie i` or reuse a value loaded before it,
 * although the interrupt taken right there changed it. The port conformance suite must fail
 * "compiler-barrier/static/..." and, on the board, "compiler-barrier/unmask-orders-plain-accesses".
 */
#include <irqsync/irqsync.h>
#include "../../../../src/port/port.h"

#if IRQSYNC_NR_CPUS != 1
#error "the Armv7-M port has one CPU"
#endif

static inline unsigned long broken_primask(void)
{
	unsigned long primask;

	__asm__ __volatile__("mrs %0, primask" : "=r"(primask));	/* BUG: no "memory" */
	return primask & 1UL;
}

unsigned int irqsync_port_cpu_id(void)
{
	return 0U;				/* BUG: no compiler barrier at all */
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = broken_primask() };

	__asm__ __volatile__("cpsid i" : : :);	/* BUG: no "memory" */
	return old;
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	__asm__ __volatile__("msr primask, %0\n\tisb" : : "r"(flags.arch & 1UL));	/* BUG */
}

void irqsync_port_irq_disable(void)
{
	__asm__ __volatile__("cpsid i" : : :);	/* BUG */
}

void irqsync_port_irq_enable(void)
{
	__asm__ __volatile__("cpsie i\n\tisb" : : :);	/* BUG */
}

int irqsync_port_irqs_disabled(void)
{
	return broken_primask() ? 1 : 0;
}

void irqsync_port_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : :);	/* BUG */
}

/* The shipped port's threads, waits and line masks (not what this variant breaks). */
#include "../../../../src/port/baremetal-armv7m/port_threads.h"

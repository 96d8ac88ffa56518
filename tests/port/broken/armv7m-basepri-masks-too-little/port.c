/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD Armv7-M port (tests/port/broken/, docs/porting.md): "disabled" is BASEPRI =
 * 0x80 instead of PRIMASK = 1. BASEPRI masks only the exceptions of priority 0x80 and lower
 * urgency; the board's timers keep the reset priority 0 and still come in. The port says
 * "disabled" (irqs_disabled() reads BASEPRI) while handle_irq() runs (port.h: "while its state
 * is disabled the port must not call handle_irq() on it"). The port conformance suite must
 * fail "irq/masked-interrupt-held-then-delivered-at-unmask".
 */
#include <irqsync/irqsync.h>
#include "../../../../src/port/port.h"

#if IRQSYNC_NR_CPUS != 1
#error "the Armv7-M port has one CPU"
#endif

#define BROKEN_MASK_LEVEL 0x80UL	/* BUG: lets priorities 0x00..0x7f through */

static inline unsigned long broken_basepri(void)
{
	unsigned long v;

	__asm__ __volatile__("mrs %0, basepri" : "=r"(v) : : "memory");
	return v;
}

static inline void broken_set_basepri(unsigned long v)
{
	__asm__ __volatile__("msr basepri, %0\n\tisb" : : "r"(v) : "memory");
}

unsigned int irqsync_port_cpu_id(void)
{
	__asm__ __volatile__("" : : : "memory");
	return 0U;
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = broken_basepri() };

	broken_set_basepri(BROKEN_MASK_LEVEL);
	return old;
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	broken_set_basepri(flags.arch);
}

void irqsync_port_irq_disable(void)
{
	broken_set_basepri(BROKEN_MASK_LEVEL);
}

void irqsync_port_irq_enable(void)
{
	broken_set_basepri(0UL);
}

int irqsync_port_irqs_disabled(void)
{
	return broken_basepri() != 0UL ? 1 : 0;
}

void irqsync_port_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

/* The shipped port's threads, waits and line masks (not what this variant breaks). */
#include "../../../../src/port/baremetal-armv7m/port_threads.h"

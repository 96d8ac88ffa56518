/* SPDX-License-Identifier: MIT */
/*
 * port.c - the bare-metal Armv7-M port (Cortex-M3/M4/M7, one CPU, no OS).
 *
 * Local interrupt state is the CPU's own mask: PRIMASK.  Bit 0 set means
 * every configurable-priority exception (all device interrupts, SysTick,
 * PendSV) is held pending by the NVIC; clearing it lets the NVIC take them,
 * so an interrupt that arrived while masked is delivered by the unmask
 * without any software bookkeeping (REQ-LOCK-6).  `cpsid i` / `cpsie i`
 * change only this CPU's PRIMASK and are self-synchronising for interrupt
 * masking on Armv7-M (ARMv7-M ARM, B5.2.1: an interrupt is not taken after
 * `cpsid i` completes; after `cpsie i` a pending one is taken before the
 * next few instructions - the isb makes that "before the next one").
 *
 * The device interrupt handlers (the vector table is the board's) call
 * handle_irq(line); handle_irq masks with irq_save itself, so a vector may
 * be entered with PRIMASK clear.
 *
 * The lock is the core's ticket lock on the C11 atomics of
 * <irqsync/atomic.h>, which GCC maps to ldrex/strex and dmb on Armv7-M;
 * with one CPU the dmb's are cheap and still order the accesses against
 * the DMA-capable bus masters the model does not cover.  spec/targets.md
 * lists the instructions; tests/cross/ checks they are in the binary.
 *
 * Every function carries a "memory" clobber: the core relies on no access
 * moving across a change of interrupt state (port.h).
 */
#include <irqsync/irqsync.h>
#include "../port.h"

#if !defined(__ARM_ARCH_7M__) && !defined(__ARM_ARCH_7EM__)
#error "src/port/baremetal-armv7m is for Armv7-M (-mcpu=cortex-m3, -m4 or -m7)"
#endif
#if IRQSYNC_NR_CPUS != 1
#error "the Armv7-M port has one CPU: build it with -DIRQSYNC_NR_CPUS=1"
#endif

static inline unsigned long armv7m_primask(void)
{
	unsigned long primask;

	__asm__ __volatile__("mrs %0, primask" : "=r"(primask) : : "memory");
	return primask & 1UL;
}

unsigned int irqsync_port_cpu_id(void)
{
	__asm__ __volatile__("" : : : "memory");	/* a compiler barrier, as port.h asks */
	return 0U;
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = armv7m_primask() };

	__asm__ __volatile__("cpsid i" : : : "memory");
	return old;
}

/* Restores exactly the saved PRIMASK (REQ-LOCK-3): 1 stays masked, 0 unmasks. */
void irqsync_port_irq_restore(irq_flags_t flags)
{
	__asm__ __volatile__("msr primask, %0\n\tisb" : : "r"(flags.arch & 1UL) : "memory");
}

void irqsync_port_irq_disable(void)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
}

void irqsync_port_irq_enable(void)
{
	__asm__ __volatile__("cpsie i\n\tisb" : : : "memory");
}

int irqsync_port_irqs_disabled(void)
{
	return armv7m_primask() ? 1 : 0;
}

/* A spin-wait hint; a NOP on the single-issue Cortex-M3. */
void irqsync_port_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

/* Handler threads, waits, line masks: port_threads.h (a part of this file). */
#include "port_threads.h"

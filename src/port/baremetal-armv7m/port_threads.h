/* SPDX-License-Identifier: MIT */
/*
 * port_threads.h - the Armv7-M port's handler threads, waits and line masks (port.h,
 * "Threaded handlers"; docs/porting.md, "Threads").  Part of port.c, which #includes it once
 * at its end; a header so that a variant of the port (tests/port/broken/) can reuse it with
 * its own interrupt-state functions.
 *
 * Threads run to completion (irqsync_baremetal.h): a kick marks a run owed, and the worker --
 * irqsync_port_wait() while its ready() is false, irqsync_port_thread_stop(), the idle loop's
 * irqsync_baremetal_run_threads() -- makes the owed runs, in thread mode (IPSR = 0) with
 * PRIMASK clear only.  One CPU: the claim still keeps a run from starting again inside itself
 * (a run that waits runs the other channels only).
 *
 * Line masks are the NVIC's enable bits (ICER/ISER, architectural: the System Control Space
 * at 0xE000E100).  An interrupt raised while its input is disabled stays pending in the NVIC
 * and is taken once after ISER re-enables it (ARMv7-M ARM B3.4).  "In flight" is the NVIC's
 * active bit (IABR): set from exception entry until the return of the handler, which is where
 * the board's vector calls handle_irq() -- exact on one CPU.
 */
#ifndef IRQSYNC_BAREMETAL_ARMV7M_THREADS
#define IRQSYNC_BAREMETAL_ARMV7M_THREADS

#include <stdint.h>

#define BM_NR_HWIRQ	496U		/* the NVIC's external interrupts, at most */
#define BM_NVIC_ISER(n)	(((volatile uint32_t *)0xE000E100u)[(n)])
#define BM_NVIC_ICER(n)	(((volatile uint32_t *)0xE000E180u)[(n)])
#define BM_NVIC_IABR(n)	(((volatile uint32_t *)0xE000E300u)[(n)])

/* Thread mode (no exception active) with PRIMASK clear. */
static inline int bm_task_context(void)
{
	unsigned long ipsr, primask;

	__asm__ __volatile__("mrs %0, ipsr\n\tmrs %1, primask"
			     : "=r"(ipsr), "=r"(primask) : : "memory");
	return (ipsr & 0x1ffUL) == 0UL && (primask & 1UL) == 0UL;
}

static inline void bm_sev(void)
{
}

/* Disabled in the NVIC: dsb so the write has reached it, isb so no interrupt of it is taken
 * after the next instruction (Arm's guidance for disabling an interrupt, AN321 4.6). */
static inline void bm_ctl_mask(unsigned int hw)
{
	BM_NVIC_ICER(hw >> 5) = 1UL << (hw & 31U);
	__asm__ __volatile__("dsb\n\tisb" : : : "memory");
}

static inline void bm_ctl_unmask(unsigned int hw)
{
	BM_NVIC_ISER(hw >> 5) = 1UL << (hw & 31U);
	__asm__ __volatile__("dsb\n\tisb" : : : "memory");	/* a held one is taken here */
}

static inline int bm_ctl_active(unsigned int hw)
{
	return (int)((BM_NVIC_IABR(hw >> 5) >> (hw & 31U)) & 1UL);
}

/* The rest, the same for every bare-metal port. */
#include "../shared/baremetal_threads.h"

#endif /* IRQSYNC_BAREMETAL_ARMV7M_THREADS */

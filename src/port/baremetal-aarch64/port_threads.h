/* SPDX-License-Identifier: MIT */
/*
 * port_threads.h - the AArch64 port's handler threads, waits and line masks (port.h,
 * "Threaded handlers"; docs/porting.md, "Threads").  Part of port.c, which #includes it once
 * at its end; a header so that a variant of the port (tests/port/broken/) can reuse it with
 * its own interrupt-state functions.
 *
 * Threads run to completion (irqsync_baremetal.h): a kick marks a run owed, and the worker --
 * irqsync_port_wait() while its ready() is false, irqsync_port_thread_stop(), the idle loop's
 * irqsync_baremetal_run_threads() -- makes the owed runs with PSTATE.I clear only (at EL1,
 * exception entry sets I, so never in a handler).  Each CPU may be such a worker: a channel
 * is claimed with a compare-and-swap (an acquire; the release at the end of the run), so two
 * CPUs never run one channel at once.  The kick and the wake end with `sev` for an idle loop
 * that sleeps in `wfe`.
 *
 * Line masks are the GICv2 distributor's enable bits (GICD_ICENABLERn / GICD_ISENABLERn) at
 * IRQSYNC_BAREMETAL_GICD (default: qemu virt's 0x08000000; a board with another map defines
 * it).  A disabled interrupt that is raised stays pending in the distributor and is forwarded
 * once after it is enabled again.  "In flight" is its active bit (GICD_ISACTIVERn): set when a
 * CPU acknowledges it (GICC_IAR), cleared by its end of interrupt (GICC_EOIR), which the
 * board's vector writes after handle_irq() returns.  For an SPI that is the whole system's
 * view.  SGIs and PPIs (INTID < 32) are per CPU: their enable and active bits are banked, so
 * a mask, an unmask and the in-flight report act on the calling CPU's own interrupt only.
 */
#ifndef IRQSYNC_BAREMETAL_AARCH64_THREADS
#define IRQSYNC_BAREMETAL_AARCH64_THREADS

#include <stdint.h>

#ifndef IRQSYNC_BAREMETAL_GICD
#define IRQSYNC_BAREMETAL_GICD	0x08000000UL	/* qemu -M virt, GICv2 */
#endif
#define BM_NR_HWIRQ		1020U
#define BM_GICD(off)		(*(volatile uint32_t *)(uintptr_t)(IRQSYNC_BAREMETAL_GICD + (off)))
#define BM_GICD_ISENABLER(n)	BM_GICD(0x100UL + 4UL * (n))
#define BM_GICD_ICENABLER(n)	BM_GICD(0x180UL + 4UL * (n))
#define BM_GICD_ISACTIVER(n)	BM_GICD(0x300UL + 4UL * (n))

/* PSTATE.I clear (exception entry sets it: never inside a handler). */
static inline int bm_task_context(void)
{
	unsigned long daif;

	__asm__ __volatile__("mrs %0, daif" : "=r"(daif) : : "memory");
	return (daif & (1UL << 7)) == 0UL;
}

static inline void bm_sev(void)
{
	__asm__ __volatile__("sev" : : : "memory");
}

/* dsb: the write has reached the distributor before the caller goes on; isb: and the CPU
 * takes no interrupt the distributor had not yet withdrawn after the next instruction. */
static inline void bm_ctl_mask(unsigned int hw)
{
	BM_GICD_ICENABLER(hw >> 5) = 1U << (hw & 31U);
	__asm__ __volatile__("dsb sy\n\tisb" : : : "memory");
}

static inline void bm_ctl_unmask(unsigned int hw)
{
	BM_GICD_ISENABLER(hw >> 5) = 1U << (hw & 31U);
	__asm__ __volatile__("dsb sy\n\tisb" : : : "memory");
}

static inline int bm_ctl_active(unsigned int hw)
{
	return (int)((BM_GICD_ISACTIVER(hw >> 5) >> (hw & 31U)) & 1U);
}

/* The rest, the same for every bare-metal port. */
#include "../shared/baremetal_threads.h"

#endif /* IRQSYNC_BAREMETAL_AARCH64_THREADS */

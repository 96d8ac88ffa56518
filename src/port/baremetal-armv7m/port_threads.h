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

#include <stdatomic.h>
#include <stdint.h>
#include "irqsync_baremetal.h"

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

/* ---- handler threads: run to completion ------------------------------------------------ */

struct bm_chan {
	_Atomic unsigned int owed;	/* a run is owed (kicks fold into one) */
	_Atomic unsigned int busy;	/* claimed: a run (or the stop) is on some CPU's stack */
	_Atomic unsigned int started;
	void (*fn)(unsigned int chan);	/* read only under the claim, after started */
};
static struct bm_chan bm_chans[IRQSYNC_PORT_CHANNELS];

#define bm_cb() __asm__ __volatile__("" : : : "memory")	/* a compiler barrier */

/* Claim channel @chan and make its owed run, if it has one and is started. */
static unsigned int bm_try_run(unsigned int chan)
{
	struct bm_chan *c = &bm_chans[chan];
	unsigned int idle = 0U, ran = 0U;

	if (!atomic_load_explicit(&c->owed, memory_order_relaxed) ||
	    !atomic_load_explicit(&c->started, memory_order_relaxed))
		return 0U;
	if (!atomic_compare_exchange_strong_explicit(&c->busy, &idle, 1U, memory_order_acquire,
						     memory_order_relaxed))
		return 0U;			/* running elsewhere: its runner looks again after */
	if (atomic_load_explicit(&c->started, memory_order_acquire) &&
	    atomic_exchange(&c->owed, 0U)) {	/* pairs with the kick's fence: its writes */
		c->fn(chan);
		ran = 1U;
	}
	atomic_store_explicit(&c->busy, 0U, memory_order_release);
	return ran;
}

unsigned int irqsync_baremetal_run_threads(void)
{
	unsigned int chan, n = 0U;

	bm_cb();
	if (bm_task_context())
		for (chan = 0U; chan < IRQSYNC_PORT_CHANNELS; chan++)
			n += bm_try_run(chan);
	bm_cb();
	return n;
}

int irqsync_port_thread_start(unsigned int chan, void (*fn)(unsigned int chan))
{
	struct bm_chan *c;
	int r = 0;

	bm_cb();
	if (chan >= IRQSYNC_PORT_CHANNELS || !fn) {
		r = -IRQSYNC_EINVAL;
	} else {
		c = &bm_chans[chan];
		if (atomic_load(&c->started)) {
			r = -IRQSYNC_EBUSY;	/* started twice: a caller's bug */
		} else {
			c->fn = fn;		/* no runner reads it before started is seen */
			atomic_store_explicit(&c->started, 1U, memory_order_release);
		}
	}
	bm_cb();
	return r;	/* never -IRQSYNC_ENOMEM: the channels are static */
}

void irqsync_port_thread_kick(unsigned int chan)
{
	atomic_thread_fence(memory_order_seq_cst);	/* port.h: a full barrier before */
	if (chan < IRQSYNC_PORT_CHANNELS)
		atomic_store(&bm_chans[chan].owed, 1U);
	bm_sev();
	bm_cb();
}

/* Claim the channel (helping with other owed runs while another CPU, or a run further down
 * this CPU's stack, holds it), make the owed run here, then mark it stopped.  A stop called
 * from a run that the stopped channel's own run is waiting in (further down the same stack)
 * would wait for good: port.h's "never from that channel's fn" covers the direct case only. */
void irqsync_port_thread_stop(unsigned int chan)
{
	struct bm_chan *c;
	unsigned int idle;

	bm_cb();
	if (chan < IRQSYNC_PORT_CHANNELS) {
		c = &bm_chans[chan];
		for (;;) {
			idle = 0U;
			if (atomic_compare_exchange_strong(&c->busy, &idle, 1U))
				break;
			if (irqsync_baremetal_run_threads() == 0U)
				irqsync_port_cpu_relax();
		}
		if (atomic_load(&c->started) && atomic_exchange(&c->owed, 0U))
			c->fn(chan);		/* the owed run ends before the stop returns */
		atomic_store(&c->started, 0U);
		atomic_store_explicit(&c->busy, 0U, memory_order_release);
	}
	bm_cb();
}

/* Spin: test ready() after a full fence, and run owed runs in between.  Nothing sleeps, so no
 * wake-up can be lost; the fence orders the waiter's earlier writes before its test (the
 * prepare-to-wait barrier of spec/threaded.md). */
void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan))
{
	bm_cb();
	for (;;) {
		atomic_thread_fence(memory_order_seq_cst);
		if (ready(chan))
			break;
		if (irqsync_baremetal_run_threads() == 0U)
			irqsync_port_cpu_relax();
	}
	bm_cb();
}

void irqsync_port_wake(unsigned int chan)
{
	(void)chan;
	atomic_thread_fence(memory_order_seq_cst);	/* port.h: a full barrier before */
	bm_sev();
	bm_cb();
}

/* ---- line masks at the interrupt controller ---------------------------------------------- */

static _Atomic unsigned int bm_line_hw[NR_IRQS];	/* controller input + 1; 0: the line's own */

int irqsync_baremetal_line_hwirq(unsigned int irq, unsigned int hwirq)
{
	if (irq >= NR_IRQS || hwirq >= BM_NR_HWIRQ)
		return -IRQSYNC_EINVAL;
	atomic_store(&bm_line_hw[irq], hwirq + 1U);
	return 0;
}

static unsigned int bm_hwirq(unsigned int irq)
{
	unsigned int v = atomic_load_explicit(&bm_line_hw[irq], memory_order_relaxed);

	return v ? v - 1U : irq;
}

void irqsync_port_line_mask(unsigned int irq)
{
	bm_cb();
	if (irq < NR_IRQS && bm_hwirq(irq) < BM_NR_HWIRQ)
		bm_ctl_mask(bm_hwirq(irq));
	bm_cb();
}

void irqsync_port_line_unmask(unsigned int irq)
{
	bm_cb();
	if (irq < NR_IRQS && bm_hwirq(irq) < BM_NR_HWIRQ)
		bm_ctl_unmask(bm_hwirq(irq));
	bm_cb();
}

int irqsync_port_line_inflight(unsigned int irq)
{
	int r = 0;

	bm_cb();
	if (irq < NR_IRQS && bm_hwirq(irq) < BM_NR_HWIRQ)
		r = bm_ctl_active(bm_hwirq(irq));
	bm_cb();
	return r;
}

#endif /* IRQSYNC_BAREMETAL_ARMV7M_THREADS */

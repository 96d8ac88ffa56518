/* SPDX-License-Identifier: MIT */
/*
 * baremetal_threads.h - handler threads, waits and line masks of the bare-metal ports, without
 * an OS (port.h, "Threaded handlers"; docs/porting.md, "Threads"; irqsync_baremetal.h).  One
 * source for both: each port's port_threads.h defines the few things that differ and then
 * includes this file, once, as a part of its port.c:
 *   bm_task_context()   1 in task context (interrupts enabled, no exception active): owed runs
 *                       are made only there
 *   bm_sev()            wake CPUs that wait for an event (AArch64 `sev`; nothing on one CPU)
 *   bm_ctl_mask(hw), bm_ctl_unmask(hw), bm_ctl_active(hw), BM_NR_HWIRQ
 *                       the interrupt controller's enable and active bits of input hw
 */
#ifndef IRQSYNC_BAREMETAL_THREADS_H
#define IRQSYNC_BAREMETAL_THREADS_H

#include <stdatomic.h>
#include <stdint.h>
#include "irqsync_baremetal.h"

/* ---- handler threads: run to completion ------------------------------------------------ */

struct bm_chan {
	_Atomic unsigned int owed;	/* a run is owed (kicks fold into one) */
	_Atomic unsigned int busy;	/* claimed: a run (or the stop) is on some CPU's stack */
	_Atomic unsigned int started;
	void (*fn)(unsigned int chan);	/* read only under the claim, after started */
};
static struct bm_chan bm_chans[IRQSYNC_PORT_CHANNELS];
/* Per CPU: 1 + the channel whose run is innermost on its stack, 0 if none. */
static unsigned int bm_chan_current[IRQSYNC_NR_CPUS];

/* Make channel @chan's run on this CPU's stack (runs nest in waits: the outer one is kept). */
static void bm_run(struct bm_chan *c, unsigned int chan)
{
	unsigned int cpu = irqsync_port_cpu_id(), outer = bm_chan_current[cpu];

	bm_chan_current[cpu] = chan + 1U;
	c->fn(chan);
	bm_chan_current[cpu] = outer;
}

unsigned int irqsync_port_thread_current(void)
{
	return bm_chan_current[irqsync_port_cpu_id()];
}

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
		bm_run(c, chan);
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
			bm_run(c, chan);	/* the owed run ends before the stop returns */
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

/* The controller's active bit of the line's input.  IRQSYNC_PORT_NO_ACTIVE_STATE: a controller
 * that cannot tell (docs/porting.md, "In-flight state"; used by the test library without the
 * hard wait, so that this wait does not stand in for the one it removes). */
#ifdef IRQSYNC_PORT_NO_ACTIVE_STATE
int irqsync_port_line_inflight(unsigned int irq)
{
	(void)irq;
	return IRQSYNC_PORT_CANNOT_TELL;
}
#else
int irqsync_port_line_inflight(unsigned int irq)
{
	int r = 0;

	bm_cb();
	if (irq < NR_IRQS && bm_hwirq(irq) < BM_NR_HWIRQ)
		r = bm_ctl_active(bm_hwirq(irq));
	bm_cb();
	return r;
}
#endif

#endif /* IRQSYNC_BAREMETAL_THREADS_H */

/*
 * stress.c - the real library under a storm of real (signal) interrupts,
 * with instrumentation that detects any violation of the SYNC, free_irq and
 * disable_irq guarantees.
 *
 * CPUs 0..3 are threads; an injector thread raises two lines on rotating
 * CPUs: line A (exclusive, a tg3-like device) and line B (shared by two
 * devices, B1 and B2).  Meanwhile the CPUs run driver code:
 *   CPU 0  tg3 quiesce on A: irq_sync = 1; smp_mb() (every other round: no
 *          barrier); synchronize_irq(A); check; irq_sync = 0
 *   CPU 1  disable_irq(B) ... check ... enable_irq(B)
 *   CPU 2  free_irq(B, B2) ... check ... request_irq(B, B2)
 *   CPU 3  a spinlock shared with the handlers; synchronize_irq(B)
 *
 * Violations counted (each names its requirement):
 *   sync_running    an acting A handler still ran when synchronize_irq returned (REQ-SYNC-1)
 *   sync_stale      an A handler acted on irq_sync == 0 after synchronize_irq returned (REQ-SYNC-3/4)
 *   sync_visible    the acting handler's work (a_state) not visible after the return (REQ-SYNC-2)
 *   sync_done       a covered call's last write not visible after the return (REQ-SYNC-2):
 *                   each A handler call writes its own value (a global sequence number) to
 *                   its CPU's slot; the driver checks every CPU's slot against the call that
 *                   had begun there when synchronize_irq was called
 *   disable_ran     a B handler ran between disable_irq's return and enable_irq (REQ-DEPTH-1)
 *   freed_called    B2's handler called after free_irq returned (REQ-LIFECYCLE-5)
 *   reentered       a device handler entered on two CPUs at once (REQ-DISPATCH-3)
 *   lost            a raise not followed by a pass that began after it (REQ-DISPATCH-2, -7)
 *   lock            the shared counter under the spinlock is off (REQ-LOCK-1)
 *   irqs_on         a handler ran with local interrupts enabled (REQ-DISPATCH-8)
 *
 * Usage: stress [interrupts] [seconds-cap].  Exit 0 iff no violation and
 * the target number of interrupts reached a CPU (raises that found the
 * line's bit already pending on that CPU are coalesced and not counted).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"
#include "steps.h"		/* src/core: the step marks (internal) */

#define NCPU 4
#define LINE_A 3U
#define LINE_B 5U

#include "frame.h"		/* the CPU threads, the injector, the checks they share */

enum { V_SYNC_RUNNING, V_SYNC_STALE, V_SYNC_VISIBLE, V_SYNC_DONE, V_DISABLE_RAN, V_FREED_CALLED,
       V_REENTERED, V_LOST, V_LOCK, V_IRQS_ON, NR_V };
static const char *const v_name[NR_V] = {
	"sync_running [REQ-SYNC-1]", "sync_stale [REQ-SYNC-3 REQ-SYNC-4]",
	"sync_visible [REQ-SYNC-2]", "sync_done [REQ-SYNC-2]", "disable_ran [REQ-DEPTH-1]",
	"freed_called [REQ-LIFECYCLE-5]", "reentered [REQ-DISPATCH-3]",
	"lost [REQ-DISPATCH-2 REQ-DISPATCH-7]", "lock [REQ-LOCK-1]",
	"irqs_on [REQ-DISPATCH-8]",
};
static atomic_ulong violations[NR_V];

static void violation(int kind)
{
	atomic_fetch_add(&violations[kind], 1UL);
}

struct dev {
	atomic_int running;		/* handler instances inside (REQ-DISPATCH-3) */
	atomic_ulong calls;
	atomic_int freed;		/* B2: set after free_irq returned */
};

/* Device A, the tg3 pattern. */
static atomic_int a_irq_sync;			/* the driver's flag */
static atomic_ulong a_act_begin, a_act_end;	/* handler acted (read irq_sync == 0) */
static unsigned long a_state;			/* plain: written only while acting */
/*
 * REQ-SYNC-2 with distinct values.  Every call of the A handler takes a sequence number s (a
 * global counter), publishes "s began on this CPU" at its start and stores s in its CPU's done
 * slot as its last write.  Only the CPU itself writes its slots, so a larger value there is a
 * later write: a call covered by synchronize_irq (begun before it) left its write visible iff
 * the slot reads >= s after the return.  With one constant value an earlier call's visible
 * write would hide a later call's missing one.
 */
static atomic_ulong a_seq;
static atomic_ulong a_begun[NCPU];		/* the last call that began on CPU c */
static atomic_ulong a_done[NCPU];		/* ... and the last one that wrote its completion */
static __thread unsigned int this_cpu;		/* the CPU a thread (and its handlers) runs as */
static unsigned long a_inflight;		/* calls the check covered that had not completed
						 * at the call: it is not vacuous (CPU 0 only) */
static struct dev dev_a, dev_b1, dev_b2;

/* Line B is quiet between disable_irq's return and enable_irq. */
static atomic_int b_disabled_window;

/* No loss: every raise is followed by a pass that starts after it. */
static atomic_ulong raise_seq[NR_IRQS];
static atomic_ulong seen_seq[NR_IRQS];

/* The spinlock handlers and CPU 3 share (REQ-LOCK-1). */
static DEFINE_SPINLOCK(shared_lock);
static unsigned long shared_count;		/* plain, under shared_lock */
static atomic_ulong shared_expect;

static atomic_int stop_drivers;

static void enter(struct dev *d)
{
	if (atomic_fetch_add(&d->running, 1) != 0)
		violation(V_REENTERED);
	atomic_fetch_add(&d->calls, 1UL);
	if (!irqs_disabled())
		violation(V_IRQS_ON);
}

static void leave(struct dev *d)
{
	atomic_fetch_sub(&d->running, 1);
}

static void note_seen(unsigned int irq)
{
	unsigned long s = atomic_load_explicit(&raise_seq[irq], memory_order_acquire);
	unsigned long old = atomic_load(&seen_seq[irq]);

	while (old < s && !atomic_compare_exchange_weak(&seen_seq[irq], &old, s))
		;
}

static void bump_shared(void)
{
	irq_flags_t flags;

	spin_lock_irqsave(&shared_lock, flags);
	shared_count++;
	spin_unlock_irqrestore(&shared_lock, flags);
	atomic_fetch_add(&shared_expect, 1UL);
}

static void busy(unsigned int n)
{
	volatile unsigned int i;

	for (i = 0; i < n; i++)
		;
}

static irqreturn_t a_handler(void *dev_id)
{
	struct dev *d = dev_id;
	unsigned long s = atomic_fetch_add_explicit(&a_seq, 1UL, memory_order_relaxed) + 1UL;

	enter(d);
	/* release: whoever reads s here also sees this instance's INPROGRESS (set before we ran) */
	atomic_store_explicit(&a_begun[this_cpu], s, memory_order_release);
	note_seen(LINE_A);
	IRQSYNC_STEP(H_READ_FLAG, LINE_A);
	/* Acquire pairs with the driver's release of irq_sync = 0, so a_state has one owner at a
	 * time; it adds no ordering between our INPROGRESS store and this load (the SB race). */
	if (atomic_load_explicit(&a_irq_sync, memory_order_acquire) == 0) {
		/* Acting takes a while, as scheduling NAPI does: widens the windows. */
		busy(200);
		IRQSYNC_STEP(H_WORK, LINE_A);
		atomic_fetch_add_explicit(&a_act_begin, 1UL, memory_order_relaxed);
		a_state++;			/* the handler's work (REQ-SYNC-2) */
		busy(200);
		atomic_fetch_add_explicit(&a_act_end, 1UL, memory_order_relaxed);
	}
	if ((atomic_load_explicit(&d->calls, memory_order_relaxed) & 15UL) == 0UL)
		bump_shared();
	IRQSYNC_STEP(H_DONE, LINE_A);
	/* the last write (REQ-SYNC-2); relaxed: only synchronize_irq may make it visible */
	atomic_store_explicit(&a_done[this_cpu], s, memory_order_relaxed);
	leave(d);
	return IRQ_HANDLED;
}

static irqreturn_t b_handler(void *dev_id)
{
	struct dev *d = dev_id;

	enter(d);
	note_seen(LINE_B);
	if (atomic_load_explicit(&b_disabled_window, memory_order_relaxed))
		violation(V_DISABLE_RAN);
	if (d == &dev_b2 && atomic_load_explicit(&d->freed, memory_order_relaxed))
		violation(V_FREED_CALLED);
	if ((atomic_load_explicit(&d->calls, memory_order_relaxed) & 15UL) == 0UL)
		bump_shared();
	leave(d);
	/* Shared line: B1 claims odd calls, B2 even ones; the line as a whole is handled. */
	return d == &dev_b1 ? IRQ_HANDLED : IRQ_NONE;
}

/* Busy work; yields now and then so that, with more CPU threads than cores, signals reach
 * their thread within a scheduler quantum instead of waiting for it. */
static void spin_for(unsigned int n)
{
	volatile unsigned int i;

	for (i = 0; i < n; i++)
		if ((i & 1023U) == 1023U)
			sched_yield();
}

/* CPU 0: the tg3 quiesce pattern. */
static unsigned long rounds[NCPU];

/* Before synchronize_irq: the last A call that had begun on each CPU (acquire pairs with the
 * handler's release; a call whose start we miss is simply not checked, never falsely flagged). */
static void snapshot_begun(unsigned long cover[NCPU])
{
	unsigned int c;

	for (c = 0; c < NCPU; c++) {
		cover[c] = atomic_load_explicit(&a_begun[c], memory_order_acquire);
		if (atomic_load_explicit(&a_done[c], memory_order_relaxed) < cover[c])
			a_inflight++;
	}
}

/* After it: every covered call's completion is visible (REQ-SYNC-2). */
static void check_covered_done(const unsigned long cover[NCPU])
{
	unsigned int c;

	for (c = 0; c < NCPU; c++)
		if (atomic_load_explicit(&a_done[c], memory_order_relaxed) < cover[c])
			violation(V_SYNC_DONE);
}

static void drive_tg3(unsigned long round)
{
	unsigned long b, e, b2, cover[NCPU];

	IRQSYNC_STEP(DRV_STORE_FLAG, LINE_A);
	atomic_store_explicit(&a_irq_sync, 1, memory_order_relaxed);
	if (round & 1UL) {
		IRQSYNC_STEP(DRV_MB, LINE_A);
		smp_mb();			/* REQ-SYNC-3; even rounds test REQ-SYNC-4 */
	}
	snapshot_begun(cover);
	if (synchronize_irq(LINE_A) != 0)
		violation(V_SYNC_RUNNING);
	check_covered_done(cover);
	b = atomic_load_explicit(&a_act_begin, memory_order_relaxed);
	e = atomic_load_explicit(&a_act_end, memory_order_relaxed);
	if (b != e)
		violation(V_SYNC_RUNNING);
	if (a_state != e)
		violation(V_SYNC_VISIBLE);	/* also a data race TSan would name */
	spin_for(2000);				/* quiesced: the handler must not act */
	b2 = atomic_load_explicit(&a_act_begin, memory_order_relaxed);
	if (b2 != b)
		violation(V_SYNC_STALE);
	atomic_store_explicit(&a_irq_sync, 0, memory_order_release);
	spin_for(2000);
}

/* CPU 1: disable_irq / enable_irq on the shared line. */
static void drive_disable(void)
{
	if (disable_irq(LINE_B) != 0)
		return;
	atomic_store(&b_disabled_window, 1);
	spin_for(3000);
	atomic_store(&b_disabled_window, 0);
	(void)enable_irq(LINE_B);
	spin_for(3000);
}

/* CPU 2: free/request cycles of B2. */
static void drive_lifecycle(void)
{
	if (free_irq(LINE_B, &dev_b2) != 0)
		return;
	atomic_store(&dev_b2.freed, 1);
	if (atomic_load(&dev_b2.running) != 0)
		violation(V_FREED_CALLED);
	spin_for(3000);
	atomic_store(&dev_b2.freed, 0);
	if (request_irq(LINE_B, b_handler, IRQF_SHARED, "b2", &dev_b2) != 0)
		violation(V_FREED_CALLED);
	spin_for(3000);
}

/* CPU 3: lock traffic and plain synchronize_irq. */
static void drive_misc(void)
{
	int i;

	for (i = 0; i < 8; i++)
		bump_shared();
	(void)synchronize_irq(LINE_B);
	spin_for(1000);
}

static atomic_int finished_cpus;

static void *cpu_main(void *arg)
{
	struct cpu *c = arg;
	unsigned long r = 0;

	this_cpu = c->id;
	cpu_attach(c->id);
	while (!atomic_load(&stop_drivers)) {
		switch (c->id) {
		case 0: drive_tg3(r); break;
		case 1: drive_disable(); break;
		case 2: drive_lifecycle(); break;
		default: drive_misc(); break;
		}
		r++;
		idle();
	}
	rounds[c->id] = r;
	atomic_fetch_add(&finished_cpus, 1);
	/* Keep taking interrupts until the injector is done and all is delivered. */
	while (atomic_load(&stop_drivers) < 2)
		idle();
	irqsync_hosted_cpu_detach();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long target = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000UL;
	double cap = argc > 2 ? atof(argv[2]) : 200.0;
	unsigned long coalesced = 0, raised, total_v;
	struct cpu cpus[NCPU];
	struct irq_stats sa, sb;
	double dt;
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	irqsync_init();
	irqsync_hosted_reset();
	if (request_irq(LINE_A, a_handler, 0, "tg3", &dev_a) ||
	    request_irq(LINE_B, b_handler, IRQF_SHARED, "b1", &dev_b1) ||
	    request_irq(LINE_B, b_handler, IRQF_SHARED, "b2", &dev_b2)) {
		fprintf(stderr, "request_irq failed\n");
		return 2;
	}
	start_cpus(cpus, cpu_main);
	raised = inject(LINE_A, LINE_B, target, cap, raise_seq, &coalesced, &dt);

	/* Drivers finish their round: every line ends enabled, B2 requested. */
	atomic_store(&stop_drivers, 1);
	while (atomic_load(&finished_cpus) < NCPU)
		sched_yield();
	{
		double t1 = now();

		sched_yield();
		while (!all_delivered() && now() - t1 < 20.0)
			sched_yield();
	}
	atomic_store(&stop_drivers, 2);
	for (i = 0; i < NCPU; i++)
		pthread_join(cpus[i].tid, NULL);

	atomic_fetch_add(&violations[V_LOST], lost_raises(raise_seq, seen_seq));
	if (shared_count != atomic_load(&shared_expect))
		violation(V_LOCK);
	(void)irq_stats(LINE_A, &sa);
	(void)irq_stats(LINE_B, &sb);

	printf("variant: %s\n",
#ifdef IRQSYNC_TEST_VARIANT
	       IRQSYNC_TEST_VARIANT == 0 ? "v0" : IRQSYNC_TEST_VARIANT == 1 ? "v1" :
	       IRQSYNC_TEST_VARIANT == 4 ? "mutant-nowait" : "v2"
#else
	       "v2"
#endif
	);
	printf("cpus: %d  lines: 2 (A exclusive, B shared by 2)\n", NCPU);
	printf("interrupts: %lu delivered as signals or unmask replays (%lu more raises coalesced)"
	       "  in %.2f s  = %.0f interrupts/s\n", raised, coalesced, dt, (double)raised / dt);
	printf("passes: A %lu  B %lu (handled %lu, unhandled %lu)\n", sa.handled + sa.unhandled,
	       sb.handled + sb.unhandled, sb.handled, sb.unhandled);
	printf("driver rounds: tg3 %lu  disable/enable %lu  free/request %lu  misc %lu\n",
	       rounds[0], rounds[1], rounds[2], rounds[3]);
	printf("handler acts on A: %lu\n", atomic_load(&a_act_end));
	printf("covered A calls in flight when synchronize_irq was called: %lu\n", a_inflight);
	total_v = report_violations(v_name, violations, NR_V);
	printf("STRESS {\"interrupts\": %lu, \"coalesced\": %lu, \"seconds\": %.3f, \"per_second\": %.0f, \"violations\": %lu}\n",
	       raised, coalesced, dt, (double)raised / dt, total_v);
	if (raised < target) {
		printf("injected fewer than %lu interrupts within %.0f s\n", target, cap);
		return 1;
	}
	return total_v ? 1 : 0;
}

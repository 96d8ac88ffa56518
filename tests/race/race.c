/*
 * race.c - the 2007 synchronize_irq race, observed on this hardware with the
 * REAL core code (REQ-SYNC-3, REQ-SYNC-4, REQ-TCB-1).
 *
 * Two threads pinned to two distinct CPUs run litmus-style rounds:
 *
 *   driver side (CPU d)                    dispatch side (CPU h)
 *   flag = 1               DRV_STORE_FLAG   handle_irq(L)  (the real dispatch:
 *   [smp_mb()]             DRV_MB             D_LOCK, D_SET_INPROGRESS, D_UNLOCK,
 *   synchronize_irq(L)     (real v0/v1/v2)    then our handler:)
 *   returned = 1                              v = flag        H_READ_FLAG
 *                                             if v == 0: watch `returned` for a while
 *
 * A round is a violation when the handler read flag == 0 AND saw `returned`
 * while it was still running: synchronize_irq returned while a handler
 * instance that had not ended acted on the old flag.  Under sequential
 * consistency that is impossible (reading 0 puts the handler's INPROGRESS
 * store before the driver's flag store, so the driver's status read sees
 * INPROGRESS until the handler ends, after its watch).  Every reset happens
 * after the end barrier (the detector trap of hw-race.md); v2 == 0 is the
 * guard that would catch a broken detector.
 *
 * Each round: a spin barrier; both sides warm the lines (flag, status,
 * lock) so they start Shared; both wait for a common TSC deadline plus a
 * random offset of 0..400 cycles; race; end barrier; check; reset.
 *
 * Modes:
 *   race [--barrier] [--signals] --cap SECONDS
 *       run until the first violation (print VIOLATION..., exit 1) or the
 *       cap (print "no violation", exit 0)
 *   race [--barrier] [--signals] --rate SECONDS
 *       run for SECONDS, print rounds, violations, violations per million
 *       rounds (exit 0)
 *   race --probe   exit 0 if two CPUs can be pinned, 77 otherwise
 * --signals: the interrupt comes as a real signal (the hosted port's
 * controller, pthread_kill) to the dispatch CPU, which idles with
 * interrupts enabled; the driver raises it, then stores the flag after the
 * mean delivery latency measured so far plus 0..800 ticks.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"
#include "internal.h"		/* the descriptor, only to warm its cache lines */

#define L 2U
#define WATCH 4000		/* iterations the handler watches `returned` */

static atomic_int flag;			/* the driver's tg3 flag */
static atomic_int returned;		/* synchronize_irq has returned this round */
static int h_read = -1;			/* handler's flag value this round (-1: not run) */
static int h_saw_returned;
static atomic_int h_done;		/* the handler ran this round */
static unsigned long long h_start;	/* when it started (ticks) */
static unsigned long long raised_at;	/* --signals: when the driver raised the line */
static double latency = 30000.0;	/* --signals: running mean of raise -> handler (ticks) */

static int opt_barrier, opt_signals;

static inline unsigned long long ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
#endif
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A sense-reversing spin barrier for two threads. */
static atomic_int bar_count, bar_sense;

static void barrier(int *local_sense)
{
	*local_sense = !*local_sense;
	if (atomic_fetch_add(&bar_count, 1) == 1) {
		atomic_store(&bar_count, 0);
		atomic_store(&bar_sense, *local_sense);
	} else {
		while (atomic_load(&bar_sense) != *local_sense)
			;
	}
}

static irqreturn_t handler(void *dev_id)
{
	int v, i, saw = 0;

	(void)dev_id;
	h_start = ticks();
	IRQSYNC_STEP(H_READ_FLAG, L);
	v = atomic_load_explicit(&flag, memory_order_relaxed);
	if (v == 0) {
		for (i = 0; i < WATCH; i++) {
			if (atomic_load_explicit(&returned, memory_order_relaxed)) {
				saw = 1;
				break;
			}
		}
	}
	h_read = v;
	h_saw_returned = saw;
	atomic_store_explicit(&h_done, 1, memory_order_release);
	return IRQ_HANDLED;
}

static void warm(void)
{
	volatile unsigned int sink;

	sink = (unsigned int)atomic_load_explicit(&flag, memory_order_relaxed);
	sink = irqsync_atomic_read_relaxed(&irq_desc[L].status);
	sink = irqsync_atomic_read_relaxed(&irq_desc[L].lock.owner);
	(void)sink;
}

static atomic_ullong deadline;
static atomic_int stop;
static int cpu_d, cpu_h;
static unsigned long long rounds, violations, handler_runs, first_round;
static double t_first = -1.0;

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *dispatch_side(void *arg)
{
	int sense = 0;
	unsigned int seed = 0x9e3779b9U;

	(void)arg;
	if (pin(cpu_h) != 0 || irqsync_hosted_cpu_attach(1) != 0)
		exit(3);
	if (opt_signals)
		local_irq_disable();	/* only inside the race window */
	for (;;) {
		barrier(&sense);			/* start */
		if (atomic_load(&stop))
			break;
		warm();
		if (opt_signals) {
			/* Idle with interrupts on until the driver's round is over. */
			local_irq_enable();
			while (!atomic_load_explicit(&returned, memory_order_acquire))
				;
			local_irq_disable();
		} else {
			unsigned long long d = atomic_load(&deadline) + (rnd(&seed) % 400U);

			while (ticks() < d)
				;
			(void)handle_irq(L);
		}
		barrier(&sense);			/* end */
		barrier(&sense);			/* checked and reset */
	}
	irqsync_hosted_cpu_detach();
	return NULL;
}

static int driver_round(unsigned int *seed)
{
	unsigned long long d = atomic_load(&deadline) + (rnd(seed) % 400U);

	if (opt_signals) {
		/*
		 * Raise first, then store the flag just after the signal should
		 * arrive: the mean delivery latency seen so far + 0..800 ticks (the
		 * dispatch path runs a few hundred cycles before its flag read).
		 */
		unsigned long long d2;

		raised_at = ticks();
		d2 = raised_at + (unsigned long long)latency + rnd(seed) % 800U;
		(void)irqsync_hosted_raise(L);
		while (ticks() < d2)
			;
	} else {
		while (ticks() < d)
			;
	}
	IRQSYNC_STEP(DRV_STORE_FLAG, L);
	atomic_store_explicit(&flag, 1, memory_order_relaxed);
	if (opt_barrier) {
		IRQSYNC_STEP(DRV_MB, L);
		smp_mb();
	}
	(void)synchronize_irq(L);
	atomic_store_explicit(&returned, 1, memory_order_release);
	return 0;
}

int main(int argc, char **argv)
{
	double cap = 10.0, t0;
	int rate_mode = 0, probe = 0, i, sense = 0;
	unsigned int seed = 0x2545f491U;
	pthread_t th;
	cpu_set_t avail;
	int ncpu = 0, c;
	static int dev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--barrier"))
			opt_barrier = 1;
		else if (!strcmp(argv[i], "--signals"))
			opt_signals = 1;
		else if (!strcmp(argv[i], "--probe"))
			probe = 1;
		else if (!strcmp(argv[i], "--cap") && i + 1 < argc)
			cap = atof(argv[++i]);
		else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
			cap = atof(argv[++i]);
			rate_mode = 1;
		}
	}

	/* Two distinct CPUs we may run on. */
	cpu_d = cpu_h = -1;
	if (sched_getaffinity(0, sizeof(avail), &avail) == 0) {
		for (c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &avail))
				continue;
			if (ncpu == 0)
				cpu_d = c;
			else if (ncpu == 1)
				cpu_h = c;
			ncpu++;
		}
	}
	if (ncpu < 2 || pin(cpu_d) != 0) {
		printf("SKIP: cannot pin two distinct CPUs (%d available)\n", ncpu);
		return 77;
	}
	if (probe) {
		printf("CPUs %d and %d\n", cpu_d, cpu_h);
		return 0;
	}

	irqsync_init();
	irqsync_hosted_reset();
	if (irqsync_hosted_cpu_attach(0) != 0 ||
	    request_irq(L, handler, 0, "race", &dev) != 0 ||
	    irqsync_hosted_route(L, 1) != 0)
		return 2;
	pthread_create(&th, NULL, dispatch_side, NULL);

	printf("variant: %s  driver barrier: %s  interrupts: %s  CPUs %d (driver) %d (dispatch)\n",
#ifdef IRQSYNC_TEST_VARIANT
	       IRQSYNC_TEST_VARIANT == 0 ? "v0" : IRQSYNC_TEST_VARIANT == 1 ? "v1" : "v2",
#else
	       "v2",
#endif
	       opt_barrier ? "smp_mb" : "none", opt_signals ? "signals" : "direct", cpu_d, cpu_h);

	t0 = now();
	for (;;) {
		atomic_store(&deadline, ticks() + 2000ULL);
		barrier(&sense);			/* start */
		warm();
		driver_round(&seed);
		if (opt_signals) {
			/* the handler may still be on its way: wait a bounded time for it */
			unsigned long long w = ticks() + 200000ULL;

			while (!atomic_load_explicit(&h_done, memory_order_acquire) && ticks() < w)
				;
		}
		barrier(&sense);			/* end */
		/* Check, then reset: both after the end barrier. */
		rounds++;
		if (atomic_load_explicit(&h_done, memory_order_acquire)) {
			handler_runs++;
			if (opt_signals && h_start > raised_at && h_start - raised_at < 10000000ULL)
				latency = 0.9 * latency + 0.1 * (double)(h_start - raised_at);
			if (h_read == 0 && h_saw_returned) {
				violations++;
				if (t_first < 0) {
					t_first = now() - t0;
					first_round = rounds;
				}
			}
		}
		atomic_store(&flag, 0);
		atomic_store(&returned, 0);
		atomic_store(&h_done, 0);
		h_read = -1;
		h_saw_returned = 0;
		if (opt_signals) {
			/* a late delivery must not leak into the next round */
			(void)synchronize_irq(L);
		}
		if ((!rate_mode && violations) || ((rounds & 1023ULL) == 0ULL && now() - t0 > cap))
			atomic_store(&stop, 1);
		barrier(&sense);			/* checked and reset */
		if (atomic_load(&stop))
			break;
	}
	barrier(&sense);				/* let the dispatch side see stop */
	pthread_join(th, NULL);

	{
		double dt = now() - t0;

		printf("rounds: %llu  handler ran: %llu  violations: %llu  in %.2f s\n",
		       rounds, handler_runs, violations, dt);
		printf("rate: %.1f violations per million rounds, %.2f per second\n",
		       rounds ? 1e6 * (double)violations / (double)rounds : 0.0,
		       (double)violations / dt);
		printf("RACE {\"rounds\": %llu, \"violations\": %llu, \"seconds\": %.3f, "
		       "\"per_million\": %.1f}\n", rounds, violations, dt,
		       rounds ? 1e6 * (double)violations / (double)rounds : 0.0);
	}
	if (rate_mode)
		return 0;
	if (violations) {
		printf("VIOLATION: round %llu (%.4f s): the handler read flag 0 and was still running "
		       "when synchronize_irq returned\n", first_round, t_first);
		return 1;
	}
	printf("no violation within %.1f s\n", cap);
	return 0;
}

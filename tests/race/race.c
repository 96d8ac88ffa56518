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
 * A round HITS THE WINDOW when the handler read flag == 0 and, while it was
 * still running (its watch), saw the driver inside synchronize_irq (`in_sync`,
 * stored just before the call) or already returned from it.  Only such a round
 * can show the race: a handler that read the old flag overlaps the call, and
 * synchronize_irq must wait for it.  Every violation is a window hit; a round
 * that misses the window (the handler ran too early or too late, or read 1)
 * says nothing about the variant.  So runs are sized by window hits, not by
 * seconds or rounds: the same target for v0, v1 and v2.
 *
 * Each round: a spin barrier; both sides warm the lines (flag, status,
 * lock) so they start Shared; both wait for a common TSC deadline plus a
 * random offset of 0..400 cycles; race; end barrier; check; reset.
 *
 * Usage:
 *   race [--barrier] [--signals] --hits N --cap SECONDS [--max-cap SECONDS]
 *        [--count]
 *       run until N window hits: print "no violation in N window hits", exit
 *       0; stop at the first violation (print VIOLATION..., exit 1), or with
 *       --count count violations until N hits (exit 0: a rate, for make
 *       bench).  --cap is what the run should need on a machine of the
 *       expected speed; a slower one (a loaded host, a slow emulator) gets
 *       more time: past the cap the run goes on as long as the window-hit
 *       rate measured so far reaches N within --max-cap (default 4 x --cap).
 *       A run that cannot is INCONCLUSIVE (exit 3) -- at once, or at
 *       --max-cap -- never a pass.
 *   race [--barrier] [--signals] --cap SECONDS
 *       time-sized (the qemu-user run of mk/cross.mk): until the first
 *       violation (exit 1) or the cap ("no violation", exit 0); window hits
 *       are printed, not required.
 *   race --probe   exit 0 if two CPUs can be pinned, 77 otherwise
 * Every run ends with a line "RACE {json}": rounds, window hits, violations,
 * the window hits up to the first violation, seconds, outcome.
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
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"
#include "internal.h"		/* the descriptor, only to warm its cache lines */

#define L 2U
#define WATCH 4000		/* iterations the handler watches `returned` */

static atomic_int flag;			/* the driver's tg3 flag */
static atomic_int in_sync;		/* the driver has called synchronize_irq this round */
static atomic_int returned;		/* synchronize_irq has returned this round */
static int h_read = -1;			/* handler's flag value this round (-1: not run) */
static int h_saw_returned;
static int h_saw_in_sync;		/* ... saw the driver inside synchronize_irq */
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

/*
 * A sense-reversing barrier for two threads: it spins, and sleeps on a futex
 * once the other side is late by BAR_SPINS loads.  On a quiet host the other
 * side comes within a few hundred loads and nothing changes; on a loaded one
 * (or under qemu-user) the other thread is often descheduled, and a waiter
 * that spun on would burn its time slice while its partner waits for a core.
 * A sleeper woken by the futex runs again soon (the scheduler credits its
 * sleep), so both sides meet in the race window far more often: the window
 * hits per second under load, not what a round does.
 */
#define BAR_SPINS 20000
static atomic_int bar_count, bar_sense, bar_sleeping;

static void bar_sleep(int old_sense)
{
	atomic_fetch_add(&bar_sleeping, 1);	/* a count: the other side may be
						 * on its way out of an earlier sleep */
	/* seq_cst store, then load: the waker's store of the sense, then its
	 * load of bar_sleeping, cannot both miss (either it wakes us or we see
	 * the new sense and do not sleep; FUTEX_WAIT also rechecks the value). */
	if (atomic_load(&bar_sense) == old_sense)
		(void)syscall(SYS_futex, &bar_sense, FUTEX_WAIT_PRIVATE, old_sense, NULL, NULL, 0);
	atomic_fetch_sub(&bar_sleeping, 1);
}

static void barrier(int *local_sense)
{
	unsigned int spins = 0;

	*local_sense = !*local_sense;
	if (atomic_fetch_add(&bar_count, 1) == 1) {
		atomic_store(&bar_count, 0);
		atomic_store(&bar_sense, *local_sense);
		if (atomic_load(&bar_sleeping))
			(void)syscall(SYS_futex, &bar_sense, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	} else {
		while (atomic_load(&bar_sense) != *local_sense) {
			if (++spins >= BAR_SPINS) {
				bar_sleep(!*local_sense);
				spins = 0;
			}
		}
	}
}

/*
 * After reading the old flag, watch the driver: did it enter synchronize_irq
 * (a window hit) and did the call return while we still run (a violation)?
 */
static void watch_driver(int *saw_in_sync, int *saw_returned)
{
	int i;

	for (i = 0; i < WATCH; i++) {
		if (atomic_load_explicit(&returned, memory_order_relaxed)) {
			*saw_returned = 1;
			return;
		}
		if (!*saw_in_sync && atomic_load_explicit(&in_sync, memory_order_relaxed))
			*saw_in_sync = 1;
	}
}

static irqreturn_t handler(void *dev_id)
{
	int v, saw = 0, inside = 0;

	(void)dev_id;
	h_start = ticks();
	IRQSYNC_STEP(H_READ_FLAG, L);
	v = atomic_load_explicit(&flag, memory_order_relaxed);
	if (v == 0)
		watch_driver(&inside, &saw);
	h_read = v;
	h_saw_returned = saw;
	h_saw_in_sync = inside;
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
static unsigned long long hits, first_hits;	/* window hits; hits up to the first violation */
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
	/* harness only: no ordering needed, the handler reads it after its flag load */
	atomic_store_explicit(&in_sync, 1, memory_order_relaxed);
	(void)synchronize_irq(L);
	atomic_store_explicit(&returned, 1, memory_order_release);
	return 0;
}

/* What a run is asked for (the command line). */
static double opt_cap = 10.0;		/* wall-clock cap, seconds */
static double opt_max_cap;		/* --hits: how far a slow machine may extend it (0: 4 x cap) */
static double extended_to;		/* --hits: past the cap, the time of the last extension */
static double final_rate;		/* window hits per second over the run */
static unsigned long long opt_hits;	/* target window hits; 0: time-sized (--cap only) */
static int opt_count;			/* --count: count violations up to the target */

/* Check the round just ended (after the end barrier), then reset it. */
static void check_round(double t0)
{
	rounds++;
	if (atomic_load_explicit(&h_done, memory_order_acquire)) {
		handler_runs++;
		if (opt_signals && h_start > raised_at && h_start - raised_at < 10000000ULL)
			latency = 0.9 * latency + 0.1 * (double)(h_start - raised_at);
		if (h_read == 0 && (h_saw_in_sync || h_saw_returned))
			hits++;
		if (h_read == 0 && h_saw_returned) {
			violations++;
			if (t_first < 0) {
				t_first = now() - t0;
				first_round = rounds;
				first_hits = hits;
			}
		}
	}
	atomic_store(&flag, 0);
	atomic_store(&in_sync, 0);
	atomic_store(&returned, 0);
	atomic_store(&h_done, 0);
	h_read = -1;
	h_saw_returned = 0;
	h_saw_in_sync = 0;
	if (opt_signals) {
		/* a late delivery must not leak into the next round */
		(void)synchronize_irq(L);
	}
}

/*
 * Past the cap, a run sized by hits goes on while it will get there: the hits
 * so far over the time so far (this machine's rate, under its load now)
 * reach the target within the max cap.  A run that has stopped hitting the
 * window, or is too slow for the max cap, ends at once, inconclusive.
 */
static int may_extend(double elapsed)
{
	double rate = elapsed > 0.0 ? (double)hits / elapsed : 0.0;

	if (elapsed >= opt_max_cap || rate <= 0.0)
		return 0;
	if (elapsed + (double)(opt_hits - hits) / rate > opt_max_cap)
		return 0;
	extended_to = elapsed;
	return 1;
}

/* Stop after this round?  Sets *capped when the wall-clock cap ended the run. */
static int run_over(double t0, int *capped)
{
	double elapsed;

	if (violations && !opt_count)
		return 1;
	if (opt_hits && hits >= opt_hits)
		return 1;
	/* the clock is read every 1024 rounds: a round is about a microsecond */
	if ((rounds & 1023ULL) != 0ULL)
		return 0;
	elapsed = now() - t0;
	if (elapsed <= opt_cap || (opt_hits && may_extend(elapsed)))
		return 0;
	*capped = 1;
	return 1;
}

/* The driver's loop of rounds, until run_over(); returns whether the cap ended it. */
static int run_rounds(void)
{
	unsigned int seed = 0x2545f491U;
	int sense = 0, capped = 0;
	double t0 = now();

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
		check_round(t0);			/* check, then reset: both after it */
		if (run_over(t0, &capped))
			atomic_store(&stop, 1);
		barrier(&sense);			/* checked and reset */
		if (atomic_load(&stop))
			break;
	}
	barrier(&sense);				/* let the dispatch side see stop */
	return capped;
}

static const char *outcome(int capped)
{
	if (violations && !opt_count)
		return "violation";
	if (opt_hits && capped)
		return "inconclusive";
	return violations ? "violations counted" : "no violation";
}

static void print_figures(double dt, int capped)
{
	double per_m = rounds ? 1e6 * (double)violations / (double)rounds : 0.0;

	printf("rounds: %llu  handler ran: %llu  window hits: %llu  violations: %llu  in %.2f s\n",
	       rounds, handler_runs, hits, violations, dt);
	printf("rate: %.1f violations per million rounds, %.1f window hits per million rounds, "
	       "%.1f violations per million window hits\n", per_m,
	       rounds ? 1e6 * (double)hits / (double)rounds : 0.0,
	       hits ? 1e6 * (double)violations / (double)hits : 0.0);
	final_rate = dt > 0.0 ? (double)hits / dt : 0.0;
	if (extended_to > 0.0)
		printf("slow machine: past its %g s cap the run went on (%.1f s in all) while its "
		       "rate, %.0f window hits per second, reached the target within the %g s max "
		       "cap\n", opt_cap, dt, final_rate, opt_max_cap);
	printf("RACE {\"rounds\": %llu, \"handler_runs\": %llu, \"window_hits\": %llu, "
	       "\"target_hits\": %llu, \"violations\": %llu, \"first_violation_hits\": %llu, "
	       "\"first_violation_round\": %llu, \"seconds\": %.3f, \"per_million\": %.1f, "
	       "\"cap\": %g, \"max_cap\": %g, \"extended\": %s, \"hits_per_second\": %.0f, "
	       "\"outcome\": \"%s\"}\n", rounds, handler_runs, hits, opt_hits, violations,
	       first_hits, first_round, dt, per_m, opt_cap, opt_hits ? opt_max_cap : opt_cap,
	       extended_to > 0.0 ? "true" : "false", final_rate, outcome(capped));
}

/* The verdict line and exit status of a run (the suites match these lines). */
static int verdict(int capped)
{
	if (violations && !opt_count) {
		printf("VIOLATION: round %llu (%.4f s, window hit %llu): the handler read flag 0 and "
		       "was still running when synchronize_irq returned\n",
		       first_round, t_first, first_hits);
		return 1;
	}
	if (opt_hits && capped) {
		printf("INCONCLUSIVE: %llu of %llu window hits within the %g s cap "
		       "(%.0f hits/s here: the target is out of reach of the %g s max cap): "
		       "not enough rounds hit the race window to count as evidence\n",
		       hits, opt_hits, opt_cap, final_rate, opt_max_cap);
		return 3;
	}
	if (opt_count)
		return 0;
	if (opt_hits)
		printf("no violation in %llu window hits (%llu rounds)\n", hits, rounds);
	else
		printf("no violation within %.1f s (%llu window hits, not sized by them)\n",
		       opt_cap, hits);
	return 0;
}

/* Returns -1 on a bad argument, 1 for --probe, else 0. */
static int parse_args(int argc, char **argv)
{
	int i, probe = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--barrier"))
			opt_barrier = 1;
		else if (!strcmp(argv[i], "--signals"))
			opt_signals = 1;
		else if (!strcmp(argv[i], "--probe"))
			probe = 1;
		else if (!strcmp(argv[i], "--count"))
			opt_count = 1;
		else if (!strcmp(argv[i], "--cap") && i + 1 < argc)
			opt_cap = atof(argv[++i]);
		else if (!strcmp(argv[i], "--max-cap") && i + 1 < argc)
			opt_max_cap = atof(argv[++i]);
		else if (!strcmp(argv[i], "--hits") && i + 1 < argc)
			opt_hits = strtoull(argv[++i], NULL, 0);
		else
			return -1;
	}
	if (opt_count && !opt_hits)
		return -1;	/* a rate is sized by window hits too */
	if (opt_max_cap <= 0.0)
		opt_max_cap = 4.0 * opt_cap;
	if (opt_max_cap < opt_cap)
		return -1;	/* the max cap extends the cap, never shortens it */
	return probe;
}

/* Two distinct CPUs we may run on; the driver pinned to the first.  Returns how many. */
static int pick_cpus(void)
{
	cpu_set_t avail;
	int ncpu = 0, c;

	cpu_d = cpu_h = -1;
	if (sched_getaffinity(0, sizeof(avail), &avail) != 0)
		return 0;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &avail))
			continue;
		if (ncpu == 0)
			cpu_d = c;
		else if (ncpu == 1)
			cpu_h = c;
		ncpu++;
	}
	if (ncpu >= 2 && pin(cpu_d) != 0)
		return 0;
	return ncpu;
}

int main(int argc, char **argv)
{
	double t0;
	int probe, ncpu, capped;
	pthread_t th;
	static int dev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	probe = parse_args(argc, argv);
	if (probe < 0) {
		fprintf(stderr, "usage: race [--barrier] [--signals] [--hits N [--count] [--max-cap SECONDS]] --cap SECONDS"
			" | --probe\n");
		return 2;
	}
	ncpu = pick_cpus();
	if (ncpu < 2) {
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
	if (opt_hits)
		printf("target: %llu window hits%s, cap %.0f s (a slower machine: up to %.0f s)\n",
		       opt_hits, opt_count ? " (counting violations)" : "", opt_cap, opt_max_cap);

	t0 = now();
	capped = run_rounds();
	pthread_join(th, NULL);
	print_figures(now() - t0, capped);
	return verdict(capped);
}

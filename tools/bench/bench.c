/*
 * bench.c - micro-benchmarks of the library (make bench; tools/bench/bench.py drives it).
 *
 *   bench OP N                run OP N times (under callgrind: instructions per OP)
 *   bench --time OP[,OP..] N R run each OP N times, R repetitions; print the median ns per OP,
 *                             one line per OP in the order given.  Several OPs are timed
 *                             interleaved (rep 1 of each, rep 2 of each, ...), so a load that
 *                             comes and goes on the machine falls on all of them alike.
 *
 * OP: sync          synchronize_irq on an idle line (the fast path: no handler running)
 *     dispatch      handle_irq of a line with one empty handler (from thread context): a plain
 *                   line, request_irq()
 *     wake          handle_irq of a threaded line (request_threaded_irq, flags 0) whose one
 *                   primary returns IRQ_WAKE_THREAD: the waker counts, sets run_pending and
 *                   kicks the action's thread (spec/threaded.md, T_COUNT .. T_WAKEUP)
 *     wake_oneshot  the same on an IRQF_ONESHOT line with the default primary (handler NULL):
 *                   the line is also masked before the pass (T_MASK) and its bit set
 *     irqsave       local_irq_save + local_irq_restore
 *     lock          spin_lock + spin_unlock, uncontended (irqsync)
 *     lock_ck       ck_spinlock_ticket_lock + ck_spinlock_ticket_unlock, uncontended
 *                   (concurrencykit, Debian libck-dev: header-only, inlined as a user gets it)
 *     lock_pthread  pthread_spin_lock + pthread_spin_unlock, uncontended (glibc)
 *
 * Each OP sits in its own noinline function op_<OP>, which callgrind collects with
 * --toggle-collect=op_<OP>: the count includes the call into the library, nothing else.  The
 * three lock OPs have the same shape (lock; unlock on a static lock) and run in the same loop
 * of main(), compiled with the same flags, so their counts compare like for like.
 *
 * The wake OPs end every call with an episode owed to the action's thread.  After each call,
 * outside op_<OP> (not counted), main waits for it with synchronize_irq of the line, so every
 * call finds the run no longer pending and takes the whole wake-up path (a 0 -> 1 of
 * run_pending and a kick of a sleeping thread), never the fold of REQ-THREAD-7.  Their threaded
 * lines are requested only when a wake OP runs: the other OPs run in a process without handler
 * threads, as before.  Timed (--time), a wake OP's figure includes that wait (the thread's run
 * and the return of synchronize_irq): a round trip, not the cost of handle_irq.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

#include <ck_spinlock.h>

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"

#define L 4U
#define L_WAKE 5U	/* threaded, flags 0: a primary that returns IRQ_WAKE_THREAD */
#define L_ONESHOT 6U	/* threaded, IRQF_ONESHOT: the default primary */

static DEFINE_SPINLOCK(lock);
static ck_spinlock_ticket_t ck_lock = CK_SPINLOCK_TICKET_INITIALIZER;
static pthread_spinlock_t pt_lock;
static int dev, dev_wake, dev_oneshot;

static irqreturn_t empty_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}

static irqreturn_t wake_primary(void *dev_id)
{
	(void)dev_id;
	return IRQ_WAKE_THREAD;
}

__attribute__((noinline)) void op_sync(void);
__attribute__((noinline)) void op_sync(void)
{
	(void)synchronize_irq(L);
}

__attribute__((noinline)) void op_dispatch(void);
__attribute__((noinline)) void op_dispatch(void)
{
	(void)handle_irq(L);
}

__attribute__((noinline)) void op_wake(void);
__attribute__((noinline)) void op_wake(void)
{
	(void)handle_irq(L_WAKE);
}

__attribute__((noinline)) void op_wake_oneshot(void);
__attribute__((noinline)) void op_wake_oneshot(void)
{
	(void)handle_irq(L_ONESHOT);
}

/* The wait after each call of the wake OPs (not counted: outside op_<OP>). */
static void settle_wake(void)
{
	(void)synchronize_irq(L_WAKE);
}

static void settle_wake_oneshot(void)
{
	(void)synchronize_irq(L_ONESHOT);
}

/* The setup of the wake OPs: the request, then one wake-up and its wait outside op_<OP>, so
 * that one-time costs fall outside the count whichever thread gets there first (the lazy
 * binding of libc's syscall() is made by the first of the kick and the thread's first sleep). */
static int setup_wake(void)
{
	if (request_threaded_irq(L_WAKE, wake_primary, empty_handler, 0, "bench-wake",
				 &dev_wake) != 0)
		return -1;
	(void)handle_irq(L_WAKE);
	settle_wake();
	return 0;
}

static int setup_wake_oneshot(void)
{
	if (request_threaded_irq(L_ONESHOT, NULL, empty_handler, IRQF_ONESHOT,
				 "bench-oneshot", &dev_oneshot) != 0)
		return -1;
	(void)handle_irq(L_ONESHOT);
	settle_wake_oneshot();
	return 0;
}

__attribute__((noinline)) void op_irqsave(void);
__attribute__((noinline)) void op_irqsave(void)
{
	irq_flags_t flags;

	local_irq_save(flags);
	local_irq_restore(flags);
}

__attribute__((noinline)) void op_lock(void);
__attribute__((noinline)) void op_lock(void)
{
	spin_lock(&lock);
	spin_unlock(&lock);
}

__attribute__((noinline)) void op_lock_ck(void);
__attribute__((noinline)) void op_lock_ck(void)
{
	ck_spinlock_ticket_lock(&ck_lock);
	ck_spinlock_ticket_unlock(&ck_lock);
}

__attribute__((noinline)) void op_lock_pthread(void);
__attribute__((noinline)) void op_lock_pthread(void)
{
	(void)pthread_spin_lock(&pt_lock);
	(void)pthread_spin_unlock(&pt_lock);
}

struct op {
	const char *name;
	void (*fn)(void);
	int (*setup)(void);	/* NULL: none */
	void (*settle)(void);	/* after each call, not counted; NULL: none */
};
static const struct op ops[] = {
	{ "sync", op_sync, NULL, NULL },
	{ "dispatch", op_dispatch, NULL, NULL },
	{ "wake", op_wake, setup_wake, settle_wake },
	{ "wake_oneshot", op_wake_oneshot, setup_wake_oneshot, settle_wake_oneshot },
	{ "irqsave", op_irqsave, NULL, NULL },
	{ "lock", op_lock, NULL, NULL },
	{ "lock_ck", op_lock_ck, NULL, NULL },
	{ "lock_pthread", op_lock_pthread, NULL, NULL },
};
#define NR_OPS (sizeof(ops) / sizeof(ops[0]))
#define MAX_TIMED 8
#define MAX_REPS 101

static const struct op *find_op(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NR_OPS; i++)
		if (strlen(ops[i].name) == len && !strncmp(ops[i].name, name, len))
			return &ops[i];
	return NULL;
}

/* Run @o @n times, with its wait after each call if it has one. */
static void run_op(const struct op *o, long n)
{
	void (*fn)(void) = o->fn, (*settle)(void) = o->settle;
	long i;

	if (settle) {
		for (i = 0; i < n; i++) {
			fn();
			settle();
		}
	} else {
		for (i = 0; i < n; i++)
			fn();
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const struct op *op[MAX_TIMED];
	int timing = 0, a = 1;
	long n, r, k;
	size_t nops = 0, j;
	const char *p;
	static double t[MAX_TIMED][MAX_REPS];

	if (argc > 1 && !strcmp(argv[1], "--time")) {
		timing = 1;
		a = 2;
	}
	if (argc < a + 2) {
		fprintf(stderr, "usage: bench [--time] OP[,OP...] N [REPS]\n");
		return 2;
	}
	for (p = argv[a];;) {
		size_t len = strcspn(p, ",");

		if (nops == MAX_TIMED || (nops > 0 && !timing) || !(op[nops] = find_op(p, len))) {
			fprintf(stderr, "unknown op or too many ops: %s\n", argv[a]);
			return 2;
		}
		nops++;
		if (!p[len])
			break;
		p += len + 1;
	}
	n = atol(argv[a + 1]);
	r = timing && argc > a + 2 ? atol(argv[a + 2]) : 1;
	if (r < 1 || r > MAX_REPS)
		r = 11;

	irqsync_init();
	if (irqsync_hosted_cpu_attach(0) != 0 || request_irq(L, empty_handler, 0, "bench", &dev) != 0 ||
	    pthread_spin_init(&pt_lock, PTHREAD_PROCESS_PRIVATE) != 0)
		return 2;
	for (j = 0; j < nops; j++) {
		size_t m;

		for (m = 0; m < j && op[m] != op[j]; m++)
			;
		if (m == j && op[j]->setup && op[j]->setup() != 0) {
			fprintf(stderr, "setup of %s failed\n", op[j]->name);
			return 2;
		}
	}
	if (!timing) {
		run_op(op[0], n);
		return 0;
	}
	for (k = 0; k < r; k++) {
		for (j = 0; j < nops; j++) {
			double t0 = now_ns();

			run_op(op[j], n);
			t[j][k] = (now_ns() - t0) / (double)n;
		}
	}
	for (j = 0; j < nops; j++) {
		qsort(t[j], (size_t)r, sizeof(t[j][0]), cmp);
		printf("%.3f\n", t[j][r / 2]);
	}
	return 0;
}

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
 *     dispatch      handle_irq of a line with one empty handler (from thread context)
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

static DEFINE_SPINLOCK(lock);
static ck_spinlock_ticket_t ck_lock = CK_SPINLOCK_TICKET_INITIALIZER;
static pthread_spinlock_t pt_lock;
static int dev;

static irqreturn_t empty_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
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

static const struct {
	const char *name;
	void (*fn)(void);
} ops[] = {
	{ "sync", op_sync },
	{ "dispatch", op_dispatch },
	{ "irqsave", op_irqsave },
	{ "lock", op_lock },
	{ "lock_ck", op_lock_ck },
	{ "lock_pthread", op_lock_pthread },
};
#define NR_OPS (sizeof(ops) / sizeof(ops[0]))
#define MAX_TIMED 8
#define MAX_REPS 101

static void (*find_op(const char *name, size_t len))(void)
{
	size_t i;

	for (i = 0; i < NR_OPS; i++)
		if (strlen(ops[i].name) == len && !strncmp(ops[i].name, name, len))
			return ops[i].fn;
	return NULL;
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
	void (*op[MAX_TIMED])(void);
	int timing = 0, a = 1;
	long n, r, i, k;
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
	if (!timing) {
		for (i = 0; i < n; i++)
			op[0]();
		return 0;
	}
	for (k = 0; k < r; k++) {
		for (j = 0; j < nops; j++) {
			double t0 = now_ns();

			for (i = 0; i < n; i++)
				op[j]();
			t[j][k] = (now_ns() - t0) / (double)n;
		}
	}
	for (j = 0; j < nops; j++) {
		qsort(t[j], (size_t)r, sizeof(t[j][0]), cmp);
		printf("%.3f\n", t[j][r / 2]);
	}
	return 0;
}

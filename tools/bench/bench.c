/*
 * bench.c - micro-benchmarks of the library (make bench; tools/bench/bench.py drives it).
 *
 *   bench OP N          run OP N times (under callgrind: instructions per OP)
 *   bench --time OP N R run OP N times, R repetitions; print the median ns per OP
 *
 * OP: sync      synchronize_irq on an idle line (the fast path: no handler running)
 *     dispatch  handle_irq of a line with one empty handler (from thread context)
 *     irqsave   local_irq_save + local_irq_restore
 *     lock      spin_lock + spin_unlock, uncontended
 *
 * Each OP sits in its own noinline function op_<OP>, which callgrind collects with
 * --toggle-collect=op_<OP>: the count includes the call into the library, nothing else.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"

#define L 4U

static DEFINE_SPINLOCK(lock);
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
	void (*op)(void) = NULL;
	int timing = 0, a = 1;
	long n, r, i, k;
	double t[101];

	if (argc > 1 && !strcmp(argv[1], "--time")) {
		timing = 1;
		a = 2;
	}
	if (argc < a + 2) {
		fprintf(stderr, "usage: bench [--time] sync|dispatch|irqsave|lock N [REPS]\n");
		return 2;
	}
	if (!strcmp(argv[a], "sync"))
		op = op_sync;
	else if (!strcmp(argv[a], "dispatch"))
		op = op_dispatch;
	else if (!strcmp(argv[a], "irqsave"))
		op = op_irqsave;
	else if (!strcmp(argv[a], "lock"))
		op = op_lock;
	if (!op) {
		fprintf(stderr, "unknown op %s\n", argv[a]);
		return 2;
	}
	n = atol(argv[a + 1]);
	r = timing && argc > a + 2 ? atol(argv[a + 2]) : 1;
	if (r < 1 || r > 101)
		r = 11;

	irqsync_init();
	if (irqsync_hosted_cpu_attach(0) != 0 || request_irq(L, empty_handler, 0, "bench", &dev) != 0)
		return 2;
	if (!timing) {
		for (i = 0; i < n; i++)
			op();
		return 0;
	}
	for (k = 0; k < r; k++) {
		double t0 = now_ns();

		for (i = 0; i < n; i++)
			op();
		t[k] = (now_ns() - t0) / (double)n;
	}
	qsort(t, (size_t)r, sizeof(t[0]), cmp);
	printf("%.3f\n", t[r / 2]);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * frame.h - what the stress programs share (stress.c, threaded.c): the clock, a CPU's idle
 * loop, the CPU threads of the hosted port and their start, the injector that raises two
 * lines on rotating CPUs, the delivery and lost-raise checks, and the print of the violation
 * counts.  Each program keeps its own lines, drivers and detectors.  Included once, by the
 * program, after it defines NCPU (its CPU threads).
 */
#ifndef _IRQSYNC_STRESS_FRAME_H
#define _IRQSYNC_STRESS_FRAME_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The idle loop of a CPU: a short sleep a signal cuts short, as hlt would be. */
static void idle(void)
{
	struct timespec ts = { 0, 20000 };

	nanosleep(&ts, NULL);
}

/* 1 when every raise has reached its CPU (a line mask holds one until its unmask). */
static int all_delivered(void)
{
	struct irqsync_hosted_stats s;
	unsigned int i;

	for (i = 0; i < NCPU; i++) {
		(void)irqsync_hosted_stats(i, &s);
		if (s.raised != s.delivered)
			return 0;
	}
	return 1;
}

struct cpu {
	pthread_t tid;
	unsigned int id;
};

static atomic_int attached_cpus;

/* The start of a CPU thread: become the port's CPU @id (exit 2 if the port refuses). */
static void cpu_attach(unsigned int id)
{
	if (irqsync_hosted_cpu_attach(id) != 0) {
		fprintf(stderr, "cannot attach CPU %u\n", id);
		exit(2);
	}
	atomic_fetch_add(&attached_cpus, 1);
}

/* Start NCPU threads running @fn, one per struct cpu, and wait until each has attached. */
static void start_cpus(struct cpu cpus[NCPU], void *(*fn)(void *))
{
	unsigned int i;

	for (i = 0; i < NCPU; i++) {
		cpus[i].id = i;
		pthread_create(&cpus[i].tid, NULL, fn, &cpus[i]);
	}
	while (atomic_load(&attached_cpus) < NCPU)
		sched_yield();
}

/*
 * The injector, run by the calling (unattached) thread: raise @line0 and @line1 in turn until
 * @target raises reached a CPU or @cap seconds passed, moving each line to the next CPU every
 * 256 raises.  Each raise is counted in @raise_seq[line] before it is made (lost_raises()).
 * A raise that found the line's bit pending on its CPU is coalesced: counted in *@coalesced,
 * not in the result.  *@seconds: how long the injection took.
 * Return: the raises that reached a CPU.
 */
static unsigned long inject(unsigned int line0, unsigned int line1, unsigned long target,
			    double cap, atomic_ulong raise_seq[NR_IRQS], unsigned long *coalesced,
			    double *seconds)
{
	unsigned long raised = 0, k;
	double t0 = now();
	int rc;

	for (k = 0; raised < target; k++) {
		unsigned int line = (k & 1UL) ? line1 : line0;

		if ((k & 255UL) == 0UL) {
			(void)irqsync_hosted_route(line0, (unsigned int)(k >> 8) % NCPU);
			(void)irqsync_hosted_route(line1, (unsigned int)((k >> 8) + 1U) % NCPU);
			if (now() - t0 > cap)
				break;
		}
		atomic_fetch_add_explicit(&raise_seq[line], 1UL, memory_order_relaxed);
		rc = irqsync_hosted_raise(line);
		if (rc == 1) {
			(*coalesced)++;
			sched_yield();		/* the CPU has not taken the last one yet */
		} else if (rc == 0) {
			raised++;
		}
	}
	*seconds = now() - t0;
	return raised;
}

/*
 * No loss: every raise is followed by a pass that began after it.  A handler records the
 * raise count it saw in @seen_seq[line]; at the end each line's last raise must have been
 * seen.  Prints each line that lost one.  Return: how many did.
 */
static unsigned long lost_raises(atomic_ulong raise_seq[NR_IRQS], atomic_ulong seen_seq[NR_IRQS])
{
	unsigned long lost = 0;
	unsigned int i;

	for (i = 0; i < NR_IRQS; i++) {
		if (atomic_load(&seen_seq[i]) != atomic_load(&raise_seq[i])) {
			printf("# line %u: last raise %lu, last pass saw %lu\n", i,
			       atomic_load(&raise_seq[i]), atomic_load(&seen_seq[i]));
			lost++;
		}
	}
	return lost;
}

/* Print the @n violation counts under their names, then the total.  Return: the total. */
static unsigned long report_violations(const char *const name[], atomic_ulong count[], unsigned int n)
{
	unsigned long total = 0, v;
	unsigned int i;

	for (i = 0; i < n; i++) {
		v = atomic_load(&count[i]);
		total += v;
		printf("  %-40s %lu\n", name[i], v);
	}
	printf("violations: %lu\n", total);
	return total;
}

#endif /* _IRQSYNC_STRESS_FRAME_H */

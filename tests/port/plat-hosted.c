/* plat-hosted.c — the port conformance suite's machine on a POSIX host (plat.h).
 *
 * CPUs are threads attached with irqsync_hosted_cpu_attach(); an interrupt is raised with the
 * hosted port's controller (irqsync_hosted_raise_on). A signal a thread sends to itself is
 * handled before pthread_kill returns (Linux), and a raise on a masked CPU sets its pending
 * bit at once, so a raise on the calling CPU has arrived when plat_raise returns.
 *
 * CPU 0 (the main thread) and CPU 1 are pinned to two distinct host cores when the process
 * may use two: the litmus rounds of the suite need both to run at the same time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"
#include "plat.h"

#define PLAT_MAX_THREADS IRQSYNC_NR_CPUS

static _Thread_local unsigned int plat_self;
static _Thread_local unsigned int plat_pauses;
static _Thread_local int plat_raised[PC_NSRC];
static pthread_t plat_threads[PLAT_MAX_THREADS];
static unsigned int plat_nthreads;
static int plat_host_core[2] = { -1, -1 };

struct plat_start {
	unsigned int cpu;
	void (*fn)(void);
};
static struct plat_start plat_starts[PLAT_MAX_THREADS];

static void plat_pin(unsigned int cpu)
{
	cpu_set_t set;

	if (cpu > 1 || plat_host_core[cpu] < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(plat_host_core[cpu], &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void plat_init(void)
{
	cpu_set_t avail;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(avail), &avail) == 0) {
		for (c = 0; c < CPU_SETSIZE && n < 2; c++)
			if (CPU_ISSET(c, &avail))
				plat_host_core[n++] = c;
	}
	if (n < 2)
		plat_host_core[0] = plat_host_core[1] = -1;
	printf("# hosted platform: %d host core(s) for CPUs 0 and 1%s\n", n,
	       n < 2 ? " (not pinned: litmus rounds cannot overlap)" : ", pinned");
	plat_pin(0);
	irqsync_hosted_reset();
	if (irqsync_hosted_cpu_attach(0) != 0)
		printf("Bail out! cannot attach the main thread as CPU 0\n");
	plat_self = 0;
}

void plat_puts(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

void plat_putu(unsigned long v)
{
	printf("%lu", v);
	fflush(stdout);
}

unsigned int plat_ncpus(void)
{
	return IRQSYNC_NR_CPUS;
}

unsigned int plat_cpu(void)
{
	return plat_self;
}

static void *plat_thread(void *arg)
{
	struct plat_start *st = arg;

	plat_self = st->cpu;
	plat_pin(st->cpu);
	if (irqsync_hosted_cpu_attach(st->cpu) != 0) {
		printf("# CPU %u: cannot attach\n", st->cpu);
		return NULL;
	}
	st->fn();
	irqsync_hosted_cpu_detach();
	return NULL;
}

int plat_cpu_start(unsigned int cpu, void (*fn)(void))
{
	struct plat_start *st;

	if (cpu == 0 || cpu >= IRQSYNC_NR_CPUS || plat_nthreads >= PLAT_MAX_THREADS)
		return -1;
	st = &plat_starts[plat_nthreads];
	st->cpu = cpu;
	st->fn = fn;
	if (pthread_create(&plat_threads[plat_nthreads], NULL, plat_thread, st) != 0)
		return -1;
	plat_nthreads++;
	return 0;
}

void plat_cpu_join_all(void)
{
	unsigned int i;

	for (i = 0; i < plat_nthreads; i++)
		(void)pthread_join(plat_threads[i], NULL);
	plat_nthreads = 0;
}

void plat_raise(unsigned int n)
{
	plat_raised[n] = irqsync_hosted_raise_on(PC_LINE(n), plat_self) >= 0;
}

int plat_arrived(unsigned int n)
{
	return plat_raised[n];
}

unsigned long plat_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return (unsigned long)__rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000000ul + (unsigned long)ts.tv_nsec;
#endif
}

unsigned long plat_clock_margin(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return 4000;	/* TSC cycles, about 1-2 us */
#else
	return 1500;	/* ns */
#endif
}

unsigned int plat_clock_jitter(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return 64;	/* TSC cycles */
#else
	return 32;	/* ns */
#endif
}

void plat_pause(void)
{
	if ((++plat_pauses & 255U) == 0U) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void plat_fini(void)
{
}

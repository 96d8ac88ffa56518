/* unit_util.h - helpers shared by the unit tests: state snapshots and CPU threads. */
#ifndef IRQSYNC_UNIT_UTIL_H
#define IRQSYNC_UNIT_UTIL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"

/* The whole observable state: every line's snapshot and every warning counter. */
struct world {
	struct irq_stats line[NR_IRQS];
	long warn[IRQSYNC_WARN_NR_CODES];
};

static inline void world_get(struct world *w)
{
	unsigned int i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < NR_IRQS; i++)
		(void)irq_stats(i, &w->line[i]);
	for (i = 0; i < IRQSYNC_WARN_NR_CODES; i++)
		w->warn[i] = irqsync_warn_count((int)i);
}

static inline int world_same(const struct world *a, const struct world *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* A CPU thread: attaches as @cpu and idles (taking interrupts) until stopped. */
struct cpu_thread {
	pthread_t tid;
	unsigned int cpu;
	atomic_int ready;
	atomic_int stop;
};

static inline void *cpu_thread_main(void *arg)
{
	struct cpu_thread *t = arg;

	if (irqsync_hosted_cpu_attach(t->cpu) != 0) {
		atomic_store(&t->ready, -1);
		return NULL;
	}
	atomic_store(&t->ready, 1);
	while (!atomic_load(&t->stop))
		sched_yield();
	irqsync_hosted_cpu_detach();
	return NULL;
}

static inline int cpu_thread_start(struct cpu_thread *t, unsigned int cpu)
{
	t->cpu = cpu;
	atomic_store(&t->ready, 0);
	atomic_store(&t->stop, 0);
	if (pthread_create(&t->tid, NULL, cpu_thread_main, t) != 0)
		return -1;
	while (!atomic_load(&t->ready))
		sched_yield();
	return atomic_load(&t->ready) == 1 ? 0 : -1;
}

static inline void cpu_thread_stop(struct cpu_thread *t)
{
	atomic_store(&t->stop, 1);
	pthread_join(t->tid, NULL);
}

#endif

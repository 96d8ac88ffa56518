/* SPDX-License-Identifier: MIT */
/*
 * platform/hosted.c - the examples' machine on Linux (the hosted port).
 *
 * Three threads:
 *   main      CPU 0, runs example_main() - the driver;
 *   cpu1      CPU 1, takes every device interrupt (the hosted port runs
 *             handle_irq() in its signal handler, with CPU 1's interrupts
 *             soft-masked, as hardware would);
 *   devices   the simulated devices: every period it sets a started device's
 *             status register and raises its line with irqsync_hosted_raise().
 *
 * <irqsync_hosted.h> is the hosted port's own API: it is installed with the
 * hosted library and is the only thing here that a bare-metal build replaces.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <irqsync/irqsync.h>
#include <irqsync_hosted.h>
#include "devices.h"

#define TICK_US		100UL			/* the device thread's resolution */
static const unsigned long period_us[EX_NR_DEVICES] = { 1000UL, 1300UL };

static _Atomic int cpu1_up, quit;

unsigned long ex_time_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000UL + (unsigned long)ts.tv_nsec / 1000UL;
}

/* CPUs are threads here, and two of them may share a core: a busy wait yields, or the
 * other CPU would stand still while this one "works". (sched_yield is a plain system call,
 * harmless in the signal handler that runs interrupt handlers.) */
void ex_delay_us(unsigned long us)
{
	unsigned long t0 = ex_time_us();

	while (ex_time_us() - t0 < us)
		sched_yield();
}

void ex_relax(void)
{
	sched_yield();
}

void ex_puts(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

void ex_putu(unsigned long v)
{
	printf("%lu", v);
	fflush(stdout);
}

static void plat_route(unsigned int irq)
{
	(void)irqsync_hosted_route(irq, 1);	/* device lines interrupt CPU 1 */
}

static void plat_raise(unsigned int irq)
{
	(void)irqsync_hosted_raise(irq);
}

static void *devices_main(void *arg)
{
	unsigned long next[EX_NR_DEVICES], now;
	struct timespec tick = { 0, (long)(TICK_US * 1000UL) };
	unsigned int i;

	(void)arg;
	now = ex_time_us();
	for (i = 0; i < EX_NR_DEVICES; i++)
		next[i] = now + period_us[i];
	while (!atomic_load(&quit)) {
		nanosleep(&tick, NULL);
		now = ex_time_us();
		for (i = 0; i < EX_NR_DEVICES; i++) {
			if (now < next[i])
				continue;
			next[i] = now + period_us[i];
			ex_device_event(i);
		}
	}
	return NULL;
}

/* CPU 1 does nothing but take interrupts: they arrive as signals while it sleeps. */
static void *cpu1_main(void *arg)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };

	(void)arg;
	if (irqsync_hosted_cpu_attach(1) != 0)
		return NULL;
	atomic_store(&cpu1_up, 1);
	while (!atomic_load(&quit))
		nanosleep(&nap, NULL);
	irqsync_hosted_cpu_detach();
	return NULL;
}

int main(void)
{
	pthread_t cpu1, devs;
	int rc;

	if (irqsync_hosted_cpu_attach(0) != 0 ||
	    pthread_create(&cpu1, NULL, cpu1_main, NULL) != 0) {
		ex_puts("FAIL: cannot start CPU 1\n");
		return 2;
	}
	if (!ex_wait_until(atomic_load(&cpu1_up)) ||
	    pthread_create(&devs, NULL, devices_main, NULL) != 0) {
		ex_puts("FAIL: CPU 1 or the devices did not start\n");
		return 2;
	}
	rc = example_main();
	atomic_store(&quit, 1);
	pthread_join(devs, NULL);
	pthread_join(cpu1, NULL);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * lockcheck.c - the ticket lock seen through the step hooks (REQ-LOCK-1, REQ-LOCK-2).
 *
 * The replay harness never asks a CPU to take a lock the model holds (the model's lock step is
 * not enabled then), so a lock that does not exclude would conform.  This test closes that gap
 * without timing: CPU 1 holds the lock; CPU 2 calls spin_lock and must keep spinning
 * (LOCK_WAIT, counted by the hook) until CPU 1 unlocks.  The waits are on events: "CPU 2 spun
 * 1000 times" or "CPU 2 got the lock", whichever comes first.  Then FIFO: CPUs 2 and 3 queue in
 * that order behind CPU 1 and must get the lock in that order.  Found by the mutation campaign
 * (mutant c-ticket-no-wait survived every other technique).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#include <irqsync/irqsync.h>
#include "steps.h"		/* src/core: the step marks (internal) */

#ifndef IRQSYNC_STEP_HOOKS
#error "build lockcheck.c against a library built with -DIRQSYNC_STEP_HOOKS"
#endif

static spinlock_t lock = SPIN_LOCK_UNLOCKED;
static _Thread_local int who;
static _Atomic int waits[4], got[4], order[4], norder;
static int failed;

static int report(int ok, int n, const char *what)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", n, what);
	failed += !ok;
	return ok;
}

static void hook(enum irqsync_step step, unsigned int irq)
{
	(void)irq;
	if (step == IRQSYNC_STEP_LOCK_WAIT && who > 0 && who < 4)
		atomic_fetch_add(&waits[who], 1);
}

static void *cpu(void *arg)
{
	who = (int)(long)arg;
	spin_lock(&lock);
	atomic_store(&got[who], 1);
	atomic_store(&order[atomic_fetch_add(&norder, 1)], who);
	spin_unlock(&lock);
	return NULL;
}

/* Wait until CPU c spun n times or got the lock (no clock involved). */
static void wait_spin_or_got(int c, int n)
{
	while (atomic_load(&waits[c]) < n && !atomic_load(&got[c]))
		sched_yield();
}

int main(void)
{
	pthread_t t2, t3;
	int ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	(void)irqsync_set_step_hook(hook);
	who = 1;
	spin_lock(&lock);
	pthread_create(&t2, NULL, cpu, (void *)2L);
	wait_spin_or_got(2, 1000);
	ok = report(!atomic_load(&got[2]), 1, "a second CPU spins while the lock is held [REQ-LOCK-1]");
	if (!ok)
		printf("# CPU 2 acquired the lock while CPU 1 held it\n");
	pthread_create(&t3, NULL, cpu, (void *)3L);
	wait_spin_or_got(3, 1000);
	spin_unlock(&lock);
	pthread_join(t2, NULL);
	pthread_join(t3, NULL);
	(void)report(atomic_load(&got[2]) && atomic_load(&got[3]), 2,
		     "both waiters get the lock after the unlock [REQ-LOCK-1]");
	ok = report(atomic_load(&order[0]) == 2 && atomic_load(&order[1]) == 3, 3,
		    "waiters are served in ticket order [REQ-LOCK-2]");
	if (!ok)
		printf("# order: %d then %d\n", atomic_load(&order[0]), atomic_load(&order[1]));
	printf("1..3\n");
	return failed ? 1 : 0;
}

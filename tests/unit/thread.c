/*
 * thread.c - unit tests of the threaded handlers (spec/threaded.md, commit ae735d7):
 * request_threaded_irq and its refusals, the handler thread, folding, the waits of
 * synchronize_irq / disable_irq / free_irq for the thread episodes, synchronize_hardirq and
 * disable_hardirq, the refusals from the line's own thread, and IRQF_ONESHOT's line mask.
 *
 * Each bad call is checked to return its documented code and to leave the observable state
 * unchanged: every line's irq_stats and every warning counter (unit_util.h's world), plus the
 * thread state: each line's count of active episodes and ONESHOT mask, each thread channel's
 * claim, function, dev_id, mask bit and pending run (read under the line's lock from the
 * core's internal.h: the test build has -Isrc/core), and the number of the process's threads
 * (/proc/self/task: a refused request must not leave a handler thread behind).
 *
 * The case names cite REQ-THREAD-n and REQ-ONESHOT-n (spec/requirements.md) as the other REQ IDs.
 *
 * Waits: a thread_fn that must be held runs through a gate (permits the test hands out); every
 * "has happened" is waited for on a condition.  A bound on such a wait (wait_for, 10 s) only turns
 * a hang into a failure of the case; the few "has NOT returned yet" checks look after a short
 * sleep (50 ms): they can only miss an early return on a slow machine, never fail a correct one.
 *
 * The main thread is CPU 0 of the hosted port.  A helper that calls a waiting function attaches
 * as CPU 2 (call_start), so that it never shares CPU 0's per-CPU state with the main thread's
 * dispatch.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "check.h"
#include "unit_util.h"
#include "internal.h"	/* the thread state: irq_desc[], irqsync_threads[] (src/core) */

#define L1 1U	/* lines used by the tests */
#define L2 2U
#define L3 3U
#define HELPER_CPU 2U
#define WAIT_MS 10000L	/* the bound that turns a hang into a failure */
#define NEG_MS 50L	/* the sleep before a "has not returned yet" check */

static int dev_a, dev_b, dev_c, dev_d, dev_e;

/* ---- waiting on conditions ---- */

/* Wait until *@v >= @want; 1 when it did within @ms, else 0.  The bound only makes a hang a
 * failure: a correct run returns as soon as the condition holds. */
static int wait_for(atomic_int *v, int want, long ms)
{
	long i;

	for (i = 0; i < ms * 10; i++) {
		if (atomic_load(v) >= want)
			return 1;
		if ((i & 15) == 15) {
			struct timespec ts = { 0, 100000L };	/* 0.1 ms */

			nanosleep(&ts, NULL);
		} else {
			sched_yield();
		}
	}
	return atomic_load(v) >= want;
}

/* ---- the number of this process's threads (Linux) ---- */
static int nr_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* ---- the thread state (internal), and the whole world with it ---- */
struct tchan {
	unsigned int claimed, thread_bit, run_pending;
	irq_handler_t thread_fn;
	void *dev_id;
};
struct tworld {
	struct world w;
	unsigned int active[NR_IRQS];
	unsigned int oneshot_mask[NR_IRQS];
	unsigned int action_thread[NR_IRQS][IRQSYNC_MAX_SHARERS];
	struct tchan ch[IRQSYNC_THREAD_CHANNELS];
	int tasks;
};

static void tworld_get(struct tworld *t)
{
	unsigned int irq, k;
	irq_flags_t flags;

	memset(t, 0, sizeof(*t));
	world_get(&t->w);
	for (irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = &irq_desc[irq];

		spin_lock_irqsave(&desc->lock, flags);
		t->active[irq] = irqsync_atomic_read_acquire(&desc->threads_active);
		t->oneshot_mask[irq] = desc->oneshot_mask;
		for (k = 0; k < IRQSYNC_MAX_SHARERS; k++) {
			struct irq_thread *th = &irqsync_threads[irq * IRQSYNC_MAX_SHARERS + k];
			struct tchan *c = &t->ch[irq * IRQSYNC_MAX_SHARERS + k];

			t->action_thread[irq][k] = k < desc->nr_actions ? desc->action[k].thread : 0U;
			c->claimed = th->claimed;
			c->thread_bit = th->thread_bit;
			c->run_pending = irqsync_atomic_read_acquire(&th->run_pending);
			c->thread_fn = th->thread_fn;
			c->dev_id = th->dev_id;
		}
		spin_unlock_irqrestore(&desc->lock, flags);
	}
	t->tasks = nr_tasks();
}

static int tworld_same(const struct tworld *a, const struct tworld *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* Locked reads of one line's thread state. */
static unsigned int active_of(unsigned int irq)
{
	return irqsync_atomic_read_acquire(&irq_desc[irq].threads_active);
}

static unsigned int mask_of(unsigned int irq)
{
	irq_flags_t flags;
	unsigned int m;

	spin_lock_irqsave(&irq_desc[irq].lock, flags);
	m = irq_desc[irq].oneshot_mask;
	spin_unlock_irqrestore(&irq_desc[irq].lock, flags);
	return m;
}

/* The channel (1 + index) of action slot @k of @irq, 0 without a thread. */
static unsigned int thread_of(unsigned int irq, unsigned int k)
{
	irq_flags_t flags;
	unsigned int t;

	spin_lock_irqsave(&irq_desc[irq].lock, flags);
	t = k < irq_desc[irq].nr_actions ? irq_desc[irq].action[k].thread : 0U;
	spin_unlock_irqrestore(&irq_desc[irq].lock, flags);
	return t;
}

static struct irq_stats st(unsigned int irq)
{
	struct irq_stats s;

	memset(&s, 0, sizeof(s));
	(void)irq_stats(irq, &s);
	return s;
}

static struct irqsync_hosted_stats hs(unsigned int cpu)
{
	struct irqsync_hosted_stats s;

	memset(&s, 0, sizeof(s));
	(void)irqsync_hosted_stats(cpu, &s);
	return s;
}

/* ---- the gated thread function: each run takes a permit ---- */
static atomic_int g_started, g_finished, g_permits;
static atomic_int g_rec_n;
static void *g_dev[16];
static pthread_t g_tid[16];
static int g_irqs_off[16], g_getirq[16];
static int g_data;		/* a plain write of every run (REQ-THREAD-4) */
static atomic_int g_ask_irq;	/* gate_thread asks get_irqfunc_irq() */

static void gate_reset(int open)
{
	atomic_store(&g_started, 0);
	atomic_store(&g_finished, 0);
	atomic_store(&g_permits, open ? INT_MAX : 0);
	atomic_store(&g_rec_n, 0);
	atomic_store(&g_ask_irq, 0);
	g_data = 0;
}

static void gate_open(void)
{
	atomic_store(&g_permits, INT_MAX);
}

static irqreturn_t gate_thread(void *dev_id)
{
	int n = atomic_fetch_add(&g_started, 1);
	int r = atomic_fetch_add(&g_rec_n, 1);

	if (r < 16) {
		g_dev[r] = dev_id;
		g_tid[r] = pthread_self();
		g_irqs_off[r] = irqs_disabled();
		/* only when asked: it reads CPU 0's per-CPU state (thread_is_not_a_hard_handler_context) */
		g_getirq[r] = atomic_load(&g_ask_irq) ? get_irqfunc_irq() : INT_MIN;
	}
	while (atomic_load(&g_permits) <= n)
		sched_yield();
	g_data = n + 1;
	atomic_fetch_add(&g_finished, 1);
	return IRQ_HANDLED;
}

/* A second thread function, never held. */
static atomic_int t2_runs;
static void *t2_dev;
static irqreturn_t count_thread(void *dev_id)
{
	t2_dev = dev_id;
	atomic_fetch_add(&t2_runs, 1);
	return IRQ_HANDLED;
}

/* ---- primaries ---- */
static atomic_int prim_calls;
static _Atomic int prim_ret = IRQ_WAKE_THREAD;

static irqreturn_t primary(void *dev_id)
{
	(void)dev_id;
	atomic_fetch_add(&prim_calls, 1);
	return (irqreturn_t)atomic_load(&prim_ret);
}

static irqreturn_t handled_primary(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}

/* ---- warning hook ---- */
static atomic_int hook_calls, hook_code, hook_irq;

static void test_hook(enum irqsync_warn_code code, unsigned int irq)
{
	atomic_fetch_add(&hook_calls, 1);
	atomic_store(&hook_code, (int)code);
	atomic_store(&hook_irq, (int)irq);
}

/* Free every action left by a case that failed half-way (its threads would keep their
 * channels: irqsync_init does not stop them), then reset everything. */
static void reset(void)
{
	unsigned int irq;

	gate_open();
	for (irq = 0; irq < NR_IRQS; irq++)
		while (st(irq).nr_actions != 0U)
			if (free_irq(irq, irq_desc[irq].action[0].dev_id) != 0)
				break;
	irqsync_init();
	irqsync_hosted_reset();
	(void)irqsync_set_warn_hook(NULL);
	gate_reset(1);
	atomic_store(&prim_calls, 0);
	atomic_store(&prim_ret, IRQ_WAKE_THREAD);
	atomic_store(&t2_runs, 0);
	t2_dev = NULL;
	atomic_store(&hook_calls, 0);
	atomic_store(&hook_code, -1);
	atomic_store(&hook_irq, -1);
}

/* ---- a helper CPU that calls a waiting function ---- */
enum op { OP_SYNC, OP_SYNC_HARD, OP_DISABLE, OP_DISABLE_HARD, OP_FREE };
struct call {
	pthread_t tid;
	enum op op;
	unsigned int irq;
	void *dev_id;
	atomic_int done;
	int ret;
	int finished_at_return;		/* g_finished when the call returned */
	int data_at_return;		/* g_data, read after the return (REQ-THREAD-4) */
};

static void *call_main(void *arg)
{
	struct call *c = arg;

	if (irqsync_hosted_cpu_attach(HELPER_CPU) != 0) {
		c->ret = INT_MIN;
		atomic_store(&c->done, 1);
		return NULL;
	}
	switch (c->op) {
	case OP_SYNC:         c->ret = synchronize_irq(c->irq); break;
	case OP_SYNC_HARD:    c->ret = synchronize_hardirq(c->irq); break;
	case OP_DISABLE:      c->ret = disable_irq(c->irq); break;
	case OP_DISABLE_HARD: c->ret = disable_hardirq(c->irq); break;
	case OP_FREE:         c->ret = free_irq(c->irq, c->dev_id); break;
	}
	c->finished_at_return = atomic_load(&g_finished);
	/* the plain read only after a wait for the threads (REQ-THREAD-4); else it would race */
	if (c->op == OP_SYNC || c->op == OP_DISABLE || c->op == OP_FREE)
		c->data_at_return = g_data;
	irqsync_hosted_cpu_detach();
	atomic_store(&c->done, 1);
	return NULL;
}

static void call_start(struct call *c, enum op op, unsigned int irq, void *dev_id)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->irq = irq;
	c->dev_id = dev_id;
	CHECK_EQ(pthread_create(&c->tid, NULL, call_main, c), 0);
}

/* ==== request_threaded_irq: the refusals (state and threads unchanged) ==== */

/* A NULL primary is the default primary only with IRQF_ONESHOT (REQ-THREAD-2). */
TEST(threaded_null_primary_without_oneshot_refused)
{
	struct tworld before, after;

	reset();
	CHECK_EQ(request_threaded_irq(L2, primary, count_thread, IRQF_SHARED, "s", &dev_b), 0);
	tworld_get(&before);
	CHECK_EQ(request_threaded_irq(L1, NULL, gate_thread, 0, "n", &dev_a), -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, NULL, gate_thread, IRQF_SHARED, "n", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L2, NULL, gate_thread, IRQF_SHARED, "n", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, NULL, NULL, 0, "n", &dev_a), -IRQSYNC_EINVAL);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
	CHECK_EQ(free_irq(L2, &dev_b), 0);
}

/* IRQF_ONESHOT without a thread function is refused, whatever the primary (REQ-THREAD-2). */
TEST(threaded_oneshot_without_thread_fn_refused)
{
	struct tworld before, after;

	reset();
	tworld_get(&before);
	CHECK_EQ(request_threaded_irq(L1, primary, NULL, IRQF_ONESHOT, "o", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, NULL, NULL, IRQF_ONESHOT, "o", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, primary, NULL, IRQF_ONESHOT | IRQF_SHARED, "o",
				      &dev_a), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L1, primary, IRQF_ONESHOT, "o", &dev_a), -IRQSYNC_EINVAL);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
}

/* The checks request_irq makes hold for a threaded request too, and none starts a thread. */
TEST(threaded_request_bad_arguments_refused)
{
	static int devs[IRQSYNC_MAX_SHARERS + 1];
	struct tworld before, after;
	unsigned int i;

	reset();
	CHECK_EQ(request_threaded_irq(L2, primary, gate_thread, 0, "x", &dev_b), 0);
	for (i = 0; i < IRQSYNC_MAX_SHARERS; i++)
		CHECK_EQ(request_threaded_irq(L3, primary, count_thread, IRQF_SHARED, "s",
					      &devs[i]), 0);
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_SHARED, "s", &dev_c), 0);
	tworld_get(&before);
	/* a bad line, unknown flags, a shared request without dev_id */
	CHECK_EQ(request_threaded_irq(NR_IRQS, primary, gate_thread, 0, "b", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(UINT_MAX, NULL, gate_thread, IRQF_ONESHOT, "b", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0x1UL, "b", &dev_a),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED | 0x80000UL, "b",
				      &dev_a), -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED, "b", NULL),
		 -IRQSYNC_EINVAL);
	/* a duplicate shared dev_id; a non-shared request on a used line; a full pool */
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED, "b", &dev_c),
		 -IRQSYNC_EINVAL);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "b", &dev_a), -IRQSYNC_EBUSY);
	CHECK_EQ(request_threaded_irq(L2, primary, gate_thread, IRQF_SHARED, "b", &dev_a),
		 -IRQSYNC_EBUSY);
	CHECK_EQ(request_threaded_irq(L3, primary, gate_thread, IRQF_SHARED, "b",
				      &devs[IRQSYNC_MAX_SHARERS]), -IRQSYNC_ENOSPC);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
	CHECK_EQ(free_irq(L2, &dev_b), 0);
	CHECK_EQ(free_irq(L1, &dev_c), 0);
	for (i = 0; i < IRQSYNC_MAX_SHARERS; i++)
		CHECK_EQ(free_irq(L3, &devs[i]), 0);
}

/* Sharers agree on IRQF_ONESHOT, in both orders, else -EBUSY (REQ-THREAD-3). */
TEST(threaded_sharers_disagree_on_oneshot_busy)
{
	struct tworld before, after;

	reset();
	CHECK_EQ(request_threaded_irq(L1, NULL, gate_thread, IRQF_SHARED | IRQF_ONESHOT, "o",
				      &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L2, primary, gate_thread, IRQF_SHARED, "p", &dev_b), 0);
	CHECK_EQ(request_irq(L3, handled_primary, IRQF_SHARED, "plain", &dev_c), 0);
	tworld_get(&before);
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_SHARED, "x", &dev_d),
		 -IRQSYNC_EBUSY);
	CHECK_EQ(request_irq(L1, handled_primary, IRQF_SHARED, "x", &dev_d), -IRQSYNC_EBUSY);
	CHECK_EQ(request_threaded_irq(L2, primary, count_thread, IRQF_SHARED | IRQF_ONESHOT, "x",
				      &dev_d), -IRQSYNC_EBUSY);
	CHECK_EQ(request_threaded_irq(L3, NULL, count_thread, IRQF_SHARED | IRQF_ONESHOT, "x",
				      &dev_d), -IRQSYNC_EBUSY);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
	/* agreeing sharers join */
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_SHARED | IRQF_ONESHOT, "y",
				      &dev_d), 0);
	CHECK_EQ(request_threaded_irq(L2, primary, count_thread, IRQF_SHARED, "y", &dev_e), 0);
	CHECK_EQ(st(L1).nr_actions, 2);
	CHECK_EQ(st(L2).nr_actions, 2);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_d), 0);
	CHECK_EQ(free_irq(L2, &dev_b), 0);
	CHECK_EQ(free_irq(L2, &dev_e), 0);
	CHECK_EQ(free_irq(L3, &dev_c), 0);
}

/*
 * A line's thread channels stay claimed until free_irq has stopped the freed action's thread:
 * with four threaded sharers and a free_irq of one still waiting for its episode, the line has
 * three actions and no free channel: a threaded request is -EBUSY, nothing changed, no thread
 * started; a plain one (no channel) joins.  After the free, the channel is there again.
 */
TEST(threaded_request_while_free_under_way_busy)
{
	struct tworld before, after;
	struct call fr;

	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, handled_primary, count_thread, IRQF_SHARED, "a",
				      &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L1, handled_primary, count_thread, IRQF_SHARED, "b",
				      &dev_b), 0);
	CHECK_EQ(request_threaded_irq(L1, handled_primary, count_thread, IRQF_SHARED, "c",
				      &dev_c), 0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED, "d", &dev_d), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));	/* d's thread_fn runs, held */
	call_start(&fr, OP_FREE, L1, &dev_d);
	while (st(L1).nr_actions != 3U)			/* unlinked; the free now waits */
		sched_yield();
	tworld_get(&before);
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_SHARED, "e", &dev_e),
		 -IRQSYNC_EBUSY);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
	CHECK_EQ(atomic_load(&fr.done), 0);
	CHECK_EQ(request_irq(L1, handled_primary, IRQF_SHARED, "e", &dev_e), 0);
	gate_open();
	pthread_join(fr.tid, NULL);
	CHECK_EQ(fr.ret, 0);
	CHECK_EQ(free_irq(L1, &dev_e), 0);
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_SHARED, "e", &dev_e), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(free_irq(L1, &dev_c), 0);
	CHECK_EQ(free_irq(L1, &dev_e), 0);
}

/* ==== the thread ==== */

/* A primary's IRQ_WAKE_THREAD runs thread_fn once, in a thread of its own (not the CPU that
 * took the interrupt), with the action's dev_id and interrupts enabled; the pass counts as
 * handled.  IRQ_HANDLED and IRQ_NONE wake nothing. */
TEST(threaded_wake_runs_thread_fn_in_its_thread)
{
	int tasks0;

	reset();
	atomic_store(&g_ask_irq, 1);	/* CPU 0 dispatches nothing while the thread runs */
	tasks0 = nr_tasks();
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "t", &dev_a), 0);
	CHECK_EQ(nr_tasks(), tasks0 + 1);		/* started at the request (REQ-THREAD-8) */
	CHECK(thread_of(L1, 0) != 0U);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_finished), 1);
	CHECK(g_dev[0] == &dev_a);
	CHECK(!pthread_equal(g_tid[0], pthread_self()));
	CHECK_EQ(g_irqs_off[0], 0);
	CHECK_EQ(g_getirq[0], -IRQSYNC_ESRCH);		/* not handler context */
	atomic_store(&g_ask_irq, 0);
	CHECK_EQ(st(L1).handled, 1);
	CHECK_EQ(active_of(L1), 0);
	atomic_store(&prim_ret, IRQ_HANDLED);
	CHECK_EQ(handle_irq(L1), 0);
	atomic_store(&prim_ret, IRQ_NONE);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_started), 1);		/* no run for them */
	CHECK_EQ(st(L1).handled, 2);
	CHECK_EQ(st(L1).unhandled, 1);
	CHECK_EQ(atomic_load(&prim_calls), 3);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(nr_tasks(), tasks0);
}

/* request_threaded_irq(irq, NULL, fn, IRQF_ONESHOT): the default primary wakes the thread at
 * every interrupt; the line is unmasked after the run (REQ-THREAD-2, REQ-ONESHOT-3). */
TEST(threaded_default_primary_with_oneshot)
{
	reset();
	CHECK_EQ(request_threaded_irq(L1, NULL, gate_thread, IRQF_ONESHOT, "d", &dev_a), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* CPU 0: delivered at once */
	CHECK(wait_for(&g_finished, 1, WAIT_MS));
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK(g_dev[0] == &dev_a);
	CHECK_EQ(st(L1).handled, 1);
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* unmasked: delivered, not held */
	CHECK(wait_for(&g_finished, 2, WAIT_MS));
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(hs(0).delivered, 2);
	CHECK_EQ(hs(0).held, 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* IRQ_WAKE_THREAD from an action without a thread (request_irq) counts as handled only. */
TEST(wake_thread_without_thread_counts_handled)
{
	struct tworld before, after;

	reset();
	CHECK_EQ(request_irq(L1, primary, 0, "p", &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L2, primary, NULL, 0, "p", &dev_b), 0);	/* = request_irq */
	CHECK_EQ(thread_of(L1, 0), 0);
	CHECK_EQ(thread_of(L2, 0), 0);
	tworld_get(&before);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L2), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	tworld_get(&after);
	CHECK_EQ(after.w.line[L1].handled, 1);
	CHECK_EQ(after.w.line[L2].handled, 1);
	after.w.line[L1].handled = after.w.line[L2].handled = 0;
	CHECK(tworld_same(&before, &after));		/* no count, no run, no thread */
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L2, &dev_b), 0);
}

/* Wake-ups while a run is pending fold into one episode: one increment, one run (REQ-THREAD-7).
 * The thread is held in its first run; five more interrupts make one episode, not five. */
TEST(threaded_wakes_fold_into_one_run)
{
	unsigned int ch;
	int i;

	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "f", &dev_a), 0);
	ch = thread_of(L1, 0) - 1U;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));	/* run 1 took its episode, held */
	CHECK_EQ(active_of(L1), 1);
	for (i = 0; i < 5; i++)
		CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(atomic_load(&prim_calls), 6);
	CHECK_EQ(active_of(L1), 2);			/* run 1 + one pending episode */
	CHECK_EQ(irqsync_atomic_read_acquire(&irqsync_threads[ch].run_pending), 1);
	CHECK_EQ(st(L1).handled, 6);
	gate_open();
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_finished), 2);		/* two runs, not six */
	CHECK_EQ(atomic_load(&g_started), 2);
	CHECK_EQ(active_of(L1), 0);
	CHECK_EQ(irqsync_atomic_read_acquire(&irqsync_threads[ch].run_pending), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(atomic_load(&g_started), 2);
}

/* ==== the waits ==== */

/* synchronize_irq (or disable_irq) waits for the running thread_fn, and its caller sees the
 * thread_fn's writes on return (REQ-THREAD-1, REQ-THREAD-4). */
static void check_waits_for_thread(enum op op)
{
	struct call c;

	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "w", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));
	CHECK_EQ(st(L1).status & IRQS_INPROGRESS, 0);	/* no hard instance: only the thread */
	call_start(&c, op, L1, NULL);
	sleep_ms(NEG_MS);	/* an early return shows here; a late one cannot fail the check */
	CHECK_EQ(atomic_load(&c.done), 0);
	CHECK_EQ(active_of(L1), 1);
	gate_open();
	pthread_join(c.tid, NULL);
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 1);
	CHECK_EQ(c.data_at_return, 1);			/* the thread_fn's plain write */
	if (op == OP_DISABLE) {
		CHECK_EQ(st(L1).depth, 1);
		CHECK_EQ(enable_irq(L1), 0);
	}
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

TEST(threaded_synchronize_irq_waits_for_thread_fn) { check_waits_for_thread(OP_SYNC); }
TEST(threaded_disable_irq_waits_for_thread_fn) { check_waits_for_thread(OP_DISABLE); }

/* synchronize_hardirq: -EINVAL for a bad line, 1 on an idle line, 0 while a thread episode is
 * active, without waiting for it; it still waits for a hard instance (REQ-THREAD-9). */
static atomic_int hard_running, hard_release, hard_calls;
static irqreturn_t hard_held_primary(void *dev_id)
{
	(void)dev_id;
	if (atomic_fetch_add(&hard_calls, 1) == 0) {
		atomic_store(&hard_running, 1);
		while (!atomic_load(&hard_release))
			sched_yield();
		atomic_store(&hard_running, 0);
	}
	return IRQ_WAKE_THREAD;
}

TEST(threaded_synchronize_hardirq_result_and_no_thread_wait)
{
	struct world before, after;
	struct call c;
	struct cpu_thread cpu1;

	reset();
	world_get(&before);
	CHECK_EQ(synchronize_hardirq(NR_IRQS), -IRQSYNC_EINVAL);
	CHECK_EQ(synchronize_hardirq(UINT_MAX), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
	CHECK_EQ(synchronize_hardirq(L1), 1);		/* no action */
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "h", &dev_a), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);		/* idle */
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));
	/* The episode is active: 0, at once (a wait for the thread would need the gate). */
	call_start(&c, OP_SYNC_HARD, L1, NULL);
	CHECK(wait_for(&c.done, 1, WAIT_MS));
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 0);
	CHECK_EQ(atomic_load(&g_finished), 0);
	gate_open();
	pthread_join(c.tid, NULL);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);

	/* The hard wait: a primary held on CPU 1 keeps synchronize_hardirq waiting. */
	atomic_store(&hard_running, 0);
	atomic_store(&hard_release, 0);
	atomic_store(&hard_calls, 0);
	CHECK_EQ(request_threaded_irq(L1, hard_held_primary, gate_thread, 0, "h", &dev_a), 0);
	if (cpu_thread_start(&cpu1, 1) != 0) {
		CHECK(!"could not start CPU 1");
		return;
	}
	CHECK_EQ(irqsync_hosted_route(L1, 1), 0);
	CHECK(irqsync_hosted_raise(L1) >= 0);
	CHECK(wait_for(&hard_running, 1, WAIT_MS));
	call_start(&c, OP_SYNC_HARD, L1, NULL);
	sleep_ms(NEG_MS);	/* an early return shows here; a late one cannot fail the check */
	CHECK_EQ(atomic_load(&c.done), 0);
	atomic_store(&hard_release, 1);
	pthread_join(c.tid, NULL);
	CHECK(c.ret == 0 || c.ret == 1);		/* the thread may have run already */
	CHECK_EQ(atomic_load(&hard_running), 0);
	while (st(L1).status & IRQS_INPROGRESS)
		sched_yield();
	cpu_thread_stop(&cpu1);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* disable_hardirq: disable_irq_nosync then synchronize_hardirq, its result; its errors leave
 * everything unchanged (REQ-THREAD-9, REQ-DEPTH-1, REQ-DEPTH-5). */
TEST(threaded_disable_hardirq)
{
	struct tworld before, after;
	struct call c;
	unsigned int i;

	reset();
	tworld_get(&before);
	CHECK_EQ(disable_hardirq(NR_IRQS), -IRQSYNC_EINVAL);
	CHECK_EQ(disable_hardirq(UINT_MAX), -IRQSYNC_EINVAL);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));

	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "h", &dev_a), 0);
	CHECK_EQ(disable_hardirq(L1), 1);		/* idle: 1 */
	CHECK_EQ(st(L1).depth, 1);
	CHECK(st(L1).status & IRQS_DISABLED);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));
	call_start(&c, OP_DISABLE_HARD, L1, NULL);
	CHECK(wait_for(&c.done, 1, WAIT_MS));		/* no wait for the held thread */
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(atomic_load(&g_finished), 0);
	CHECK_EQ(st(L1).depth, 1);
	gate_open();
	pthread_join(c.tid, NULL);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(enable_irq(L1), 0);

	/* at the depth bound: -EOVERFLOW, nothing changed */
	for (i = 0; i < IRQSYNC_DEPTH_MAX; i++)
		CHECK_EQ(disable_irq_nosync(L1), 0);
	tworld_get(&before);
	CHECK_EQ(disable_hardirq(L1), -IRQSYNC_EOVERFLOW);
	tworld_get(&after);
	CHECK(tworld_same(&before, &after));
	for (i = 0; i < IRQSYNC_DEPTH_MAX; i++)
		CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* From the line's own hard handler, synchronize_hardirq and disable_hardirq would wait for
 * themselves: -EDEADLK, warned, nothing changed (REQ-ERR-4, REQ-THREAD-9). */
static int hard_self_ret[3];
static irqreturn_t hard_self_primary(void *dev_id)
{
	struct tworld before, after;

	(void)dev_id;
	tworld_get(&before);
	hard_self_ret[0] = synchronize_hardirq(L1);
	hard_self_ret[1] = disable_hardirq(L1);
	tworld_get(&after);
	after.w.warn[IRQSYNC_WARN_SELF_DEADLOCK] -= 2;
	hard_self_ret[2] = tworld_same(&before, &after);
	return IRQ_HANDLED;
}

TEST(hardirq_waits_from_own_handler_refused)
{
	reset();
	memset(hard_self_ret, 0, sizeof(hard_self_ret));
	CHECK_EQ(request_threaded_irq(L1, hard_self_primary, count_thread, 0, "s", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(hard_self_ret[0], -IRQSYNC_EDEADLK);
	CHECK_EQ(hard_self_ret[1], -IRQSYNC_EDEADLK);
	CHECK_EQ(hard_self_ret[2], 1);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_SELF_DEADLOCK), 2);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* free_irq waits for the line's thread episodes, the one counted while the thread ran
 * included, then stops the thread: its thread_fn never runs again (REQ-THREAD-6, REQ-THREAD-8). */
TEST(threaded_free_irq_waits_then_stops_thread)
{
	struct call c;
	int tasks0;

	reset();
	gate_reset(0);
	tasks0 = nr_tasks();
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "f", &dev_a), 0);
	CHECK_EQ(nr_tasks(), tasks0 + 1);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));	/* run 1, held */
	CHECK_EQ(handle_irq(L1), 0);			/* a second episode, counted */
	CHECK_EQ(active_of(L1), 2);
	call_start(&c, OP_FREE, L1, &dev_a);
	while (st(L1).nr_actions != 0U)
		sched_yield();
	sleep_ms(NEG_MS);	/* an early return shows here; a late one cannot fail the check */
	CHECK_EQ(atomic_load(&c.done), 0);
	gate_open();
	pthread_join(c.tid, NULL);
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 2);		/* the counted episode ran first */
	CHECK_EQ(active_of(L1), 0);
	CHECK_EQ(nr_tasks(), tasks0);			/* the thread has ended */
	CHECK_EQ(irqsync_threads[L1 * IRQSYNC_MAX_SHARERS].claimed, 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);			/* no action: counted, nothing runs */
	CHECK_EQ(st(L1).unhandled, 1);
	CHECK_EQ(atomic_load(&g_started), 2);
	CHECK_EQ(atomic_load(&prim_calls), 2);
}

/* After free_irq, a request takes the line's channel again, with its own thread_fn and dev_id,
 * and a new thread. */
TEST(threaded_request_after_free_reuses_channel)
{
	unsigned int ch;
	int tasks0;

	reset();
	tasks0 = nr_tasks();
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0, "1", &dev_a), 0);
	ch = thread_of(L1, 0);
	CHECK_EQ(ch, L1 * IRQSYNC_MAX_SHARERS + 1U);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_finished), 1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(nr_tasks(), tasks0);
	CHECK_EQ(request_threaded_irq(L1, primary, count_thread, IRQF_ONESHOT, "2", &dev_b), 0);
	CHECK_EQ(thread_of(L1, 0), ch);
	CHECK_EQ(nr_tasks(), tasks0 + 1);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&t2_runs), 1);
	CHECK(t2_dev == &dev_b);
	CHECK_EQ(atomic_load(&g_finished), 1);		/* the old thread_fn: not again */
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(nr_tasks(), tasks0);
}

/* A shared line with a threaded and a plain action: both primaries run in order, only the
 * threaded one's thread runs; each can be freed alone. */
static void *plain_dev[8];
static atomic_int plain_n;
static irqreturn_t plain_handler(void *dev_id)
{
	int n = atomic_fetch_add(&plain_n, 1);

	if (n < 8)
		plain_dev[n] = dev_id;
	return IRQ_WAKE_THREAD;		/* no thread: counts as handled only */
}

TEST(threaded_shared_with_plain_action)
{
	int tasks0;

	reset();
	atomic_store(&plain_n, 0);
	tasks0 = nr_tasks();
	CHECK_EQ(request_irq(L1, plain_handler, IRQF_SHARED, "plain", &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED, "thr", &dev_b), 0);
	CHECK_EQ(nr_tasks(), tasks0 + 1);
	CHECK_EQ(thread_of(L1, 0), 0);
	CHECK(thread_of(L1, 1) != 0U);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&plain_n), 1);
	CHECK_EQ(atomic_load(&prim_calls), 1);
	CHECK_EQ(atomic_load(&g_finished), 1);
	CHECK(g_dev[0] == &dev_b);
	CHECK_EQ(st(L1).handled, 1);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(nr_tasks(), tasks0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(atomic_load(&plain_n), 2);
	CHECK(plain_dev[1] == &dev_a);
	CHECK_EQ(atomic_load(&g_started), 1);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_SHARED, "thr", &dev_b), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);		/* the plain one goes first */
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&plain_n), 2);
	CHECK_EQ(atomic_load(&g_finished), 2);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(nr_tasks(), tasks0);
}

/* ==== calls from the line's own thread (REQ-THREAD-5) ==== */
static int self_ret[12];
static irqreturn_t self_thread(void *dev_id)
{
	struct tworld before, after;

	tworld_get(&before);
	self_ret[0] = synchronize_irq(L1);
	self_ret[1] = disable_irq(L1);
	self_ret[2] = free_irq(L1, dev_id);
	tworld_get(&after);
	self_ret[3] = (int)(after.w.warn[IRQSYNC_WARN_SELF_DEADLOCK] -
			    before.w.warn[IRQSYNC_WARN_SELF_DEADLOCK]);
	after.w.warn[IRQSYNC_WARN_SELF_DEADLOCK] = before.w.warn[IRQSYNC_WARN_SELF_DEADLOCK];
	self_ret[4] = tworld_same(&before, &after);
	/* allowed: they do not wait for the threads */
	self_ret[5] = synchronize_hardirq(L1);		/* 0: this episode is active */
	self_ret[6] = disable_hardirq(L1);
	self_ret[7] = disable_irq_nosync(L1);
	self_ret[8] = (int)st(L1).depth;
	self_ret[9] = enable_irq(L1);
	self_ret[10] = enable_irq(L1);
	self_ret[11] = synchronize_irq(L2);		/* another line */
	return IRQ_HANDLED;
}

TEST(threaded_self_wait_from_own_thread_refused)
{
	reset();
	memset(self_ret, 0x55, sizeof(self_ret));
	(void)irqsync_set_warn_hook(test_hook);
	CHECK_EQ(request_irq(L2, handled_primary, 0, "other", &dev_b), 0);
	CHECK_EQ(request_threaded_irq(L1, primary, self_thread, 0, "self", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);		/* outside the thread: waits for it */
	CHECK_EQ(self_ret[0], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[1], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[2], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[3], 3);
	CHECK_EQ(self_ret[4], 1);
	CHECK_EQ(self_ret[5], 0);
	CHECK_EQ(self_ret[6], 0);
	CHECK_EQ(self_ret[7], 0);
	CHECK_EQ(self_ret[8], 2);
	CHECK_EQ(self_ret[9], 0);
	CHECK_EQ(self_ret[10], 0);
	CHECK_EQ(self_ret[11], 0);
	CHECK_EQ(atomic_load(&hook_calls), 3);
	CHECK_EQ(atomic_load(&hook_code), IRQSYNC_WARN_SELF_DEADLOCK);
	CHECK_EQ(atomic_load(&hook_irq), (int)L1);
	CHECK_EQ(st(L1).nr_actions, 1);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status, 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);		/* outside the thread: allowed */
	CHECK_EQ(free_irq(L2, &dev_b), 0);
}

/*
 * A handler thread is no CPU and runs no hard handler: in it, get_irqfunc_irq is -ESRCH
 * (REQ-HANDLER-2) and a wait on another line is not a wait on itself (REQ-ERR-4 refuses only
 * from that line's handler, REQ-THREAD-5 only from its threads) -- whatever CPU 0 runs meanwhile.
 * Here CPU 0 runs L2's handler while L1's thread asks; L2's handler ends by itself after a
 * while if nothing comes (the thread's synchronize_irq(L2) must wait for that end).
 */
static atomic_int l2_state, probe_done;
static int probe_irq, probe_sync, probe_sync_after_end;
static irqreturn_t probe_thread(void *dev_id)
{
	(void)dev_id;
	if (!wait_for(&l2_state, 1, WAIT_MS))
		return IRQ_HANDLED;
	probe_irq = get_irqfunc_irq();
	probe_sync = synchronize_irq(L2);
	probe_sync_after_end = atomic_load(&l2_state) == 2;
	atomic_store(&probe_done, 1);
	return IRQ_HANDLED;
}

static irqreturn_t l2_handler(void *dev_id)
{
	(void)dev_id;
	atomic_store(&l2_state, 1);
	(void)wait_for(&probe_done, 1, 300);		/* bounded: the probe may wait for us */
	atomic_store(&l2_state, 2);
	return IRQ_HANDLED;
}

TEST(thread_is_not_a_hard_handler_context)
{
	reset();
	atomic_store(&l2_state, 0);
	atomic_store(&probe_done, 0);
	probe_irq = probe_sync = probe_sync_after_end = 0x55;
	CHECK_EQ(request_threaded_irq(L1, primary, probe_thread, 0, "probe", &dev_a), 0);
	CHECK_EQ(request_irq(L2, l2_handler, 0, "l2", &dev_b), 0);
	CHECK_EQ(handle_irq(L1), 0);			/* the probe waits for L2's handler */
	CHECK_EQ(handle_irq(L2), 0);			/* CPU 0 serves L2 meanwhile */
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&probe_done), 1);
	CHECK_EQ(probe_irq, -IRQSYNC_ESRCH);
	CHECK_EQ(probe_sync, 0);
	CHECK_EQ(probe_sync_after_end, 1);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_SELF_DEADLOCK), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L2, &dev_b), 0);
}

/* ==== IRQF_ONESHOT ==== */

/* The line stays masked at the controller while the thread runs: an interrupt raised meanwhile
 * is held by the port, not dispatched, and delivered after the run, which unmasks the line
 * (REQ-ONESHOT-1, REQ-ONESHOT-3). */
TEST(oneshot_line_masked_while_thread_runs)
{
	unsigned int bit;

	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_ONESHOT, "o", &dev_a), 0);
	bit = irqsync_threads[thread_of(L1, 0) - 1U].thread_bit;
	CHECK(bit != 0U);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));
	CHECK_EQ(mask_of(L1), bit);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* masked: held by the port */
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(hs(0).delivered, 1);
	CHECK_EQ(atomic_load(&prim_calls), 1);
	CHECK_EQ(st(L1).status & IRQS_PENDING, 0);	/* not even seen by the core */
	atomic_store(&g_permits, 1);			/* run 1 ends: unmask, the held one comes */
	CHECK(wait_for(&prim_calls, 2, WAIT_MS));
	CHECK(wait_for(&g_started, 2, WAIT_MS));
	CHECK_EQ(mask_of(L1), bit);			/* masked again for run 2 */
	gate_open();
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_finished), 2);
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(hs(0).delivered, 2);
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* unmasked */
	CHECK(wait_for(&g_finished, 3, WAIT_MS));
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* A threaded action that is not ONESHOT has no bit in the line's mask: its wake-up leaves the
 * mask empty while its thread runs, and an interrupt meanwhile is delivered, not held
 * (REQ-ONESHOT-3; 52abb700e16a gave such an action a bit). */
TEST(plain_threaded_action_has_no_mask_bit)
{
	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, 0UL, "t", &dev_a), 0);
	CHECK_EQ(irqsync_threads[thread_of(L1, 0) - 1U].thread_bit, 0U);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));
	CHECK_EQ(mask_of(L1), 0U);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* not masked: delivered at once */
	CHECK(wait_for(&prim_calls, 2, WAIT_MS));
	CHECK_EQ(hs(0).held, 0);
	gate_open();
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(mask_of(L1), 0U);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* The line is masked BEFORE its primaries run: an interrupt taken by CPU 0 while CPU 1 runs
 * the primary is held by the port, not made PENDING for a replay (REQ-ONESHOT-1). */
static atomic_int once_running, once_release, once_calls;
static irqreturn_t block_once_primary(void *dev_id)
{
	(void)dev_id;
	if (atomic_fetch_add(&once_calls, 1) == 0) {
		atomic_store(&once_running, 1);
		while (!atomic_load(&once_release))
			sched_yield();
		atomic_store(&once_running, 0);
	}
	return IRQ_WAKE_THREAD;
}

TEST(oneshot_masked_before_primaries_run)
{
	struct cpu_thread cpu1;

	reset();
	atomic_store(&once_running, 0);
	atomic_store(&once_release, 0);
	atomic_store(&once_calls, 0);
	CHECK_EQ(request_threaded_irq(L1, block_once_primary, gate_thread, IRQF_ONESHOT, "o",
				      &dev_a), 0);
	if (cpu_thread_start(&cpu1, 1) != 0) {
		CHECK(!"could not start CPU 1");
		return;
	}
	CHECK_EQ(irqsync_hosted_route(L1, 1), 0);
	CHECK(irqsync_hosted_raise(L1) >= 0);
	CHECK(wait_for(&once_running, 1, WAIT_MS));	/* CPU 1 in the primary */
	CHECK_EQ(irqsync_hosted_raise_on(L1, 0), 0);	/* CPU 0 takes the next one */
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(hs(0).delivered, 0);
	CHECK_EQ(st(L1).status & IRQS_PENDING, 0);
	atomic_store(&once_release, 1);
	CHECK(wait_for(&once_calls, 2, WAIT_MS));	/* after the run: delivered on CPU 0 */
	CHECK(wait_for(&g_finished, 2, WAIT_MS));
	while (st(L1).status & IRQS_INPROGRESS)
		sched_yield();
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&once_calls), 2);
	CHECK_EQ(hs(0).delivered, 1);
	CHECK_EQ(st(L1).handled, 2);
	cpu_thread_stop(&cpu1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/*
 * A thread that ends its run while a new run is pending keeps its mask bit: the line stays
 * masked until the pending run has run (REQ-ONESHOT-2, REQ-ONESHOT-3).  The pending run comes from an
 * arrival the core got while the first run was under way -- on hardware, an instance's replay
 * pass of an interrupt taken before the mask; here a direct handle_irq.
 */
TEST(oneshot_bit_kept_while_run_pending)
{
	unsigned int bit;

	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_ONESHOT, "o", &dev_a), 0);
	bit = irqsync_threads[thread_of(L1, 0) - 1U].thread_bit;
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));	/* run 1, held */
	CHECK_EQ(handle_irq(L1), 0);			/* run 2 pending */
	CHECK_EQ(active_of(L1), 2);
	atomic_store(&g_permits, 1);			/* run 1 ends, run 2 starts, held */
	CHECK(wait_for(&g_started, 2, WAIT_MS));
	CHECK_EQ(atomic_load(&g_finished), 1);
	CHECK_EQ(mask_of(L1), bit);			/* kept */
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* still masked: held */
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(atomic_load(&prim_calls), 2);
	gate_open();					/* run 2 ends: unmask, the held one comes */
	CHECK(wait_for(&prim_calls, 3, WAIT_MS));
	CHECK(wait_for(&g_finished, 3, WAIT_MS));
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(active_of(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* Two ONESHOT sharers woken by one interrupt: the line is unmasked when the LAST of their
 * threads has run, never while one bit is set (REQ-ONESHOT-3). */
TEST(oneshot_shared_unmasked_after_last_thread)
{
	reset();
	gate_reset(0);
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_ONESHOT | IRQF_SHARED, "a",
				      &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L1, NULL, count_thread, IRQF_ONESHOT | IRQF_SHARED, "b",
				      &dev_b), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK(wait_for(&g_started, 1, WAIT_MS));	/* a's run, held */
	CHECK(wait_for(&t2_runs, 1, WAIT_MS));		/* b's run ... */
	while (mask_of(L1) != irqsync_threads[thread_of(L1, 0) - 1U].thread_bit)
		sched_yield();				/* ... and its finalisation */
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* a's bit: still masked */
	CHECK_EQ(hs(0).held, 1);
	CHECK_EQ(atomic_load(&prim_calls), 1);
	gate_open();
	CHECK(wait_for(&prim_calls, 2, WAIT_MS));
	CHECK(wait_for(&t2_runs, 2, WAIT_MS));
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&g_finished), 2);
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
}

/* A ONESHOT line whose primaries woke no thread is unmasked at the end of the instance
 * (REQ-ONESHOT-4): the next interrupt is delivered, not held. */
TEST(oneshot_no_wake_unmasked_at_end)
{
	reset();
	CHECK_EQ(request_threaded_irq(L1, primary, gate_thread, IRQF_ONESHOT, "o", &dev_a), 0);
	atomic_store(&prim_ret, IRQ_HANDLED);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	atomic_store(&prim_ret, IRQ_NONE);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(atomic_load(&prim_calls), 4);
	CHECK_EQ(hs(0).delivered, 4);
	CHECK_EQ(hs(0).held, 0);
	CHECK_EQ(atomic_load(&g_started), 0);
	CHECK_EQ(st(L1).handled, 2);
	CHECK_EQ(st(L1).unhandled, 2);
	CHECK_EQ(mask_of(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (irqsync_hosted_cpu_attach(0) != 0) {
		printf("not ok 1 - attach main thread as CPU 0\n1..1\n");
		return 1;
	}
	RUN_REQ(threaded_null_primary_without_oneshot_refused, "REQ-THREAD-2 REQ-ERR-2");
	RUN_REQ(threaded_oneshot_without_thread_fn_refused, "REQ-THREAD-2 REQ-ERR-2");
	RUN_REQ(threaded_request_bad_arguments_refused,
		"REQ-ERR-1 REQ-ERR-2 REQ-LIFECYCLE-2 REQ-LIFECYCLE-3 REQ-LIFECYCLE-6");
	RUN_REQ(threaded_sharers_disagree_on_oneshot_busy, "REQ-THREAD-3 REQ-LIFECYCLE-2");
	RUN_REQ(threaded_request_while_free_under_way_busy, "REQ-THREAD-6 REQ-LIFECYCLE-2");
	RUN_REQ(threaded_wake_runs_thread_fn_in_its_thread, "REQ-THREAD-8 REQ-DISPATCH-5");
	RUN_REQ(threaded_default_primary_with_oneshot, "REQ-THREAD-2 REQ-ONESHOT-3");
	RUN_REQ(wake_thread_without_thread_counts_handled, "REQ-DISPATCH-5");
	RUN_REQ(threaded_wakes_fold_into_one_run, "REQ-THREAD-7 REQ-THREAD-8");
	RUN_REQ(threaded_synchronize_irq_waits_for_thread_fn, "REQ-THREAD-1 REQ-THREAD-4");
	RUN_REQ(threaded_disable_irq_waits_for_thread_fn, "REQ-THREAD-1 REQ-THREAD-4 REQ-DEPTH-1");
	RUN_REQ(threaded_synchronize_hardirq_result_and_no_thread_wait,
		"REQ-THREAD-9 REQ-SYNC-1 REQ-ERR-1");
	RUN_REQ(threaded_disable_hardirq, "REQ-THREAD-9 REQ-DEPTH-1 REQ-DEPTH-5 REQ-ERR-1");
	RUN_REQ(hardirq_waits_from_own_handler_refused, "REQ-ERR-4 REQ-THREAD-9");
	RUN_REQ(threaded_free_irq_waits_then_stops_thread, "REQ-THREAD-6 REQ-THREAD-8 REQ-LIFECYCLE-5");
	RUN_REQ(threaded_request_after_free_reuses_channel, "REQ-THREAD-6 REQ-LIFECYCLE-1");
	RUN_REQ(threaded_shared_with_plain_action, "REQ-DISPATCH-4 REQ-LIFECYCLE-4");
	RUN_REQ(threaded_self_wait_from_own_thread_refused, "REQ-THREAD-5 REQ-ERR-4 REQ-DEPTH-2");
	RUN_REQ(thread_is_not_a_hard_handler_context, "REQ-HANDLER-2 REQ-ERR-4 REQ-THREAD-5");
	RUN_REQ(oneshot_line_masked_while_thread_runs, "REQ-ONESHOT-1 REQ-ONESHOT-3");
	RUN_REQ(oneshot_masked_before_primaries_run, "REQ-ONESHOT-1");
	RUN_REQ(oneshot_bit_kept_while_run_pending, "REQ-ONESHOT-2 REQ-ONESHOT-3");
	RUN_REQ(oneshot_shared_unmasked_after_last_thread, "REQ-ONESHOT-3");
	RUN_REQ(oneshot_no_wake_unmasked_at_end, "REQ-ONESHOT-4");
	RUN_REQ(plain_threaded_action_has_no_mask_bit, "REQ-ONESHOT-3");
	return check_done();
}

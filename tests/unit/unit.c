/*
 * unit.c - unit tests of every public function and every error path.
 *
 * Each bad call is checked to return its documented code, to leave the
 * whole observable state (every line's irq_stats, every warning counter)
 * unchanged except for the warning it must report.  REQ IDs per case.
 * The main thread is CPU 0 of the hosted port; a few cases start more CPUs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "check.h"
#include "unit_util.h"

#define L1 1U	/* lines used by the tests */
#define L2 2U
#define L3 3U

static int dev_a, dev_b, dev_c, dev_d, dev_e;

/* ---- recording handlers ---- */
static void *log_dev[64];
static int log_n;
static int log_irq[64];
static int log_disabled[64];
static irqreturn_t next_ret = IRQ_HANDLED;

static void log_reset(void)
{
	log_n = 0;
	next_ret = IRQ_HANDLED;
}

static irqreturn_t rec_handler(void *dev_id)
{
	if (log_n < 64) {
		log_dev[log_n] = dev_id;
		log_irq[log_n] = get_irqfunc_irq();
		log_disabled[log_n] = irqs_disabled();
		log_n++;
	}
	return next_ret;
}

static irqreturn_t none_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_NONE;
}

static irqreturn_t handled_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}

static struct irq_stats st(unsigned int irq)
{
	struct irq_stats s;

	memset(&s, 0, sizeof(s));
	(void)irq_stats(irq, &s);
	return s;
}

static void reset(void)
{
	irqsync_init();
	irqsync_hosted_reset();
	(void)irqsync_set_warn_hook(NULL);
	log_reset();
}

/* ---- warning hook ---- */
static int hook_calls, hook_code;
static unsigned int hook_irq;

static void test_hook(enum irqsync_warn_code code, unsigned int irq)
{
	hook_calls++;
	hook_code = (int)code;
	hook_irq = irq;
}

TEST(errno_table)
{
	CHECK_EQ(IRQSYNC_ENOENT, ENOENT);
	CHECK_EQ(IRQSYNC_ESRCH, ESRCH);
	CHECK_EQ(IRQSYNC_EBUSY, EBUSY);
	CHECK_EQ(IRQSYNC_EINVAL, EINVAL);
	CHECK_EQ(IRQSYNC_ENOSPC, ENOSPC);
	CHECK_EQ(IRQSYNC_EDEADLK, EDEADLK);
	CHECK_EQ(IRQSYNC_EOVERFLOW, EOVERFLOW);
}

TEST(init_state)
{
	unsigned int i;

	reset();
	for (i = 0; i < NR_IRQS; i++) {
		struct irq_stats s = st(i);

		CHECK_EQ(s.nr_actions, 0);
		CHECK_EQ(s.depth, 1);
		CHECK_EQ(s.status, IRQS_DISABLED);
		CHECK_EQ(s.handled, 0);
		CHECK_EQ(s.unhandled, 0);
	}
	for (i = 0; i < IRQSYNC_WARN_NR_CODES; i++)
		CHECK_EQ(irqsync_warn_count((int)i), 0);
}

/* Every function taking an irq rejects irq >= NR_IRQS and a "negative" one. */
TEST(bad_irq_every_function)
{
	static const unsigned int bad[] = { NR_IRQS, NR_IRQS + 1U, UINT_MAX, (unsigned int)-1 };
	struct world before, after;
	struct irq_stats s;
	unsigned int i;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	world_get(&before);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(request_irq(bad[i], rec_handler, 0, "x", &dev_b), -IRQSYNC_EINVAL);
		CHECK_EQ(free_irq(bad[i], &dev_a), -IRQSYNC_EINVAL);
		CHECK_EQ(disable_irq(bad[i]), -IRQSYNC_EINVAL);
		CHECK_EQ(disable_irq_nosync(bad[i]), -IRQSYNC_EINVAL);
		CHECK_EQ(enable_irq(bad[i]), -IRQSYNC_EINVAL);
		CHECK_EQ(synchronize_irq(bad[i]), -IRQSYNC_EINVAL);
		CHECK_EQ(handle_irq(bad[i]), -IRQSYNC_EINVAL);
		CHECK_EQ(irq_stats(bad[i], &s), -IRQSYNC_EINVAL);
	}
	world_get(&after);
	CHECK(world_same(&before, &after));
	CHECK_EQ(log_n, 0);
}

TEST(request_installs)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 1);
	CHECK_EQ(s.depth, 0);
	CHECK_EQ(s.status & IRQS_DISABLED, 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 1);
	CHECK(log_dev[0] == &dev_a);
	CHECK_EQ(st(L1).handled, 1);
	/* Other lines untouched. */
	CHECK_EQ(st(L2).status, IRQS_DISABLED);
	/* Exclusive line: NULL dev_id is allowed. */
	CHECK_EQ(request_irq(L2, rec_handler, 0, NULL, NULL), 0);
	CHECK_EQ(free_irq(L2, NULL), 0);
}

TEST(request_bad_arguments)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "a", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L2, NULL, 0, "n", &dev_b), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L2, rec_handler, 0x1UL, "f", &dev_b), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L2, rec_handler, IRQF_SHARED | 0x100UL, "f", &dev_b), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L2, rec_handler, ~0UL, "f", &dev_b), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L2, rec_handler, IRQF_SHARED, "s", NULL), -IRQSYNC_EINVAL);
	CHECK_EQ(request_irq(L1, NULL, IRQF_SHARED, "n", &dev_b), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

TEST(request_exclusive_busy)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "excl", &dev_a), 0);
	CHECK_EQ(request_irq(L2, rec_handler, IRQF_SHARED, "sh", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, rec_handler, 0, "x", &dev_b), -IRQSYNC_EBUSY);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "x", &dev_b), -IRQSYNC_EBUSY);
	CHECK_EQ(request_irq(L2, rec_handler, 0, "x", &dev_b), -IRQSYNC_EBUSY);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

TEST(request_shared_duplicate_dev_id)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "b", &dev_b), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, handled_handler, IRQF_SHARED, "dup", &dev_b), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

TEST(request_pool_full)
{
	static int devs[IRQSYNC_MAX_SHARERS + 1];
	struct world before, after;
	unsigned int i;

	reset();
	for (i = 0; i < IRQSYNC_MAX_SHARERS; i++)
		CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "s", &devs[i]), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "s", &devs[IRQSYNC_MAX_SHARERS]),
		 -IRQSYNC_ENOSPC);
	world_get(&after);
	CHECK(world_same(&before, &after));
	CHECK_EQ(st(L1).nr_actions, IRQSYNC_MAX_SHARERS);
}

TEST(chain_order_and_dev_id)
{
	reset();
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "b", &dev_b), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "c", &dev_c), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 3);
	CHECK(log_dev[0] == &dev_a);
	CHECK(log_dev[1] == &dev_b);
	CHECK(log_dev[2] == &dev_c);
	CHECK_EQ(st(L1).handled, 1);	/* one pass, one count */
}

TEST(free_keeps_others_in_order)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "b", &dev_b), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "c", &dev_c), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "d", &dev_d), 0);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 3);
	CHECK(log_dev[0] == &dev_a);
	CHECK(log_dev[1] == &dev_c);
	CHECK(log_dev[2] == &dev_d);
	/* A freed slot is reusable, and joins at the tail. */
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "e", &dev_e), 0);
	log_reset();
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 4);
	CHECK(log_dev[3] == &dev_e);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_d), 0);
	CHECK_EQ(free_irq(L1, &dev_e), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 1);
	CHECK_EQ(s.depth, 0);
	CHECK_EQ(free_irq(L1, &dev_c), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 0);
	CHECK_EQ(s.depth, 1);
	CHECK_EQ(s.status, IRQS_DISABLED);
	log_reset();
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 0);
}

TEST(free_last_clears_pending)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	s = st(L1);
	CHECK_EQ(s.status, IRQS_DISABLED);
	CHECK_EQ(s.depth, 1);
	CHECK_EQ(log_n, 0);
}

TEST(free_unknown_reported)
{
	struct world before, after;

	reset();
	(void)irqsync_set_warn_hook(test_hook);
	hook_calls = 0;
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "b", &dev_b), 0);
	world_get(&before);
	CHECK_EQ(free_irq(L1, &dev_c), -IRQSYNC_ENOENT);	/* never requested */
	CHECK_EQ(free_irq(L2, &dev_a), -IRQSYNC_ENOENT);	/* wrong line */
	CHECK_EQ(free_irq(L1, NULL), -IRQSYNC_ENOENT);		/* wrong pointer */
	world_get(&after);
	CHECK_EQ(after.warn[IRQSYNC_WARN_FREE_UNKNOWN], before.warn[IRQSYNC_WARN_FREE_UNKNOWN] + 3);
	after.warn[IRQSYNC_WARN_FREE_UNKNOWN] = before.warn[IRQSYNC_WARN_FREE_UNKNOWN];
	CHECK(world_same(&before, &after));
	CHECK_EQ(hook_calls, 3);
	CHECK_EQ(hook_code, IRQSYNC_WARN_FREE_UNKNOWN);
	CHECK_EQ(hook_irq, L1);
	/* Double free. */
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	world_get(&before);
	CHECK_EQ(free_irq(L1, &dev_a), -IRQSYNC_ENOENT);
	world_get(&after);
	CHECK_EQ(after.warn[IRQSYNC_WARN_FREE_UNKNOWN], before.warn[IRQSYNC_WARN_FREE_UNKNOWN] + 1);
	after.warn[IRQSYNC_WARN_FREE_UNKNOWN] = before.warn[IRQSYNC_WARN_FREE_UNKNOWN];
	CHECK(world_same(&before, &after));
	CHECK_EQ(st(L1).nr_actions, 1);
	(void)irqsync_set_warn_hook(NULL);
}

TEST(accounting_handled_unhandled)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, none_handler, IRQF_SHARED, "n", &dev_a), 0);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "r", &dev_b), 0);
	next_ret = IRQ_NONE;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	next_ret = IRQ_HANDLED;
	CHECK_EQ(handle_irq(L1), 0);
	s = st(L1);
	CHECK_EQ(s.handled, 1);
	CHECK_EQ(s.unhandled, 2);
	/* A value other than IRQ_HANDLED (or IRQ_WAKE_THREAD) counts as IRQ_NONE. */
	next_ret = (irqreturn_t)3;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).unhandled, 3);
}

TEST(spurious_storm_disables)
{
	unsigned int i;
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, none_handler, 0, "storm", &dev_a), 0);
	for (i = 0; i + 1U < IRQSYNC_SPURIOUS_WINDOW; i++)
		CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);		/* window not complete yet */
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
	CHECK_EQ(handle_irq(L1), 0);
	s = st(L1);
	CHECK_EQ(s.depth, 1);
	CHECK(s.status & IRQS_DISABLED);
	CHECK_EQ(s.unhandled, IRQSYNC_SPURIOUS_WINDOW);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 1);
	/* Further arrivals are held, not dispatched. */
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).unhandled, IRQSYNC_SPURIOUS_WINDOW);
	CHECK(st(L1).status & IRQS_PENDING);
}

TEST(spurious_below_threshold_kept)
{
	unsigned int i;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "mix", &dev_a), 0);
	/* Exactly THRESHOLD unhandled in a window is not "more than". */
	for (i = 0; i < 2U * IRQSYNC_SPURIOUS_WINDOW; i++) {
		log_n = 0;
		next_ret = (i % IRQSYNC_SPURIOUS_WINDOW) < IRQSYNC_SPURIOUS_THRESHOLD ?
			   IRQ_NONE : IRQ_HANDLED;
		CHECK_EQ(handle_irq(L1), 0);
	}
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).unhandled, 2U * IRQSYNC_SPURIOUS_THRESHOLD);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
}

/* request_irq starts a new spurious window (REQ-LIFECYCLE-7): the unhandled passes of the
 * line's earlier handler do not count against the new one, exclusive or shared. */
TEST(request_resets_spurious_window)
{
	unsigned int i;

	reset();
	CHECK_EQ(request_irq(L1, none_handler, 0, "old", &dev_a), 0);
	for (i = 0; i + 1U < IRQSYNC_SPURIOUS_WINDOW; i++)
		CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(request_irq(L1, handled_handler, 0, "new", &dev_b), 0);
	CHECK_EQ(handle_irq(L1), 0);	/* would complete the old window: 999 of 1000 unhandled */
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);

	reset();
	CHECK_EQ(request_irq(L1, none_handler, IRQF_SHARED, "quiet", &dev_a), 0);
	for (i = 0; i + 1U < IRQSYNC_SPURIOUS_WINDOW; i++)
		CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(request_irq(L1, handled_handler, IRQF_SHARED, "busy", &dev_b), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
}

/* A shared action joining a line spurious detection disabled leaves it disabled, depth and
 * status unchanged; enable_irq re-enables it (REQ-LIFECYCLE-8, a difference from Linux). */
TEST(shared_join_keeps_spurious_disable)
{
	unsigned int i;
	struct irq_stats before, after;

	reset();
	CHECK_EQ(request_irq(L1, none_handler, IRQF_SHARED, "stuck", &dev_a), 0);
	for (i = 0; i < IRQSYNC_SPURIOUS_WINDOW; i++)
		CHECK_EQ(handle_irq(L1), 0);
	before = st(L1);
	CHECK_EQ(before.depth, 1);
	CHECK_EQ(request_irq(L1, rec_handler, IRQF_SHARED, "joins", &dev_b), 0);
	after = st(L1);
	CHECK_EQ(after.depth, before.depth);
	CHECK_EQ(after.status, before.status);
	CHECK_EQ(after.nr_actions, 2);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(log_n, 1);
}

TEST(disabled_line_held_then_replayed_once)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	s = st(L1);
	CHECK_EQ(s.depth, 1);
	CHECK(s.status & IRQS_DISABLED);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_n, 0);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(log_n, 1);		/* replayed once */
	s = st(L1);
	CHECK_EQ(s.status, 0);
	CHECK_EQ(s.depth, 0);
	CHECK_EQ(s.handled, 1);
	/* No replay when nothing was held. */
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(log_n, 1);
}

TEST(depth_nests)
{
	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(disable_irq_nosync(L1), 0);
	CHECK_EQ(st(L1).depth, 2);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 1);
	CHECK(st(L1).status & IRQS_DISABLED);
	CHECK_EQ(log_n, 0);		/* still held */
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status & IRQS_DISABLED, 0);
	CHECK_EQ(log_n, 1);
}

TEST(depth_overflow_refused)
{
	struct world before, after;
	unsigned int i;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	for (i = 0; i < IRQSYNC_DEPTH_MAX; i++) {
		int r = (i & 1U) ? disable_irq(L1) : disable_irq_nosync(L1);

		if (r != 0) {
			CHECK_EQ(r, 0);
			break;
		}
	}
	CHECK_EQ(st(L1).depth, IRQSYNC_DEPTH_MAX);
	world_get(&before);
	CHECK_EQ(disable_irq(L1), -IRQSYNC_EOVERFLOW);
	CHECK_EQ(disable_irq_nosync(L1), -IRQSYNC_EOVERFLOW);
	world_get(&after);
	CHECK(world_same(&before, &after));
	for (i = 0; i < IRQSYNC_DEPTH_MAX; i++)
		CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);
}

TEST(unbalanced_enable_reported)
{
	struct world before, after;

	reset();
	(void)irqsync_set_warn_hook(test_hook);
	hook_calls = 0;
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	world_get(&before);
	CHECK_EQ(enable_irq(L1), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK_EQ(after.warn[IRQSYNC_WARN_UNBALANCED_ENABLE],
		 before.warn[IRQSYNC_WARN_UNBALANCED_ENABLE] + 1);
	after.warn[IRQSYNC_WARN_UNBALANCED_ENABLE] = before.warn[IRQSYNC_WARN_UNBALANCED_ENABLE];
	CHECK(world_same(&before, &after));
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(hook_calls, 1);
	CHECK_EQ(hook_code, IRQSYNC_WARN_UNBALANCED_ENABLE);
	CHECK_EQ(hook_irq, L1);
	(void)irqsync_set_warn_hook(NULL);
}

TEST(stray_interrupt_counted)
{
	struct world before, after;

	reset();
	world_get(&before);
	CHECK_EQ(handle_irq(L3), 0);
	world_get(&after);
	CHECK_EQ(after.line[L3].unhandled, 1);
	after.line[L3].unhandled = 0;
	CHECK(world_same(&before, &after));
	CHECK_EQ(log_n, 0);
}

TEST(handler_runs_with_irqs_disabled)
{
	irq_flags_t flags;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(irqs_disabled(), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(irqs_disabled(), 0);		/* restored: enabled */
	local_irq_save(flags);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(irqs_disabled(), 1);		/* restored: disabled */
	local_irq_restore(flags);
	CHECK_EQ(log_n, 2);
	CHECK_EQ(log_disabled[0], 1);
	CHECK_EQ(log_disabled[1], 1);
}

/* A handler that dispatches another line from inside (nested handle_irq). */
static irqreturn_t nesting_handler(void *dev_id)
{
	(void)dev_id;
	log_irq[40] = get_irqfunc_irq();
	(void)handle_irq(L2);
	log_irq[41] = get_irqfunc_irq();
	return IRQ_HANDLED;
}

TEST(get_irqfunc_irq_per_line)
{
	reset();
	CHECK_EQ(get_irqfunc_irq(), -IRQSYNC_ESRCH);
	CHECK_EQ(request_irq(L1, nesting_handler, 0, "outer", &dev_a), 0);
	CHECK_EQ(request_irq(L2, rec_handler, 0, "inner", &dev_b), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(log_irq[40], L1);
	CHECK_EQ(log_n, 1);
	CHECK_EQ(log_irq[0], L2);
	CHECK_EQ(log_irq[41], L1);		/* restored after the nested one */
	CHECK_EQ(get_irqfunc_irq(), -IRQSYNC_ESRCH);
}

/* ---- a handler that calls the API on its own line ---- */
static int self_ret[8];

static irqreturn_t self_handler(void *dev_id)
{
	struct world before, after;

	(void)dev_id;
	world_get(&before);
	self_ret[0] = synchronize_irq(L1);
	self_ret[1] = disable_irq(L1);
	self_ret[2] = free_irq(L1, &dev_a);
	world_get(&after);
	self_ret[3] = (int)(after.warn[IRQSYNC_WARN_SELF_DEADLOCK] -
			    before.warn[IRQSYNC_WARN_SELF_DEADLOCK]);
	after.warn[IRQSYNC_WARN_SELF_DEADLOCK] = before.warn[IRQSYNC_WARN_SELF_DEADLOCK];
	self_ret[4] = world_same(&before, &after);
	/* Allowed from the own handler: another line, and the nosync forms. */
	self_ret[5] = synchronize_irq(L2);
	self_ret[6] = disable_irq_nosync(L1);
	self_ret[7] = enable_irq(L1);
	return IRQ_HANDLED;
}

TEST(self_wait_refused)
{
	reset();
	CHECK_EQ(request_irq(L1, self_handler, 0, "self", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(self_ret[0], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[1], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[2], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[3], 3);
	CHECK_EQ(self_ret[4], 1);
	CHECK_EQ(self_ret[5], 0);
	CHECK_EQ(self_ret[6], 0);
	CHECK_EQ(self_ret[7], 0);
	CHECK_EQ(st(L1).nr_actions, 1);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status, 0);
	/* Outside the handler the same calls work. */
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* A handler disables its own line (nosync), an arrival is held, its enable replays it. */
static int own_calls;
static irqreturn_t own_enable_handler(void *dev_id)
{
	(void)dev_id;
	if (own_calls++ == 0) {
		(void)disable_irq_nosync(L1);
		(void)handle_irq(L1);		/* arrives while disabled and in progress */
		(void)enable_irq(L1);		/* 1 -> 0 with PENDING: replay */
	}
	return IRQ_HANDLED;
}

TEST(enable_from_own_handler_replays)
{
	reset();
	own_calls = 0;
	CHECK_EQ(request_irq(L1, own_enable_handler, 0, "own", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(own_calls, 2);		/* the instance ran the chain again */
	CHECK_EQ(st(L1).status, 0);
	CHECK_EQ(st(L1).handled, 2);
}

TEST(synchronize_idle_returns)
{
	reset();
	CHECK_EQ(synchronize_irq(L1), 0);	/* no action */
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(st(L1).status, 0);
}

TEST(irq_stats_null_and_warn_count_bad_code)
{
	struct world before, after;

	reset();
	world_get(&before);
	CHECK_EQ(irq_stats(L1, NULL), -IRQSYNC_EINVAL);
	CHECK_EQ(irqsync_warn_count(-1), -IRQSYNC_EINVAL);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NR_CODES), -IRQSYNC_EINVAL);
	irqsync_warn((enum irqsync_warn_code)IRQSYNC_WARN_NR_CODES, L1);	/* ignored */
	world_get(&after);
	CHECK(world_same(&before, &after));
}

TEST(warn_hook_and_counters)
{
	reset();
	hook_calls = 0;
	CHECK(irqsync_set_warn_hook(test_hook) == NULL);
	irqsync_warn(IRQSYNC_WARN_NOBODY_CARED, 7U);
	CHECK_EQ(hook_calls, 1);
	CHECK_EQ(hook_code, IRQSYNC_WARN_NOBODY_CARED);
	CHECK_EQ(hook_irq, 7);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 1);
	CHECK(irqsync_set_warn_hook(NULL) == test_hook);
	irqsync_warn(IRQSYNC_WARN_NOBODY_CARED, 7U);
	CHECK_EQ(hook_calls, 1);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 2);
	irqsync_init();
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
}

/* ---- local interrupt state ---- */

TEST(irqsave_restore_all_nestings)
{
	irq_flags_t f1, f2;

	reset();
	CHECK_EQ(irqs_disabled(), 0);
	local_irq_save(f1);
	CHECK_EQ(irqs_disabled(), 1);
	local_irq_save(f2);			/* nested: saves "disabled" */
	CHECK_EQ(irqs_disabled(), 1);
	local_irq_restore(f2);
	CHECK_EQ(irqs_disabled(), 1);		/* still off: the outer region expects it */
	local_irq_restore(f1);
	CHECK_EQ(irqs_disabled(), 0);

	local_irq_disable();
	local_irq_save(f1);
	local_irq_restore(f1);
	CHECK_EQ(irqs_disabled(), 1);
	local_irq_enable();
	CHECK_EQ(irqs_disabled(), 0);
}

TEST(spin_lock_irqsave_restores_exactly)
{
	DEFINE_SPINLOCK(lock);
	irq_flags_t f1, f2;
	spinlock_t other;

	reset();
	spin_lock_init(&other);
	spin_lock_irqsave(&lock, f1);
	CHECK_EQ(irqs_disabled(), 1);
	spin_lock_irqsave(&other, f2);
	spin_unlock_irqrestore(&other, f2);
	CHECK_EQ(irqs_disabled(), 1);
	spin_unlock_irqrestore(&lock, f1);
	CHECK_EQ(irqs_disabled(), 0);

	local_irq_disable();
	spin_lock_irqsave(&lock, f1);
	spin_unlock_irqrestore(&lock, f1);
	CHECK_EQ(irqs_disabled(), 1);
	local_irq_enable();
}

TEST(spin_lock_irq_enables_unconditionally)
{
	DEFINE_SPINLOCK(lock);

	reset();
	spin_lock_irq(&lock);
	CHECK_EQ(irqs_disabled(), 1);
	spin_unlock_irq(&lock);
	CHECK_EQ(irqs_disabled(), 0);
	/* The hazard: inside a disabled region spin_unlock_irq enables (release builds do not warn). */
	local_irq_disable();
	spin_lock_irq(&lock);
	spin_unlock_irq(&lock);
	CHECK_EQ(irqs_disabled(), 0);
#ifndef IRQSYNC_DEBUG
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_LOCK_IRQ_DISABLED), 0);
#endif
}

TEST(lock_unlock_and_init)
{
	spinlock_t lock;

	spin_lock_init(&lock);
	spin_lock(&lock);
	spin_unlock(&lock);
	spin_lock(&lock);
	spin_unlock(&lock);
	CHECK_EQ(atomic_load(&lock.next.counter), 2);
	CHECK_EQ(atomic_load(&lock.owner.counter), 2);
	spin_lock_init(&lock);
	CHECK_EQ(atomic_load(&lock.next.counter), 0);
	CHECK_EQ(atomic_load(&lock.owner.counter), 0);
}

TEST(masked_interrupt_deferred_then_delivered)
{
	irq_flags_t flags;
	struct irqsync_hosted_stats hs;

	reset();
	CHECK_EQ(request_irq(L1, rec_handler, 0, "a", &dev_a), 0);
	CHECK_EQ(irqsync_hosted_route(L1, 0), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* enabled: delivered at once */
	CHECK_EQ(log_n, 1);

	local_irq_disable();
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 1);		/* coalesced with the held one */
	CHECK_EQ(log_n, 1);				/* held while disabled */
	local_irq_enable();
	CHECK_EQ(log_n, 2);				/* delivered by the unmask */

	local_irq_save(flags);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(log_n, 2);
	local_irq_restore(flags);
	CHECK_EQ(log_n, 3);
	CHECK_EQ(log_disabled[2], 1);

	CHECK_EQ(irqsync_hosted_stats(0, &hs), 0);
	CHECK_EQ(hs.raised, 3);
	CHECK_EQ(hs.coalesced, 1);
	CHECK_EQ(hs.delivered, 3);
	CHECK(hs.deferred >= 1);
	CHECK_EQ(irqsync_hosted_raise(NR_IRQS), -IRQSYNC_EINVAL);
	CHECK_EQ(irqsync_hosted_route(NR_IRQS, 0), -IRQSYNC_EINVAL);
	CHECK_EQ(irqsync_hosted_route(L1, IRQSYNC_NR_CPUS), -IRQSYNC_EINVAL);
	CHECK_EQ(irqsync_hosted_raise_on(L1, 5), -IRQSYNC_ESRCH);	/* not attached */
}

/* ---- multi-CPU cases ---- */

static atomic_int held_running, held_release, held_calls;

static irqreturn_t held_handler(void *dev_id)
{
	(void)dev_id;
	atomic_fetch_add(&held_calls, 1);
	atomic_store(&held_running, 1);
	while (!atomic_load(&held_release))
		sched_yield();
	atomic_store(&held_running, 0);
	return IRQ_HANDLED;
}

static void held_reset(void)
{
	atomic_store(&held_running, 0);
	atomic_store(&held_release, 0);
	atomic_store(&held_calls, 0);
}

/* Start a handler instance of L1 on CPU 1 and hold it running. */
static int hold_on_cpu1(struct cpu_thread *cpu1)
{
	reset();
	held_reset();
	if (request_irq(L1, held_handler, 0, "held", &dev_a) != 0)
		return -1;
	if (cpu_thread_start(cpu1, 1) != 0)
		return -1;
	(void)irqsync_hosted_route(L1, 1);
	(void)irqsync_hosted_raise(L1);
	while (!atomic_load(&held_running))
		sched_yield();
	return 0;
}

static void release_held(struct cpu_thread *cpu1)
{
	atomic_store(&held_release, 1);
	while (st(L1).status & IRQS_INPROGRESS)
		sched_yield();
	cpu_thread_stop(cpu1);
}

enum waiter_op { W_SYNC, W_DISABLE, W_FREE };
struct waiter {
	pthread_t tid;
	enum waiter_op op;
	atomic_int done;
	int ret;
	int still_running_at_return;
};

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;

	switch (w->op) {
	case W_SYNC:    w->ret = synchronize_irq(L1); break;
	case W_DISABLE: w->ret = disable_irq(L1); break;
	case W_FREE:    w->ret = free_irq(L1, &dev_a); break;
	}
	w->still_running_at_return = atomic_load(&held_running);
	atomic_store(&w->done, 1);
	return NULL;
}

/* The waiting functions do not return while the handler runs, and return after. */
static void check_waits(enum waiter_op op)
{
	struct cpu_thread cpu1;
	struct waiter w;

	memset(&w, 0, sizeof(w));
	if (hold_on_cpu1(&cpu1) != 0) {
		CHECK(!"could not start a held handler on CPU 1");
		return;
	}
	w.op = op;
	CHECK_EQ(pthread_create(&w.tid, NULL, waiter_main, &w), 0);
	sleep_ms(50);
	CHECK_EQ(atomic_load(&w.done), 0);		/* still waiting */
	CHECK(st(L1).status & IRQS_INPROGRESS);
	atomic_store(&held_release, 1);
	pthread_join(w.tid, NULL);
	CHECK_EQ(w.ret, 0);
	CHECK_EQ(w.still_running_at_return, 0);
	release_held(&cpu1);
}

TEST(synchronize_waits_for_running_handler) { check_waits(W_SYNC); }
TEST(disable_irq_waits_for_running_handler) { check_waits(W_DISABLE); }
TEST(free_irq_waits_for_running_handler)
{
	check_waits(W_FREE);
	CHECK_EQ(st(L1).nr_actions, 0);
}

TEST(disable_irq_nosync_does_not_wait)
{
	struct cpu_thread cpu1;

	if (hold_on_cpu1(&cpu1) != 0) {
		CHECK(!"could not start a held handler on CPU 1");
		return;
	}
	CHECK_EQ(disable_irq_nosync(L1), 0);		/* returns with the handler running */
	CHECK_EQ(atomic_load(&held_running), 1);
	CHECK(st(L1).status & IRQS_DISABLED);
	CHECK(st(L1).status & IRQS_INPROGRESS);
	release_held(&cpu1);
	CHECK_EQ(enable_irq(L1), 0);
}

TEST(arrival_during_instance_is_replayed)
{
	struct cpu_thread cpu1;

	if (hold_on_cpu1(&cpu1) != 0) {
		CHECK(!"could not start a held handler on CPU 1");
		return;
	}
	/* Arrivals on CPU 0 while CPU 1 runs the instance: PENDING, no second instance. */
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(atomic_load(&held_calls), 1);
	release_held(&cpu1);
	CHECK_EQ(atomic_load(&held_calls), 2);		/* replayed once by the running instance */
	CHECK_EQ(st(L1).status, 0);
	CHECK_EQ(st(L1).handled, 2);
}

TEST(get_irqfunc_irq_on_other_cpu)
{
	struct cpu_thread cpu1;

	if (hold_on_cpu1(&cpu1) != 0) {
		CHECK(!"could not start a held handler on CPU 1");
		return;
	}
	CHECK_EQ(get_irqfunc_irq(), -IRQSYNC_ESRCH);	/* CPU 0 serves nothing */
	release_held(&cpu1);
}

/* ---- the ticket lock ---- */

struct locker {
	pthread_t tid;
	spinlock_t *lock;
	int id;
	int *order;
	atomic_int *pos;
};

static void *locker_main(void *arg)
{
	struct locker *l = arg;

	spin_lock(l->lock);
	l->order[atomic_fetch_add(l->pos, 1)] = l->id;
	spin_unlock(l->lock);
	return NULL;
}

TEST(ticket_lock_fifo)
{
	DEFINE_SPINLOCK(lock);
	struct locker lk[4];
	int order[4] = { -1, -1, -1, -1 };
	atomic_int pos = 0;
	int i;

	spin_lock(&lock);
	for (i = 0; i < 4; i++) {
		lk[i].lock = &lock;
		lk[i].id = i;
		lk[i].order = order;
		lk[i].pos = &pos;
		CHECK_EQ(pthread_create(&lk[i].tid, NULL, locker_main, &lk[i]), 0);
		/* wait until thread i holds its ticket: next == i + 2 */
		while (atomic_load(&lock.next.counter) != (unsigned int)i + 2U)
			sched_yield();
	}
	spin_unlock(&lock);
	for (i = 0; i < 4; i++)
		pthread_join(lk[i].tid, NULL);
	for (i = 0; i < 4; i++)
		CHECK_EQ(order[i], i);
}

#define MUTEX_THREADS 4
#define MUTEX_ITERS 20000
static DEFINE_SPINLOCK(count_lock);
static unsigned long counted;
static int inside;
static int overlap;

static void *counter_main(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < MUTEX_ITERS; i++) {
		spin_lock(&count_lock);
		if (inside++)
			overlap++;
		counted++;
		inside--;
		spin_unlock(&count_lock);
	}
	return NULL;
}

TEST(ticket_lock_mutual_exclusion)
{
	pthread_t t[MUTEX_THREADS];
	int i;

	counted = 0;
	for (i = 0; i < MUTEX_THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, counter_main, NULL), 0);
	for (i = 0; i < MUTEX_THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(counted, (unsigned long)MUTEX_THREADS * MUTEX_ITERS);
	CHECK_EQ(overlap, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (irqsync_hosted_cpu_attach(0) != 0) {
		printf("not ok 1 - attach main thread as CPU 0\n1..1\n");
		return 1;
	}
	RUN_REQ(errno_table, "REQ-ERR-7");
	RUN_REQ(init_state, "REQ-LIFECYCLE-4");
	RUN_REQ(bad_irq_every_function, "REQ-ERR-1 REQ-DISPATCH-9 REQ-ERR-7");
	RUN_REQ(request_installs, "REQ-LIFECYCLE-1");
	RUN_REQ(request_bad_arguments, "REQ-ERR-2 REQ-LIFECYCLE-3");
	RUN_REQ(request_exclusive_busy, "REQ-LIFECYCLE-2");
	RUN_REQ(request_shared_duplicate_dev_id, "REQ-LIFECYCLE-3");
	RUN_REQ(request_pool_full, "REQ-LIFECYCLE-6");
	RUN_REQ(chain_order_and_dev_id, "REQ-DISPATCH-4");
	RUN_REQ(free_keeps_others_in_order, "REQ-LIFECYCLE-4");
	RUN_REQ(free_last_clears_pending, "REQ-LIFECYCLE-4");
	RUN_REQ(free_unknown_reported, "REQ-ERR-3 REQ-ERR-7");
	RUN_REQ(accounting_handled_unhandled, "REQ-DISPATCH-5");
	RUN_REQ(spurious_storm_disables, "REQ-DISPATCH-6");
	RUN_REQ(spurious_below_threshold_kept, "REQ-DISPATCH-6");
	RUN_REQ(request_resets_spurious_window, "REQ-LIFECYCLE-7 REQ-DISPATCH-6");
	RUN_REQ(shared_join_keeps_spurious_disable, "REQ-LIFECYCLE-8 REQ-DISPATCH-6");
	RUN_REQ(disabled_line_held_then_replayed_once, "REQ-DISPATCH-7 REQ-DEPTH-3");
	RUN_REQ(depth_nests, "REQ-DEPTH-1 REQ-DEPTH-3");
	RUN_REQ(depth_overflow_refused, "REQ-DEPTH-5");
	RUN_REQ(unbalanced_enable_reported, "REQ-DEPTH-4 REQ-ERR-5");
	RUN_REQ(stray_interrupt_counted, "REQ-DISPATCH-9");
	RUN_REQ(handler_runs_with_irqs_disabled, "REQ-DISPATCH-8");
	RUN_REQ(get_irqfunc_irq_per_line, "REQ-HANDLER-2");
	RUN_REQ(self_wait_refused, "REQ-ERR-4 REQ-DEPTH-2");
	RUN_REQ(enable_from_own_handler_replays, "REQ-DEPTH-2 REQ-DEPTH-3 REQ-DISPATCH-2");
	RUN_REQ(synchronize_idle_returns, "REQ-SYNC-1");
	RUN_REQ(irq_stats_null_and_warn_count_bad_code, "REQ-ERR-7");
	RUN_REQ(warn_hook_and_counters, "REQ-ERR-7");
	RUN_REQ(irqsave_restore_all_nestings, "REQ-LOCK-3 REQ-LOCK-6");
	RUN_REQ(spin_lock_irqsave_restores_exactly, "REQ-LOCK-3");
	RUN_REQ(spin_lock_irq_enables_unconditionally, "REQ-LOCK-4");
	RUN_REQ(lock_unlock_and_init, "REQ-LOCK-1");
	RUN_REQ(masked_interrupt_deferred_then_delivered, "REQ-LOCK-6");
	RUN_REQ(synchronize_waits_for_running_handler, "REQ-SYNC-1 REQ-SYNC-5");
	RUN_REQ(disable_irq_waits_for_running_handler, "REQ-DEPTH-1");
	RUN_REQ(free_irq_waits_for_running_handler, "REQ-LIFECYCLE-5");
	RUN_REQ(disable_irq_nosync_does_not_wait, "REQ-DEPTH-2");
	RUN_REQ(arrival_during_instance_is_replayed, "REQ-DISPATCH-2 REQ-DISPATCH-3");
	RUN_REQ(get_irqfunc_irq_on_other_cpu, "REQ-HANDLER-2");
	RUN_REQ(ticket_lock_fifo, "REQ-LOCK-2");
	RUN_REQ(ticket_lock_mutual_exclusion, "REQ-LOCK-1");
	return check_done();
}

/*
 * genirq.c - irqsync held against Linux genirq: the semantics drivers rely on, as tests.
 *
 * Each case states one behaviour of Linux's generic IRQ layer and checks it against irqsync's
 * API.  Cases named linux_* assert what Linux does.  Cases named diff_* are the deliberate
 * differences: they assert irqsync's behaviour, and their comment says what Linux does instead
 * and why irqsync does not; docs/linux-differences.md lists each with its case.
 *
 * Read for it (with the search tool; our own code, nothing copied): the KUnit cases of
 * kernel/irq/irq_test.c (v6.16), kernel/irq/manage.c (request_threaded_irq, __setup_irq,
 * __free_irq, __disable_irq, __enable_irq, synchronize_irq), kernel/irq/spurious.c
 * (note_interrupt, poll_spurious_irqs), kernel/irq/handle.c and the flow handlers of
 * kernel/irq/chip.c (handle_edge_irq, handle_fasteoi_irq, irq_startup, irq_shutdown).
 *
 * Not here, and why:
 *  - irq_test.c's irq_shutdown_depth_test: a managed-affinity line shut down and started by
 *    the irqchip (irq_shutdown_and_deactivate, irq_startup_managed).  irqsync has no irqchip
 *    and no affinity: a line is only a descriptor.  Reported as a skipped case.
 *  - irq_test.c's irq_cpuhotplug_test: CPU hotplug (remove_cpu/add_cpu) of a managed line.
 *    irqsync's CPUs are fixed (IRQSYNC_NR_CPUS).  Reported as a skipped case.
 *  - trigger types, wake-up (irq_set_irq_wake), suspend/resume, affinity, NMIs, per-CPU
 *    devids, the misrouted-interrupt fixup (irqfixup/irqpoll): each needs an irqchip, CPU
 *    hotplug or affinity; irqsync has none of them (flags other than IRQF_SHARED and
 *    IRQF_ONESHOT are refused, diff_unknown_flags_refused).
 *  - of the threaded handlers: nested threaded lines (handle_nested_irq), forced threading
 *    (threadirqs), IRQF_NO_THREAD, chip bus locks, thread affinity: out of irqsync's scope
 *    (spec/threaded.md).  The threaded cases below are those of spec/threaded.md (REQ-THREAD-n and
 *    REQ-ONESHOT-n in the case names): request_threaded_irq's rules, IRQF_ONESHOT, what
 *    synchronize_irq and free_irq wait for, synchronize_hardirq.
 *
 * The main thread is CPU 0 of the hosted port; one case starts CPU 1, and the threaded cases run
 * the handler threads (threads of the port, no CPU).  REQ IDs per case.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "check.h"
#include "unit_util.h"

#define L1 1U
#define L2 2U

/* Linux's values, from include/linux/interrupt.h (compared, not used as irqsync flags). */
#define LINUX_IRQF_TRIGGER_RISING 0x00000001UL
#define LINUX_IRQF_SHARED         0x00000080UL
#define LINUX_IRQF_ONESHOT        0x00002000UL
#define LINUX_IRQF_NO_AUTOEN      0x00080000UL

static int dev_a, dev_b, dev_c;

/* ---- handlers ---- */
static int calls_a, calls_b;
static int seen_irq, seen_irqs_off;
static irqreturn_t ret_a = IRQ_HANDLED, ret_b = IRQ_HANDLED;
static void *order[8];
static int order_n;

static void note(void *dev_id)
{
	if (order_n < 8)
		order[order_n++] = dev_id;
}

static irqreturn_t handler_a(void *dev_id)
{
	note(dev_id);
	calls_a++;
	seen_irq = get_irqfunc_irq();
	seen_irqs_off = irqs_disabled();
	return ret_a;
}

static irqreturn_t handler_b(void *dev_id)
{
	note(dev_id);
	calls_b++;
	return ret_b;
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
	calls_a = calls_b = 0;
	seen_irq = -1;
	seen_irqs_off = -1;
	ret_a = ret_b = IRQ_HANDLED;
	order_n = 0;
}

/* Run @n passes of @irq's chain (each arrival finds the line idle: one pass each). */
static void passes(unsigned int irq, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		CHECK_EQ(handle_irq(irq), 0);
}

/* Drive the line into "nobody cared": a full window of IRQ_NONE from handler_a. */
static void storm(unsigned int irq)
{
	ret_a = IRQ_NONE;
	passes(irq, IRQSYNC_SPURIOUS_WINDOW);
	ret_a = IRQ_HANDLED;
}

/* ==== kernel/irq/irq_test.c (KUnit, v6.16) ==== */

/* irq_disable_depth_test: request -> depth 0; disable_irq -> 1; enable_irq -> 0. */
TEST(linux_kunit_irq_disable_depth_test)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "test_irq", NULL), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 1);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(free_irq(L1, NULL), 0);
}

/* irq_free_disabled_test: free_irq of a disabled line leaves depth >= 1, and a new
 * request_irq starts the line again at depth 0. */
TEST(linux_kunit_irq_free_disabled_test)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "test_irq", NULL), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 1);
	CHECK_EQ(free_irq(L1, NULL), 0);
	CHECK(st(L1).depth >= 1);
	CHECK_EQ(request_irq(L1, handler_a, 0, "test_irq", NULL), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status & IRQS_DISABLED, 0);
	CHECK_EQ(free_irq(L1, NULL), 0);
}

/* ==== request_irq: request_threaded_irq and __setup_irq ==== */

/* request_threaded_irq: IRQF_SHARED without a dev_id is -EINVAL; so is no handler at all. */
TEST(linux_request_bad_arguments_einval)
{
	struct world before, after;

	reset();
	world_get(&before);
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "s", NULL), -EINVAL);
	CHECK_EQ(request_irq(L1, NULL, 0, "n", &dev_a), -EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/* __setup_irq: sharing needs IRQF_SHARED on both sides ("Flags mismatch"), else -EBUSY. */
TEST(linux_request_flags_mismatch_ebusy)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "excl", &dev_a), 0);
	CHECK_EQ(request_irq(L2, handler_a, IRQF_SHARED, "sh", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "x", &dev_b), -EBUSY);
	CHECK_EQ(request_irq(L1, handler_b, 0, "x", &dev_b), -EBUSY);
	CHECK_EQ(request_irq(L2, handler_b, 0, "x", &dev_b), -EBUSY);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/* __setup_irq appends the new action at the chain's tail; handle_irq_event_percpu calls every
 * action in that order with its own dev_id, even after one returned IRQ_HANDLED. */
TEST(linux_shared_chain_order_every_action_called)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "b", &dev_b), 0);
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "c", &dev_c), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(order_n, 3);
	CHECK(order[0] == &dev_a);
	CHECK(order[1] == &dev_b);
	CHECK(order[2] == &dev_c);
}

/* The first action starts the line at depth 0 (irq_startup), undoing disables made on the
 * unused line before (only IRQF_NO_AUTOEN keeps it disabled, and irqsync has no such flag). */
TEST(linux_first_request_starts_line_at_depth_0)
{
	reset();
	CHECK_EQ(disable_irq(L1), 0);			/* depth 1 -> 2 on the unused line */
	CHECK_EQ(st(L1).depth, 2);
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status & IRQS_DISABLED, 0);
}

/* __setup_irq: "Reset broken irq detection when installing new handler".  A handler that
 * handles every interrupt does not lose its line to the unhandled passes its predecessor left
 * in the window (the bug of issue 27: irqsync kept them until irqsync_init). */
TEST(linux_request_resets_spurious_detector)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "old", &dev_a), 0);
	ret_a = IRQ_NONE;
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - 1U);	/* one pass short of "nobody cared" */
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(request_irq(L1, handler_b, 0, "new", &dev_b), 0);
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - 1U);	/* handled by the new handler */
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(st(L1).status & IRQS_DISABLED, 0);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
	CHECK_EQ(calls_b, (int)IRQSYNC_SPURIOUS_WINDOW - 1);
}

/* The same reset for a shared action that joins: the old passes no longer count. */
TEST(linux_shared_join_resets_spurious_detector)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "quiet", &dev_a), 0);
	ret_a = IRQ_NONE;
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - 1U);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "busy", &dev_b), 0);
	/* From the join on, the window holds passes only; a pass is handled when any action
	 * handled it.  THRESHOLD more unhandled ones stay within the threshold. */
	ret_b = IRQ_NONE;
	passes(L1, IRQSYNC_SPURIOUS_THRESHOLD);
	ret_b = IRQ_HANDLED;
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - IRQSYNC_SPURIOUS_THRESHOLD);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 0);
}

/*
 * DIFFERENCE (REQ-LIFECYCLE-8).  Linux: a shared action joining a line that "nobody cared"
 * disabled clears IRQS_SPURIOUS_DISABLED and enables the line once ("give it another
 * chance").  irqsync: the line stays disabled, depth unchanged, arrivals held, until
 * enable_irq; the spurious disable is a depth level that is not marked apart from a driver's
 * disable_irq, so request_irq cannot tell which one it would undo.
 */
TEST(diff_shared_join_keeps_spurious_disable)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "stuck", &dev_a), 0);
	storm(L1);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 1);
	CHECK_EQ(st(L1).depth, 1);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "joins", &dev_b), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 2);
	CHECK_EQ(s.depth, 1);				/* Linux: 0 */
	CHECK(s.status & IRQS_DISABLED);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(calls_b, 0);				/* held (Linux: handled) */
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(enable_irq(L1), 0);			/* the way back: one replay */
	CHECK_EQ(calls_b, 1);
	CHECK_EQ(st(L1).depth, 0);
}

/*
 * DIFFERENCE (REQ-LIFECYCLE-3).  Linux accepts a second shared action with the same dev_id
 * (free_irq then removes the first one that matches).  irqsync refuses it with -EINVAL and
 * changes nothing: free_irq(irq, dev_id) must name one action.
 */
TEST(diff_duplicate_shared_dev_id_refused)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "a", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "again", &dev_a), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/*
 * DIFFERENCE (REQ-ERR-2).  Linux takes many request flags (trigger types, IRQF_ONESHOT,
 * IRQF_NO_AUTOEN, ...).  irqsync knows IRQF_SHARED and IRQF_ONESHOT alone (same values as
 * Linux) and refuses every other bit with -EINVAL, changing nothing: a flag it would silently
 * ignore would be a driver's assumption broken without a word.
 */
TEST(diff_unknown_flags_refused)
{
	static const unsigned long linux_only[] = {
		LINUX_IRQF_TRIGGER_RISING, LINUX_IRQF_NO_AUTOEN,
	};
	struct world before, after;
	unsigned int i;

	CHECK_EQ(IRQF_SHARED, LINUX_IRQF_SHARED);
	CHECK_EQ(IRQF_ONESHOT, LINUX_IRQF_ONESHOT);
	reset();
	world_get(&before);
	for (i = 0; i < sizeof(linux_only) / sizeof(linux_only[0]); i++) {
		CHECK_EQ(request_irq(L1, handler_a, linux_only[i], "f", &dev_a), -IRQSYNC_EINVAL);
		CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED | linux_only[i], "f", &dev_a),
			 -IRQSYNC_EINVAL);
	}
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/*
 * DIFFERENCE (REQ-LIFECYCLE-6).  Linux allocates each action: a line takes any number of
 * sharers.  irqsync's pool is IRQSYNC_MAX_SHARERS per line; one more is -ENOSPC, nothing
 * changed.
 */
TEST(diff_sharer_pool_bounded)
{
	static int devs[IRQSYNC_MAX_SHARERS + 1];
	struct world before, after;
	unsigned int i;

	reset();
	for (i = 0; i < IRQSYNC_MAX_SHARERS; i++)
		CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "s", &devs[i]), 0);
	world_get(&before);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "s", &devs[IRQSYNC_MAX_SHARERS]),
		 -IRQSYNC_ENOSPC);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/* ==== free_irq: __free_irq ==== */

/* __free_irq of an unknown dev_id: "Trying to free already-free IRQ" (a WARN), nothing
 * changes.  (Linux returns NULL, irqsync -ENOENT: diff_api_signatures.) */
TEST(linux_free_unknown_warns_changes_nothing)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "a", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(free_irq(L1, &dev_b), -IRQSYNC_ENOENT);
	CHECK_EQ(free_irq(L2, &dev_a), -IRQSYNC_ENOENT);
	world_get(&after);
	CHECK_EQ(after.warn[IRQSYNC_WARN_FREE_UNKNOWN], before.warn[IRQSYNC_WARN_FREE_UNKNOWN] + 2);
	after.warn[IRQSYNC_WARN_FREE_UNKNOWN] = before.warn[IRQSYNC_WARN_FREE_UNKNOWN];
	CHECK(world_same(&before, &after));
}

/* __free_irq unlinks the one matching action; the others keep their order, and the line its
 * depth (only the last action shuts the line down). */
TEST(linux_free_one_sharer_keeps_rest)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "b", &dev_b), 0);
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "c", &dev_c), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_b), 0);
	CHECK_EQ(st(L1).depth, 1);
	CHECK_EQ(st(L1).nr_actions, 2);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(order_n, 2);
	CHECK(order[0] == &dev_a);
	CHECK(order[1] == &dev_c);
	CHECK_EQ(calls_b, 0);
}

/* The last free_irq shuts the line down (disabled); enable_irq on it then enables a line that
 * has no action, in Linux (irq_startup) as in irqsync: DISABLED follows the depth, not the
 * action count.  Its interrupts are then counted as unhandled (REQ-DISPATCH-9). */
TEST(linux_enable_after_last_free_enables_line_without_action)
{
	struct irq_stats s;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 0);
	CHECK(s.status & IRQS_DISABLED);
	CHECK_EQ(enable_irq(L1), 0);
	s = st(L1);
	CHECK_EQ(s.nr_actions, 0);
	CHECK_EQ(s.depth, 0);
	CHECK_EQ(s.status & IRQS_DISABLED, 0);
}

/*
 * DIFFERENCE (REQ-LIFECYCLE-4).  Linux since v6.16 (commit 788019eb559f, irq_shutdown): the
 * last free_irq adds one to the depth, so enables that balance the driver's earlier disables
 * stay balanced after the free.  irqsync sets depth 1 whatever it was: after two disables and
 * the free, the first enable enables the line and the second is an unbalanced enable
 * (-EINVAL, IRQSYNC_WARN_UNBALANCED_ENABLE).  Linux: depth 3 after the free, 1 after both.
 */
TEST(diff_last_free_sets_depth_1)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 2);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(st(L1).depth, 1);			/* Linux: 3 */
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);			/* Linux: 2, still disabled */
	CHECK_EQ(enable_irq(L1), -IRQSYNC_EINVAL);	/* Linux: no warning, depth 1 */
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_UNBALANCED_ENABLE), 1);
}

/* ==== disable_irq / enable_irq: __disable_irq, __enable_irq ==== */

/* Disables nest; each enable undoes one; the line runs again only at depth 0. */
TEST(linux_disable_nests)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	CHECK_EQ(disable_irq_nosync(L1), 0);
	CHECK_EQ(st(L1).depth, 2);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK(st(L1).status & IRQS_DISABLED);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).status & IRQS_DISABLED, 0);
}

/* __enable_irq at depth 0: "Unbalanced enable for IRQ" (a WARN), depth stays 0. */
TEST(linux_unbalanced_enable_warns_changes_nothing)
{
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	world_get(&before);
	CHECK_EQ(enable_irq(L1), -IRQSYNC_EINVAL);
	world_get(&after);
	CHECK_EQ(after.warn[IRQSYNC_WARN_UNBALANCED_ENABLE], 1);
	after.warn[IRQSYNC_WARN_UNBALANCED_ENABLE] = 0;
	CHECK(world_same(&before, &after));
}

/* An interrupt of a disabled line is marked PENDING (handle_edge_irq, handle_fasteoi_irq) and
 * the enable that starts the line resends it, once however many arrived. */
TEST(linux_disabled_line_held_then_resent_once)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(disable_irq(L1), 0);
	passes(L1, 3);
	CHECK_EQ(calls_a, 0);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(calls_a, 1);
	CHECK_EQ(st(L1).status & IRQS_PENDING, 0);
}

/*
 * DIFFERENCE (REQ-DEPTH-5).  Linux's depth is an unsigned int with no bound check.  irqsync
 * refuses a disable past IRQSYNC_DEPTH_MAX with -EOVERFLOW and changes nothing.
 */
TEST(diff_disable_depth_bounded)
{
	unsigned int i;
	struct world before, after;

	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	for (i = 0; i < IRQSYNC_DEPTH_MAX; i++)
		CHECK_EQ(disable_irq_nosync(L1), 0);
	world_get(&before);
	CHECK_EQ(disable_irq_nosync(L1), -IRQSYNC_EOVERFLOW);
	CHECK_EQ(disable_irq(L1), -IRQSYNC_EOVERFLOW);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/* ==== the handler: handle.c, chip.c's flow handlers ==== */

/* Hardirq handlers run with local interrupts disabled (since IRQF_DISABLED went away). */
TEST(linux_handler_runs_with_irqs_off)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(seen_irqs_off, 1);
	CHECK_EQ(irqs_disabled(), 0);
}

/*
 * DIFFERENCE (REQ-HANDLER-1, REQ-HANDLER-2).  Linux: irqreturn_t (*)(int irq, void *dev_id).
 * irqsync: irqreturn_t (*)(void *dev_id); the line is get_irqfunc_irq() (-ESRCH outside a
 * handler).  The old prototype does not compile (tests/compile-fail/old_handler.c).
 */
TEST(diff_handler_gets_no_irq_argument)
{
	reset();
	CHECK(_Generic(&handler_a, irq_handler_t: 1, default: 0));
	CHECK_EQ(request_irq(L2, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(handle_irq(L2), 0);
	CHECK_EQ(seen_irq, (int)L2);
	CHECK_EQ(get_irqfunc_irq(), -IRQSYNC_ESRCH);
}

/* A pass is handled when any action returned IRQ_HANDLED (the return values are or-ed). */
TEST(linux_pass_handled_if_any_action_handled)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "a", &dev_a), 0);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "b", &dev_b), 0);
	ret_a = IRQ_NONE;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).handled, 1);
	ret_b = IRQ_NONE;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).unhandled, 1);
}

/*
 * DIFFERENCE (REQ-DISPATCH-5).  Linux's note_interrupt reports a return value that is neither
 * IRQ_NONE nor IRQ_HANDLED (nor IRQ_WAKE_THREAD) as bogus and leaves it out of spurious
 * detection.  irqsync counts any value other than IRQ_HANDLED as IRQ_NONE.
 */
TEST(diff_bogus_return_counts_as_none)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	ret_a = (irqreturn_t)5;
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).unhandled, 1);
	CHECK_EQ(st(L1).handled, 0);
}

/* An arrival while the instance runs sets PENDING, and the running instance runs the chain
 * again (handle_edge_irq's loop); here the arrival comes from the handler's own CPU. */
static int nested_calls;
static irqreturn_t rearm_handler(void *dev_id)
{
	(void)dev_id;
	if (nested_calls++ == 0)
		(void)handle_irq(L1);		/* arrives while INPROGRESS */
	return IRQ_HANDLED;
}

TEST(linux_arrival_during_instance_replayed)
{
	reset();
	nested_calls = 0;
	CHECK_EQ(request_irq(L1, rearm_handler, 0, "r", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(nested_calls, 2);
	CHECK_EQ(st(L1).handled, 2);
	CHECK_EQ(st(L1).status, 0);
}

/* handle_edge_irq replays only while the line is enabled: disabled meanwhile, the arrival
 * stays PENDING for the enable. */
static irqreturn_t rearm_disable_handler(void *dev_id)
{
	(void)dev_id;
	if (nested_calls++ == 0) {
		(void)handle_irq(L1);
		(void)disable_irq_nosync(L1);	/* allowed in the line's own handler */
	}
	return IRQ_HANDLED;
}

TEST(linux_no_replay_on_line_disabled_meanwhile)
{
	reset();
	nested_calls = 0;
	CHECK_EQ(request_irq(L1, rearm_disable_handler, 0, "r", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(nested_calls, 1);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(enable_irq(L1), 0);		/* allowed anywhere; replays the held arrival */
	CHECK_EQ(nested_calls, 2);
}

/*
 * DIFFERENCE (REQ-DISPATCH-9).  Linux's flow handlers mark an interrupt of a line without
 * action PENDING (and mask it).  irqsync counts it as unhandled and holds nothing, so a
 * later request_irq finds nothing to replay.
 */
TEST(diff_stray_interrupt_counted_not_held)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(st(L1).unhandled, 1);
	CHECK_EQ(st(L1).status & IRQS_PENDING, 0);
	CHECK_EQ(request_irq(L1, handler_b, 0, "b", &dev_b), 0);
	CHECK_EQ(calls_b, 0);
}

/* ==== spurious.c: note_interrupt ==== */

/* A window with more than the threshold unhandled: the line is disabled one level deeper and
 * reported ("nobody cared", "Disabling IRQ #n"); enable_irq brings it back. */
TEST(linux_nobody_cared_disables_line)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "stuck", &dev_a), 0);
	storm(L1);
	CHECK_EQ(st(L1).depth, 1);
	CHECK(st(L1).status & IRQS_DISABLED);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_NOBODY_CARED), 1);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(st(L1).depth, 0);
}

/*
 * DIFFERENCE (REQ-DISPATCH-6).  Linux's window is 100,000 interrupts with more than 99,900
 * unhandled, counted from the first unhandled one, and an unhandled interrupt more than
 * 100 ms after the last restarts the count.  irqsync's window is IRQSYNC_SPURIOUS_WINDOW
 * passes (1000 by default) with more than IRQSYNC_SPURIOUS_THRESHOLD (900) unhandled, and no
 * clock: exactly the threshold keeps the line.
 */
TEST(diff_spurious_window_in_passes)
{
	CHECK_EQ(IRQSYNC_SPURIOUS_WINDOW, 1000);
	CHECK_EQ(IRQSYNC_SPURIOUS_THRESHOLD, 900);
	reset();
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	ret_a = IRQ_NONE;
	passes(L1, IRQSYNC_SPURIOUS_THRESHOLD);
	ret_a = IRQ_HANDLED;
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - IRQSYNC_SPURIOUS_THRESHOLD);
	CHECK_EQ(st(L1).depth, 0);
	ret_a = IRQ_NONE;
	passes(L1, IRQSYNC_SPURIOUS_THRESHOLD + 1U);
	ret_a = IRQ_HANDLED;
	passes(L1, IRQSYNC_SPURIOUS_WINDOW - IRQSYNC_SPURIOUS_THRESHOLD - 1U);
	CHECK_EQ(st(L1).depth, 1);
}

/*
 * DIFFERENCE (REQ-DISPATCH-6).  Linux polls the handlers of a shared line that "nobody cared"
 * disabled every 100 ms (poll_spurious_irqs), so its devices keep working slowly.  irqsync
 * has no poller: no handler of the line runs until enable_irq, which replays the held arrival
 * once.
 */
TEST(diff_spurious_disabled_line_not_polled)
{
	reset();
	CHECK_EQ(request_irq(L1, handler_a, IRQF_SHARED, "stuck", &dev_a), 0);
	CHECK_EQ(request_irq(L1, handler_b, IRQF_SHARED, "ok", &dev_b), 0);
	ret_b = IRQ_NONE;
	storm(L1);
	calls_b = 0;
	passes(L1, 10);
	CHECK_EQ(calls_b, 0);
	CHECK(st(L1).status & IRQS_PENDING);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(calls_b, 1);
}

/* ==== synchronize_irq ==== */

/* synchronize_irq of a line without a running handler (or without action) returns at once. */
TEST(linux_synchronize_idle_line_returns)
{
	reset();
	CHECK_EQ(synchronize_irq(L2), 0);
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
}

/* synchronize_irq returns only after the handler running on another CPU has returned. */
static atomic_int held_running, held_release;
static irqreturn_t held_handler(void *dev_id)
{
	(void)dev_id;
	atomic_store(&held_running, 1);
	while (!atomic_load(&held_release))
		sched_yield();
	atomic_store(&held_running, 0);
	return IRQ_HANDLED;
}

struct syncer {
	pthread_t tid;
	atomic_int done;
	int ret;
	int running_at_return;
};

static void *syncer_main(void *arg)
{
	struct syncer *s = arg;

	s->ret = synchronize_irq(L1);
	s->running_at_return = atomic_load(&held_running);
	atomic_store(&s->done, 1);
	return NULL;
}

TEST(linux_synchronize_waits_for_handler_on_other_cpu)
{
	struct cpu_thread cpu1;
	struct syncer s;

	reset();
	memset(&s, 0, sizeof(s));
	atomic_store(&held_running, 0);
	atomic_store(&held_release, 0);
	CHECK_EQ(request_irq(L1, held_handler, 0, "held", &dev_a), 0);
	if (cpu_thread_start(&cpu1, 1) != 0) {
		CHECK(!"could not start CPU 1");
		return;
	}
	CHECK_EQ(irqsync_hosted_route(L1, 1), 0);
	CHECK(irqsync_hosted_raise(L1) >= 0);
	while (!atomic_load(&held_running))
		sched_yield();
	CHECK_EQ(pthread_create(&s.tid, NULL, syncer_main, &s), 0);
	sleep_ms(20);		/* a wrong early return would show here; a late one cannot fail */
	CHECK_EQ(atomic_load(&s.done), 0);
	atomic_store(&held_release, 1);
	pthread_join(s.tid, NULL);
	CHECK_EQ(s.ret, 0);
	CHECK_EQ(s.running_at_return, 0);
	cpu_thread_stop(&cpu1);
}

/*
 * DIFFERENCE (REQ-ERR-4).  Linux: synchronize_irq, disable_irq or free_irq called from the
 * line's own handler wait for themselves, a hang (free_irq warns "Trying to free IRQ %d from
 * IRQ context!" first).  irqsync refuses with -EDEADLK and IRQSYNC_WARN_SELF_DEADLOCK,
 * changing nothing.
 */
static int self_ret[3];
static irqreturn_t self_wait_handler(void *dev_id)
{
	self_ret[0] = synchronize_irq(L1);
	self_ret[1] = disable_irq(L1);
	self_ret[2] = free_irq(L1, dev_id);
	return IRQ_HANDLED;
}

TEST(diff_self_wait_refused)
{
	reset();
	CHECK_EQ(request_irq(L1, self_wait_handler, 0, "self", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(self_ret[0], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[1], -IRQSYNC_EDEADLK);
	CHECK_EQ(self_ret[2], -IRQSYNC_EDEADLK);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_SELF_DEADLOCK), 3);
	CHECK_EQ(st(L1).nr_actions, 1);
	CHECK_EQ(st(L1).depth, 0);
}

/* ==== threaded handlers: request_threaded_irq, irq_thread, synchronize_irq, __free_irq ==== */

/* A thread function held by a gate: run n waits for permit n (the case hands them out). */
static atomic_int th_started, th_finished, th_permits;
static void *th_dev;
static pthread_t th_tid;
static int th_data;		/* a plain write of every run */
static atomic_int prim_calls;
static _Atomic int prim_ret = IRQ_WAKE_THREAD;

static void th_reset(int permits)
{
	atomic_store(&th_started, 0);
	atomic_store(&th_finished, 0);
	atomic_store(&th_permits, permits);
	atomic_store(&prim_calls, 0);
	atomic_store(&prim_ret, IRQ_WAKE_THREAD);
	th_dev = NULL;
	th_data = 0;
}

static irqreturn_t th_fn(void *dev_id)
{
	int n = atomic_fetch_add(&th_started, 1);

	th_dev = dev_id;
	th_tid = pthread_self();
	while (atomic_load(&th_permits) <= n)
		sched_yield();
	th_data = n + 1;
	atomic_fetch_add(&th_finished, 1);
	return IRQ_HANDLED;
}

static irqreturn_t th_primary(void *dev_id)
{
	(void)dev_id;
	atomic_fetch_add(&prim_calls, 1);
	return (irqreturn_t)atomic_load(&prim_ret);
}

/* Wait until *@v >= @want (bounded only to turn a hang into a failure). */
static int th_wait(atomic_int *v, int want)
{
	long i;

	for (i = 0; i < 1000000L && atomic_load(v) < want; i++)
		if ((i & 15) == 15)
			sleep_ms(1);
		else
			sched_yield();
	return atomic_load(v) >= want;
}

/* A waiting call made by a thread of its own (not a CPU; CPU 0 dispatches nothing meanwhile). */
enum th_op { TH_SYNC, TH_FREE, TH_SYNC_HARD };
struct th_call {
	pthread_t tid;
	enum th_op op;
	atomic_int done;
	int ret;
	int finished_at_return;
	int data_at_return;
};

static void *th_call_main(void *arg)
{
	struct th_call *c = arg;

	switch (c->op) {
	case TH_SYNC:      c->ret = synchronize_irq(L1); break;
	case TH_FREE:      c->ret = free_irq(L1, &dev_a); break;
	case TH_SYNC_HARD: c->ret = synchronize_hardirq(L1); break;
	}
	c->finished_at_return = atomic_load(&th_finished);
	if (c->op != TH_SYNC_HARD)
		c->data_at_return = th_data;	/* only after a wait for the thread: no race */
	atomic_store(&c->done, 1);
	return NULL;
}

static void th_call_start(struct th_call *c, enum th_op op)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	CHECK_EQ(pthread_create(&c->tid, NULL, th_call_main, c), 0);
}

/* request_threaded_irq: no primary and no thread function is -EINVAL; a NULL primary gets
 * irq_default_primary_handler, which only wakes the thread, and __setup_irq refuses it without
 * IRQF_ONESHOT, -EINVAL (1c6c69525b40, "Reject bogus threaded irq requests": the default primary
 * cannot quiet a level-triggered device). */
TEST(linux_threaded_null_primary_needs_oneshot)
{
	struct world before, after;

	reset();
	th_reset(INT_MAX);
	world_get(&before);
	CHECK_EQ(request_threaded_irq(L1, NULL, th_fn, 0, "t", &dev_a), -EINVAL);
	CHECK_EQ(request_threaded_irq(L1, NULL, NULL, 0, "t", &dev_a), -EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
	CHECK_EQ(request_threaded_irq(L1, NULL, th_fn, IRQF_ONESHOT, "t", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&th_finished), 1);
	CHECK(th_dev == &dev_a);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* __setup_irq: the sharers of a line agree on IRQF_ONESHOT ("mismatch"), else -EBUSY. */
TEST(linux_threaded_sharers_agree_on_oneshot)
{
	struct world before, after;

	reset();
	th_reset(INT_MAX);
	CHECK_EQ(request_threaded_irq(L1, NULL, th_fn, IRQF_SHARED | IRQF_ONESHOT, "a", &dev_a), 0);
	CHECK_EQ(request_threaded_irq(L2, th_primary, th_fn, IRQF_SHARED, "b", &dev_b), 0);
	world_get(&before);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, IRQF_SHARED, "x", &dev_c), -EBUSY);
	CHECK_EQ(request_threaded_irq(L2, th_primary, th_fn, IRQF_SHARED | IRQF_ONESHOT, "x",
				      &dev_c), -EBUSY);
	world_get(&after);
	CHECK(world_same(&before, &after));
	CHECK_EQ(free_irq(L1, &dev_a), 0);
	CHECK_EQ(free_irq(L2, &dev_b), 0);
}

/* IRQ_WAKE_THREAD runs thread_fn in the action's own thread (irq_thread), with dev_id; the
 * interrupt counts as handled; wake-ups while the thread has not taken its run fold into one
 * run (IRQTF_RUNTHREAD is a bit, test_and_set by __irq_wake_thread). */
TEST(linux_threaded_wake_runs_thread_fn_and_folds)
{
	reset();
	th_reset(0);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, 0, "t", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(th_wait(&th_started, 1));			/* run 1 held */
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);			/* three wake-ups, one more run */
	atomic_store(&th_permits, INT_MAX);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(atomic_load(&th_finished), 2);
	CHECK(th_dev == &dev_a);
	CHECK(!pthread_equal(th_tid, pthread_self()));
	CHECK_EQ(st(L1).handled, 4);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* synchronize_irq waits for the hard handlers and then for the thread handlers
 * (wait_event(desc->wait_for_threads, !threads_active)). */
TEST(linux_synchronize_irq_waits_for_thread_fn)
{
	struct th_call c;

	reset();
	th_reset(0);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, 0, "t", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(th_wait(&th_started, 1));
	th_call_start(&c, TH_SYNC);
	sleep_ms(20);		/* a wrong early return would show here; a late one cannot fail */
	CHECK_EQ(atomic_load(&c.done), 0);
	atomic_store(&th_permits, INT_MAX);
	pthread_join(c.tid, NULL);
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* __free_irq waits as synchronize_irq does for the whole line, thread handlers included (since
 * 2023), then stops the action's thread (kthread_stop); its thread_fn never runs again. */
TEST(linux_free_irq_waits_for_thread_fn_then_stops_it)
{
	struct th_call c;

	reset();
	th_reset(0);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, 0, "t", &dev_a), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(th_wait(&th_started, 1));
	th_call_start(&c, TH_FREE);
	sleep_ms(20);		/* a wrong early return would show here; a late one cannot fail */
	CHECK_EQ(atomic_load(&c.done), 0);
	atomic_store(&th_permits, INT_MAX);
	pthread_join(c.tid, NULL);
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 1);
	CHECK_EQ(st(L1).nr_actions, 0);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(atomic_load(&th_started), 1);
}

/* synchronize_hardirq waits for the hard handlers only: "false if a threaded handler is
 * active", true otherwise, without waiting for it (here 1 and 0: diff_synchronize_hardirq_returns_int). */
TEST(linux_synchronize_hardirq_result_does_not_wait_for_thread)
{
	struct th_call c;

	reset();
	th_reset(0);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, 0, "t", &dev_a), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK(th_wait(&th_started, 1));
	th_call_start(&c, TH_SYNC_HARD);
	CHECK(th_wait(&c.done, 1));			/* returns with the thread still held */
	CHECK_EQ(c.ret, 0);
	CHECK_EQ(c.finished_at_return, 0);
	atomic_store(&th_permits, INT_MAX);
	pthread_join(c.tid, NULL);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* IRQF_ONESHOT: the line stays masked from the interrupt until the thread_fn has run
 * (irq_finalize_oneshot unmasks it); an interrupt meanwhile waits at the controller and comes
 * after.  A primary that wakes no thread leaves the line unmasked at the end of the flow
 * handler (cond_unmask_irq; ac5637611150). */
TEST(linux_oneshot_masked_until_thread_ran)
{
	struct irqsync_hosted_stats hst;

	reset();
	th_reset(0);
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, IRQF_ONESHOT, "o", &dev_a), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK(th_wait(&th_started, 1));
	CHECK_EQ(irqsync_hosted_raise(L1), 0);		/* masked: waits at the controller */
	CHECK_EQ(irqsync_hosted_stats(0, &hst), 0);
	CHECK_EQ(hst.held, 1);
	CHECK_EQ(atomic_load(&prim_calls), 1);
	atomic_store(&th_permits, INT_MAX);		/* the run ends: unmasked, it comes */
	CHECK(th_wait(&prim_calls, 2));
	CHECK(th_wait(&th_finished, 2));
	CHECK_EQ(synchronize_irq(L1), 0);
	atomic_store(&prim_ret, IRQ_HANDLED);		/* no thread woken: unmasked at once */
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(irqsync_hosted_raise(L1), 0);
	CHECK_EQ(atomic_load(&prim_calls), 4);
	CHECK_EQ(irqsync_hosted_stats(0, &hst), 0);
	CHECK_EQ(hst.held, 1);
	CHECK_EQ(hst.delivered, 4);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/*
 * DIFFERENCE (REQ-THREAD-2).  Linux accepts IRQF_ONESHOT without a thread function (recent kernels
 * warn): the flow handler masks the line and, with no thread to finalise it, unmasks it at the
 * end of the handler.  irqsync refuses it with -EINVAL and changes nothing: its ONESHOT line is
 * unmasked by the threads it woke, and a ONESHOT action without one is a driver's mistake.
 */
TEST(diff_oneshot_without_thread_fn_refused)
{
	struct world before, after;

	reset();
	world_get(&before);
	CHECK_EQ(request_threaded_irq(L1, handler_a, NULL, IRQF_ONESHOT, "o", &dev_a), -EINVAL);
	CHECK_EQ(request_irq(L1, handler_a, IRQF_ONESHOT, "o", &dev_a), -EINVAL);
	world_get(&after);
	CHECK(world_same(&before, &after));
}

/*
 * DIFFERENCE (REQ-THREAD-5).  Linux: synchronize_irq, disable_irq or free_irq called from one of
 * the line's own handler threads waits for that thread's own episode: a hang (free_irq from the
 * thread, 519cc8652b3a).  irqsync refuses with -EDEADLK and IRQSYNC_WARN_SELF_DEADLOCK, changing
 * nothing; synchronize_hardirq (0: this episode is active), disable_hardirq and
 * disable_irq_nosync stay allowed, as in Linux.
 */
static int thself_ret[6];
static irqreturn_t thself_fn(void *dev_id)
{
	thself_ret[0] = synchronize_irq(L1);
	thself_ret[1] = disable_irq(L1);
	thself_ret[2] = free_irq(L1, dev_id);
	thself_ret[3] = synchronize_hardirq(L1);
	thself_ret[4] = disable_irq_nosync(L1);
	thself_ret[5] = enable_irq(L1);
	return IRQ_HANDLED;
}

TEST(diff_self_wait_from_own_thread_refused)
{
	reset();
	memset(thself_ret, 0x55, sizeof(thself_ret));
	CHECK_EQ(request_threaded_irq(L1, th_primary, thself_fn, 0, "self", &dev_a), 0);
	atomic_store(&prim_ret, IRQ_WAKE_THREAD);
	CHECK_EQ(handle_irq(L1), 0);
	CHECK_EQ(synchronize_irq(L1), 0);
	CHECK_EQ(thself_ret[0], -EDEADLK);
	CHECK_EQ(thself_ret[1], -EDEADLK);
	CHECK_EQ(thself_ret[2], -EDEADLK);
	CHECK_EQ(thself_ret[3], 0);
	CHECK_EQ(thself_ret[4], 0);
	CHECK_EQ(thself_ret[5], 0);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_SELF_DEADLOCK), 3);
	CHECK_EQ(st(L1).nr_actions, 1);
	CHECK_EQ(st(L1).depth, 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/*
 * DIFFERENCE (REQ-THREAD-4).  Linux's synchronize_irq ends in wait_event(), whose fast path reads
 * threads_active relaxed: on a weakly ordered CPU its caller may read data older than the last
 * writes of the thread_fn it waited for (the control dependency orders its later stores only).
 * irqsync's waiter reads the count with acquire, which pairs with the thread's release
 * decrement: every plain write of the thread_fn is the caller's on return.  (The ordering shows
 * on weak hardware and under the model's WEAK memory, [31-model-threaded]; here the promise,
 * checked by TSan too in [20-unit].)
 */
TEST(diff_thread_waiter_reads_count_with_acquire)
{
	struct th_call c;
	int i;

	reset();
	CHECK_EQ(request_threaded_irq(L1, th_primary, th_fn, 0, "t", &dev_a), 0);
	for (i = 0; i < 50; i++) {
		th_reset(0);
		CHECK_EQ(handle_irq(L1), 0);
		th_call_start(&c, TH_SYNC);
		atomic_store(&th_permits, INT_MAX);
		pthread_join(c.tid, NULL);
		CHECK_EQ(c.ret, 0);
		CHECK_EQ(c.data_at_return, 1);		/* the thread_fn's plain write */
	}
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/*
 * DIFFERENCE (REQ-ERR-7, REQ-THREAD-9).  Linux: bool synchronize_hardirq(irq), bool
 * disable_hardirq(irq): false when a thread handler is active.  irqsync returns int: 1 / 0 for
 * true / false, and a negative code as every call does (-EINVAL for a bad line, -EDEADLK from
 * the line's own hard handler).
 */
TEST(diff_synchronize_hardirq_returns_int)
{
	CHECK(_Generic(&synchronize_hardirq, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&disable_hardirq, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&request_threaded_irq, int (*)(unsigned int, irq_handler_t, irq_handler_t,
						      unsigned long, const char *, void *): 1,
		       default: 0));
	reset();
	CHECK_EQ(synchronize_hardirq(NR_IRQS), -EINVAL);
	CHECK_EQ(disable_hardirq(NR_IRQS), -EINVAL);
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(synchronize_hardirq(L1), 1);
	CHECK_EQ(disable_hardirq(L1), 1);
	CHECK_EQ(st(L1).depth, 1);
	CHECK_EQ(enable_irq(L1), 0);
	CHECK_EQ(free_irq(L1, &dev_a), 0);
}

/* ==== the API's shape ==== */

/*
 * DIFFERENCE (REQ-ERR-7).  Return types: Linux's free_irq returns the action's name (const
 * void *, NULL when nothing was freed), synchronize_irq, disable_irq, disable_irq_nosync and
 * enable_irq return nothing.  irqsync's return int: 0 or a negative code whose values are
 * Linux's errno values.  Pinned at compile time by the function types.
 */
TEST(diff_api_signatures)
{
	CHECK(_Generic(&free_irq, int (*)(unsigned int, void *): 1, default: 0));
	CHECK(_Generic(&synchronize_irq, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&disable_irq, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&disable_irq_nosync, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&enable_irq, int (*)(unsigned int): 1, default: 0));
	CHECK(_Generic(&request_irq, int (*)(unsigned int, irq_handler_t, unsigned long,
					     const char *, void *): 1, default: 0));
	CHECK_EQ(IRQSYNC_EINVAL, EINVAL);
	CHECK_EQ(IRQSYNC_EBUSY, EBUSY);
	CHECK_EQ(IRQSYNC_ENOENT, ENOENT);
}

/*
 * DIFFERENCE (REQ-DISPATCH-5).  Linux keeps INPROGRESS and DISABLED in irq_data's state and
 * PENDING in the core-internal istate (IRQS_PENDING = 0x200 there), none of them an API.
 * irqsync publishes its status word through irq_stats() with its own values; the names
 * IRQS_* are not Linux's bits.
 */
TEST(diff_public_status_bits)
{
	CHECK_EQ(IRQS_INPROGRESS, 0x1);
	CHECK_EQ(IRQS_PENDING, 0x2);
	CHECK_EQ(IRQS_DISABLED, 0x4);
	reset();
	CHECK_EQ(st(L1).status, IRQS_DISABLED);
	CHECK_EQ(request_irq(L1, handler_a, 0, "a", &dev_a), 0);
	CHECK_EQ(st(L1).status, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (irqsync_hosted_cpu_attach(0) != 0) {
		printf("not ok 1 - attach main thread as CPU 0\n1..1\n");
		return 1;
	}
	RUN_REQ(linux_kunit_irq_disable_depth_test, "REQ-DEPTH-1 REQ-DEPTH-3 REQ-LIFECYCLE-1");
	RUN_REQ(linux_kunit_irq_free_disabled_test, "REQ-LIFECYCLE-4 REQ-LIFECYCLE-1");
	SKIP(linux_kunit_irq_shutdown_depth_test,
	     "needs an irqchip and managed affinity (irq_shutdown_and_deactivate): irqsync has neither");
	SKIP(linux_kunit_irq_cpuhotplug_test,
	     "needs CPU hotplug (remove_cpu/add_cpu): irqsync's CPUs are fixed");
	RUN_REQ(linux_request_bad_arguments_einval, "REQ-ERR-2 REQ-LIFECYCLE-3");
	RUN_REQ(linux_request_flags_mismatch_ebusy, "REQ-LIFECYCLE-2");
	RUN_REQ(linux_shared_chain_order_every_action_called, "REQ-DISPATCH-4");
	RUN_REQ(linux_first_request_starts_line_at_depth_0, "REQ-LIFECYCLE-1");
	RUN_REQ(linux_request_resets_spurious_detector, "REQ-LIFECYCLE-7 REQ-DISPATCH-6");
	RUN_REQ(linux_shared_join_resets_spurious_detector, "REQ-LIFECYCLE-7 REQ-DISPATCH-6");
	RUN_REQ(diff_shared_join_keeps_spurious_disable, "REQ-LIFECYCLE-8 REQ-DISPATCH-6");
	RUN_REQ(diff_duplicate_shared_dev_id_refused, "REQ-LIFECYCLE-3");
	RUN_REQ(diff_unknown_flags_refused, "REQ-ERR-2");
	RUN_REQ(diff_sharer_pool_bounded, "REQ-LIFECYCLE-6");
	RUN_REQ(linux_free_unknown_warns_changes_nothing, "REQ-ERR-3");
	RUN_REQ(linux_free_one_sharer_keeps_rest, "REQ-LIFECYCLE-4");
	RUN_REQ(linux_enable_after_last_free_enables_line_without_action,
		"REQ-LIFECYCLE-4 REQ-DEPTH-3 REQ-DISPATCH-9");
	RUN_REQ(diff_last_free_sets_depth_1, "REQ-LIFECYCLE-4 REQ-DEPTH-4");
	RUN_REQ(linux_disable_nests, "REQ-DEPTH-1 REQ-DEPTH-2 REQ-DEPTH-3");
	RUN_REQ(linux_unbalanced_enable_warns_changes_nothing, "REQ-DEPTH-4 REQ-ERR-5");
	RUN_REQ(linux_disabled_line_held_then_resent_once, "REQ-DISPATCH-7");
	RUN_REQ(diff_disable_depth_bounded, "REQ-DEPTH-5");
	RUN_REQ(linux_handler_runs_with_irqs_off, "REQ-DISPATCH-8");
	RUN_REQ(diff_handler_gets_no_irq_argument, "REQ-HANDLER-1 REQ-HANDLER-2");
	RUN_REQ(linux_pass_handled_if_any_action_handled, "REQ-DISPATCH-5");
	RUN_REQ(diff_bogus_return_counts_as_none, "REQ-DISPATCH-5");
	RUN_REQ(linux_arrival_during_instance_replayed, "REQ-DISPATCH-2");
	RUN_REQ(linux_no_replay_on_line_disabled_meanwhile, "REQ-DISPATCH-2 REQ-DISPATCH-7 REQ-DEPTH-2");
	RUN_REQ(diff_stray_interrupt_counted_not_held, "REQ-DISPATCH-9");
	RUN_REQ(linux_nobody_cared_disables_line, "REQ-DISPATCH-6");
	RUN_REQ(diff_spurious_window_in_passes, "REQ-DISPATCH-6");
	RUN_REQ(diff_spurious_disabled_line_not_polled, "REQ-DISPATCH-6");
	RUN_REQ(linux_synchronize_idle_line_returns, "REQ-SYNC-1");
	RUN_REQ(linux_synchronize_waits_for_handler_on_other_cpu, "REQ-SYNC-1");
	RUN_REQ(diff_self_wait_refused, "REQ-ERR-4");
	RUN_REQ(linux_threaded_null_primary_needs_oneshot, "REQ-THREAD-2 REQ-ERR-2");
	RUN_REQ(linux_threaded_sharers_agree_on_oneshot, "REQ-THREAD-3 REQ-LIFECYCLE-2");
	RUN_REQ(linux_threaded_wake_runs_thread_fn_and_folds, "REQ-THREAD-7 REQ-THREAD-8 REQ-DISPATCH-5");
	RUN_REQ(linux_synchronize_irq_waits_for_thread_fn, "REQ-THREAD-1 REQ-SYNC-1");
	RUN_REQ(linux_free_irq_waits_for_thread_fn_then_stops_it, "REQ-THREAD-6 REQ-LIFECYCLE-5");
	RUN_REQ(linux_synchronize_hardirq_result_does_not_wait_for_thread, "REQ-THREAD-9");
	RUN_REQ(linux_oneshot_masked_until_thread_ran, "REQ-ONESHOT-1 REQ-ONESHOT-3 REQ-ONESHOT-4");
	RUN_REQ(diff_oneshot_without_thread_fn_refused, "REQ-THREAD-2 REQ-ERR-2");
	RUN_REQ(diff_self_wait_from_own_thread_refused, "REQ-THREAD-5 REQ-ERR-4");
	RUN_REQ(diff_thread_waiter_reads_count_with_acquire, "REQ-THREAD-4");
	RUN_REQ(diff_synchronize_hardirq_returns_int, "REQ-THREAD-9 REQ-ERR-7");
	RUN_REQ(diff_api_signatures, "REQ-ERR-7");
	RUN_REQ(diff_public_status_bits, "REQ-DISPATCH-5");
	return check_done();
}

/* main.c — irqsync on bare metal: the real library, a bare-metal port, real timer interrupts.
 *
 * Boards (board.h): qemu's mps2-an385 (one Cortex-M3, CMSDK timers, NVIC; the Armv7-M port)
 * and qemu's virt (one Cortex-A53, generic timers, GICv2; the AArch64 port). Two timers
 * raise interrupts whose entries call handle_irq() for irqsync lines LINE_T0 (one driver,
 * the tg3 pattern) and LINE_T1 (shared by two drivers). The program requests the lines, lets the handlers
 * run, masks, disables, enables, synchronizes and frees, and checks each guarantee on the
 * way. Output is TAP over semihosting; the exit status (semihosting SYS_EXIT_EXTENDED) is
 * the number of failed cases, so `make cross` and tests/suites/70-cross.sh read the verdict
 * from qemu's exit code.
 *
 * Single CPU: a handler instance runs to its end before thread code resumes, so the SYNC
 * guarantees are checked here on the real code path, not against a concurrent instance —
 * the concurrent cases are the Linux targets' stress tests (spec/targets.md).
 *
 * No wait here is timed: every wait counts loop iterations or timer events, and gives up
 * (failing the case) after a bound, so a broken port ends the run instead of hanging it.
 */
#include <irqsync/irqsync.h>
#include "board.h"
#include "semihost.h"
#include "bmcheck.h"

#if defined(__aarch64__)
#define BM_PORT "baremetal-aarch64 (DAIF.I)"
#else
#define BM_PORT "baremetal-armv7m (PRIMASK)"
#endif

int bm_n_tests, bm_n_failed, bm_cur_failed;

#define LINE_T0		3	/* irqsync line of CMSDK timer 0 (exclusive) */
#define LINE_T1		5	/* irqsync line of CMSDK timer 1 (shared by two actions) */
#define T0_PERIOD_US	800u	/* timer periods: 0.8 ms ... */
#define T1_PERIOD_US	1240u	/* ... and 1.24 ms, so the two interleave */
#define WAIT_BOUND	2000000ul	/* loop iterations before a wait gives up */

/* Every timer interrupt taken, whatever irqsync then does with it. */
static volatile unsigned long raw0, raw1;

/* The board's interrupt entry, after it acknowledged the timer: the port's job ends here,
 * irqsync's begins (handle_irq masks and takes the descriptor lock itself). */
void bm_timer_event(unsigned int i)
{
	if (i == 0) {
		raw0++;
		(void)handle_irq(LINE_T0);
	} else {
		raw1++;
		(void)handle_irq(LINE_T1);
	}
}

/* The driver of timer 0: the tg3 quiesce pattern (act only while `quiesce` is 0). */
struct t0_dev {
	volatile int quiesce;		/* the driver's flag (DRV_STORE_FLAG) */
	volatile unsigned long runs;	/* handler calls */
	volatile unsigned long acted;	/* calls that read quiesce == 0 (H_WORK) */
	volatile unsigned long bad_ctx;	/* calls with irqs enabled or a wrong line */
	volatile int inside;		/* 1 while the handler body runs */
	volatile unsigned long last_write; /* the handler's last write (REQ-SYNC-2) */
	volatile int probe;		/* ask the handler to try the waiting calls */
	volatile int probe_sync, probe_disable, probe_free, probe_nosync, probe_enable;
};

static struct t0_dev dev0;

static irqreturn_t t0_handler(void *dev_id)
{
	struct t0_dev *d = dev_id;

	d->inside = 1;
	if (!irqs_disabled() || get_irqfunc_irq() != LINE_T0)
		d->bad_ctx++;
	d->runs++;
	if (!d->quiesce)
		d->acted++;
	if (d->probe) {
		/* REQ-ERR-4: waiting on its own line from its handler is refused... */
		d->probe_sync = synchronize_irq(LINE_T0);
		d->probe_disable = disable_irq(LINE_T0);
		d->probe_free = free_irq(LINE_T0, d);
		/* ...while the non-waiting forms work here (REQ-DEPTH-2). */
		d->probe_nosync = disable_irq_nosync(LINE_T0);
		d->probe_enable = enable_irq(LINE_T0);
		d->probe = 0;
	}
	d->last_write = d->runs;
	d->inside = 0;
	return IRQ_HANDLED;
}

/* The two drivers sharing timer 1: each pass must call A, then B (REQ-DISPATCH-4). */
struct t1_dev {
	volatile unsigned long runs;
	volatile unsigned long order_errors;
};

static struct t1_dev devA, devB;
static volatile int t1_a_seen;		/* A ran in this pass and B not yet */
static volatile int t1_both;		/* both actions installed: B must follow A */

static irqreturn_t t1_handler_a(void *dev_id)
{
	struct t1_dev *d = dev_id;

	if (d != &devA || t1_a_seen)
		d->order_errors++;
	t1_a_seen = 1;
	d->runs++;
	return IRQ_HANDLED;
}

static irqreturn_t t1_handler_b(void *dev_id)
{
	struct t1_dev *d = dev_id;

	if (d != &devB || (t1_both && !t1_a_seen))
		d->order_errors++;
	t1_a_seen = 0;
	d->runs++;
	return IRQ_NONE;	/* "not my device": the pass counts as handled through A */
}

/* Wait (bounded, WFI between checks) until *ctr reaches target. Return: 1 if it did. */
static int wait_for(volatile unsigned long *ctr, unsigned long target)
{
	unsigned long n;

	for (n = 0; n < WAIT_BOUND && *ctr < target; n++)
		__asm__ volatile("wfi");
	return *ctr >= target;
}

/* Busy-wait with interrupts masked until timer 0 has expired at least once (its status,
 * read from the device without taking the interrupt). Return: 1 if it did. */
static int wait_timer0_raised(void)
{
	unsigned long n;

	for (n = 0; n < WAIT_BOUND; n++) {
		if (bm_timer_raised(0))
			return 1;
	}
	return 0;
}

static struct irq_stats stats(unsigned int irq)
{
	struct irq_stats st = { 0, 0, 0, 0, 0 };

	(void)irq_stats(irq, &st);
	return st;
}

/* ---- the cases, in the order of a driver's life ---- */

static void test_request_lines(void)
{
	irqsync_init();
	BM_CHECK_EQ(request_irq(LINE_T0, t0_handler, 0, "timer0", &dev0), 0);
	BM_CHECK_EQ(request_irq(LINE_T1, t1_handler_a, IRQF_SHARED, "timer1-a", &devA), 0);
	BM_CHECK_EQ(request_irq(LINE_T1, t1_handler_b, IRQF_SHARED, "timer1-b", &devB), 0);
	t1_both = 1;
	/* an exclusive line refuses a second action; a shared one a duplicate dev_id */
	BM_CHECK_EQ(request_irq(LINE_T0, t0_handler, 0, "again", &devA), -IRQSYNC_EBUSY);
	BM_CHECK_EQ(request_irq(LINE_T1, t1_handler_a, IRQF_SHARED, "dup", &devA),
		    -IRQSYNC_EINVAL);
	BM_CHECK_EQ(stats(LINE_T0).nr_actions, 1);
	BM_CHECK_EQ(stats(LINE_T1).nr_actions, 2);
	BM_CHECK_EQ(stats(LINE_T0).depth, 0);

	bm_board_init();
	bm_timer_start(0, T0_PERIOD_US);
	bm_timer_start(1, T1_PERIOD_US);
}

static void test_timer_drives_handlers(void)
{
	BM_CHECK(wait_for(&dev0.runs, 50));
	BM_CHECK(wait_for(&devB.runs, 30));
	BM_CHECK_EQ(dev0.bad_ctx, 0);
	BM_CHECK(stats(LINE_T0).handled >= 50);
	BM_CHECK(!irqs_disabled());
}

static void test_shared_line_calls_all(void)
{
	irq_flags_t f;
	unsigned long a, b, handled, unhandled;

	local_irq_save(f);
	a = devA.runs;
	b = devB.runs;
	handled = stats(LINE_T1).handled;
	unhandled = stats(LINE_T1).unhandled;
	local_irq_restore(f);
	BM_CHECK(a >= 30);
	BM_CHECK_EQ(a, b);			/* every pass called both */
	BM_CHECK_EQ(devA.order_errors + devB.order_errors, 0);
	BM_CHECK_EQ(handled, a);		/* A said IRQ_HANDLED each pass (REQ-DISPATCH-5) */
	BM_CHECK_EQ(unhandled, 0);
}

static void test_local_irq_masks_the_cpu(void)
{
	irq_flags_t outer, inner;
	unsigned long before;

	local_irq_save(outer);
	BM_CHECK_EQ(irqs_disabled(), 1);
	before = raw0;
	bm_timer_clear(0);
	BM_CHECK(wait_timer0_raised());		/* the timer fired ... */
	BM_CHECK_EQ(raw0, before);		/* ... and was held by PRIMASK */
	local_irq_save(inner);			/* nested save of "disabled" */
	local_irq_restore(inner);
	BM_CHECK_EQ(irqs_disabled(), 1);	/* still disabled (REQ-LOCK-3) */
	BM_CHECK_EQ(raw0, before);
	local_irq_restore(outer);
	BM_CHECK_EQ(irqs_disabled(), 0);
	BM_CHECK(raw0 > before);		/* the held interrupt came at the unmask */

	local_irq_disable();
	BM_CHECK_EQ(irqs_disabled(), 1);
	local_irq_enable();
	BM_CHECK_EQ(irqs_disabled(), 0);
}

static void test_spinlock_irqsave_restores(void)
{
	static DEFINE_SPINLOCK(lock);
	irq_flags_t f, g;

	spin_lock_irqsave(&lock, f);		/* from "enabled" */
	BM_CHECK_EQ(irqs_disabled(), 1);
	spin_unlock_irqrestore(&lock, f);
	BM_CHECK_EQ(irqs_disabled(), 0);

	local_irq_save(f);			/* from "disabled" */
	spin_lock_irqsave(&lock, g);
	spin_unlock_irqrestore(&lock, g);
	BM_CHECK_EQ(irqs_disabled(), 1);
	local_irq_restore(f);
	BM_CHECK_EQ(irqs_disabled(), 0);

	spin_lock_irq(&lock);
	BM_CHECK_EQ(irqs_disabled(), 1);
	spin_unlock_irq(&lock);
	BM_CHECK_EQ(irqs_disabled(), 0);
	BM_CHECK_EQ(irqsync_atomic_read_relaxed(&lock.next), 3);	/* three tickets ... */
	BM_CHECK_EQ(irqsync_atomic_read_relaxed(&lock.owner), 3);	/* ... all served */
}

static void test_disable_holds_enable_replays(void)
{
	irq_flags_t f;
	unsigned long runs, raw;
	struct irq_stats st;

	BM_CHECK_EQ(disable_irq(LINE_T0), 0);
	BM_CHECK_EQ(dev0.inside, 0);		/* no instance runs after the return */
	runs = dev0.runs;
	raw = raw0;
	BM_CHECK(wait_for(&raw0, raw + 5));	/* five arrivals while disabled ... */
	BM_CHECK_EQ(dev0.runs, runs);		/* ... ran no handler */
	st = stats(LINE_T0);
	BM_CHECK_EQ(st.depth, 1);
	BM_CHECK_EQ(st.status & (IRQS_DISABLED | IRQS_PENDING), IRQS_DISABLED | IRQS_PENDING);

	BM_CHECK_EQ(disable_irq(LINE_T0), 0);	/* nesting: depth 2 */
	BM_CHECK_EQ(enable_irq(LINE_T0), 0);	/* depth 1: still disabled */
	BM_CHECK_EQ(stats(LINE_T0).depth, 1);
	BM_CHECK_EQ(dev0.runs, runs);

	/* Masked, so that no fresh timer interrupt can add a run: exactly one replay. */
	local_irq_save(f);
	BM_CHECK_EQ(enable_irq(LINE_T0), 0);
	BM_CHECK_EQ(dev0.runs, runs + 1);
	st = stats(LINE_T0);
	local_irq_restore(f);
	BM_CHECK_EQ(st.depth, 0);
	BM_CHECK_EQ(st.status & (IRQS_DISABLED | IRQS_PENDING | IRQS_INPROGRESS), 0);
	BM_CHECK(wait_for(&dev0.runs, runs + 5));	/* the line runs again */
}

static void test_unbalanced_enable_changes_nothing(void)
{
	struct irq_stats before, after;
	long warns = irqsync_warn_count(IRQSYNC_WARN_UNBALANCED_ENABLE);
	irq_flags_t f;

	local_irq_save(f);
	before = stats(LINE_T0);
	BM_CHECK_EQ(enable_irq(LINE_T0), -IRQSYNC_EINVAL);
	after = stats(LINE_T0);
	local_irq_restore(f);
	BM_CHECK_EQ(after.depth, before.depth);
	BM_CHECK_EQ(after.status, before.status);
	BM_CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_UNBALANCED_ENABLE), warns + 1);
}

static void test_handler_may_not_wait_on_its_line(void)
{
	unsigned long runs = dev0.runs;

	dev0.probe = 1;
	BM_CHECK(wait_for(&dev0.runs, runs + 2));
	BM_CHECK_EQ(dev0.probe, 0);
	BM_CHECK_EQ(dev0.probe_sync, -IRQSYNC_EDEADLK);
	BM_CHECK_EQ(dev0.probe_disable, -IRQSYNC_EDEADLK);
	BM_CHECK_EQ(dev0.probe_free, -IRQSYNC_EDEADLK);
	BM_CHECK_EQ(dev0.probe_nosync, 0);
	BM_CHECK_EQ(dev0.probe_enable, 0);
	BM_CHECK_EQ(stats(LINE_T0).nr_actions, 1);	/* the refused free changed nothing */
	BM_CHECK_EQ(stats(LINE_T0).depth, 0);
	BM_CHECK_EQ(get_irqfunc_irq(), -IRQSYNC_ESRCH);	/* not in a handler here */
}

/* The tg3 quiesce pattern, with and without the caller's barrier: after synchronize_irq
 * returns, no handler instance acts on the old flag, and the handler's last write is seen. */
static void test_tg3_quiesce(void)
{
	unsigned long acted, runs;

	dev0.quiesce = 1;
	smp_mb();
	BM_CHECK_EQ(synchronize_irq(LINE_T0), 0);
	BM_CHECK_EQ(dev0.inside, 0);
	BM_CHECK_EQ(dev0.last_write, dev0.runs);
	acted = dev0.acted;
	runs = dev0.runs;
	BM_CHECK(wait_for(&dev0.runs, runs + 10));
	BM_CHECK_EQ(dev0.acted, acted);		/* later instances saw quiesce == 1 */

	dev0.quiesce = 0;
	BM_CHECK(wait_for(&dev0.acted, acted + 3));	/* the driver works again */
	dev0.quiesce = 1;				/* no barrier this time (REQ-SYNC-4) */
	BM_CHECK_EQ(synchronize_irq(LINE_T0), 0);
	acted = dev0.acted;
	runs = dev0.runs;
	BM_CHECK(wait_for(&dev0.runs, runs + 10));
	BM_CHECK_EQ(dev0.acted, acted);
	BM_CHECK_EQ(dev0.bad_ctx, 0);
}

static void test_free_stops_the_handler(void)
{
	unsigned long runs, raw, unhandled, a, b;
	irq_flags_t f;

	/* shared line: freeing A leaves B called (REQ-LIFECYCLE-4) */
	t1_both = 0;
	BM_CHECK_EQ(free_irq(LINE_T1, &devA), 0);
	a = devA.runs;
	b = devB.runs;
	BM_CHECK(wait_for(&devB.runs, b + 5));
	BM_CHECK_EQ(devA.runs, a);
	BM_CHECK_EQ(stats(LINE_T1).nr_actions, 1);

	/* an unknown dev_id is reported and changes nothing (REQ-ERR-3) */
	BM_CHECK_EQ(free_irq(LINE_T1, &devA), -IRQSYNC_ENOENT);
	BM_CHECK_EQ(stats(LINE_T1).nr_actions, 1);

	/* exclusive line: after free_irq the handler never runs again (REQ-LIFECYCLE-5) */
	BM_CHECK_EQ(free_irq(LINE_T0, &dev0), 0);
	BM_CHECK_EQ(dev0.inside, 0);
	local_irq_save(f);
	runs = dev0.runs;
	raw = raw0;
	unhandled = stats(LINE_T0).unhandled;
	local_irq_restore(f);
	BM_CHECK(wait_for(&raw0, raw + 5));
	BM_CHECK_EQ(dev0.runs, runs);
	/* the arrivals of a line without action are counted, not dispatched (REQ-DISPATCH-9) */
	BM_CHECK(stats(LINE_T0).unhandled >= unhandled + 5);
	BM_CHECK_EQ(stats(LINE_T0).nr_actions, 0);
}

static void test_bad_lines_rejected(void)
{
	BM_CHECK_EQ(handle_irq(NR_IRQS), -IRQSYNC_EINVAL);
	BM_CHECK_EQ(synchronize_irq(NR_IRQS), -IRQSYNC_EINVAL);
	BM_CHECK_EQ(disable_irq(NR_IRQS), -IRQSYNC_EINVAL);
	BM_CHECK_EQ(enable_irq(NR_IRQS), -IRQSYNC_EINVAL);
	BM_CHECK_EQ(request_irq(NR_IRQS, t0_handler, 0, "x", &dev0), -IRQSYNC_EINVAL);
	BM_CHECK_EQ(free_irq(NR_IRQS, &dev0), -IRQSYNC_EINVAL);
}

int main(void)
{
	sh_puts("# irqsync bare metal: port " BM_PORT " on ");
	sh_puts(bm_board_name);
	sh_puts("\n");
	BM_RUN(request_lines, "REQ-LIFECYCLE-1 REQ-LIFECYCLE-2 REQ-LIFECYCLE-3");
	BM_RUN(timer_drives_handlers, "REQ-DISPATCH-8 REQ-HANDLER-2 REQ-DISPATCH-5");
	BM_RUN(shared_line_calls_all, "REQ-DISPATCH-4 REQ-DISPATCH-5");
	BM_RUN(local_irq_masks_the_cpu, "REQ-LOCK-6 REQ-LOCK-3");
	BM_RUN(spinlock_irqsave_restores, "REQ-LOCK-3 REQ-LOCK-4 REQ-LOCK-1");
	BM_RUN(disable_holds_enable_replays, "REQ-DEPTH-1 REQ-DEPTH-3 REQ-DISPATCH-7");
	BM_RUN(unbalanced_enable_changes_nothing, "REQ-DEPTH-4 REQ-ERR-5");
	BM_RUN(handler_may_not_wait_on_its_line, "REQ-ERR-4 REQ-DEPTH-2 REQ-HANDLER-2");
	BM_RUN(tg3_quiesce, "REQ-SYNC-1 REQ-SYNC-2 REQ-SYNC-3 REQ-SYNC-4");
	BM_RUN(free_stops_the_handler, "REQ-LIFECYCLE-4 REQ-LIFECYCLE-5 REQ-ERR-3 REQ-DISPATCH-9");
	BM_RUN(bad_lines_rejected, "REQ-ERR-1 REQ-DISPATCH-9");

	bm_timer_stop(0);
	bm_timer_stop(1);
	sh_puts("1..");
	sh_putu((unsigned long)bm_n_tests);
	sh_puts("\n");
	return bm_n_failed;
}

/* smp.c — irqsync on bare metal with two CPUs: handler instances on one CPU, the driver's
 * synchronize/disable/free on the other, both real, concurrently.
 *
 * Board: qemu's virt with two Cortex-A53 (-smp 2, multi-threaded TCG: the two vCPUs are two
 * host threads), the AArch64 port built with IRQSYNC_NR_CPUS=2. CPU 1 is the interrupt CPU:
 * its generic timer fires every T_PERIOD_US and its IRQ entry calls handle_irq(LINE).
 * CPU 0 is the driver: it runs the tg3 quiesce pattern (quiesce = 1, every other round
 * smp_mb(), synchronize_irq), disable_irq/enable_irq and free_irq/request_irq, and checks
 * after each return what the API promises about the handler instances of CPU 1.
 *
 * Half of the rounds start at a random point of the handler's cycle; the other half wait
 * until CPU 0 sees a handler instance acting (it stays in its body ACT_US) and call
 * synchronize/disable/free right then: the call began while that instance ran, so at its
 * return the instance must have ended (REQ-SYNC-1, REQ-DEPTH-1, REQ-LIFECYCLE-5). The same
 * program linked with a library whose synchronize does not wait (twins/variants/sync-nowait.c
 * in place of src/core/sync.c) must report violations (tests/suites/70-cross.sh): that is what
 * shows these checks can fail.
 *
 * TAP over semihosting; exit status = number of failed cases. No assertion is timed. A wait
 * for CPU 1 is bounded by CPU 1's own progress -- the timer interrupts it takes, counted at its
 * entry whatever the line's state -- never by CPU 0's iterations or a clock: on a loaded host
 * qemu's two vCPU threads run unevenly, and a bound in CPU 0's terms would give up while CPU 1
 * sat descheduled. Only a CPU 1 that takes no interrupt at all while CPU 0 spins WAIT_BOUND
 * times ends a wait as "silent". The rounds are sized by overlaps (calls that began while an
 * instance acted), not by a fixed count: a loop runs its rounds and then more, up to
 * ROUNDS_MAX_FACTOR times as many, until it has its overlaps. The timer counter only paces
 * the handler's body and the random pauses.
 */
#include <irqsync/irqsync.h>
#include "board.h"
#include "semihost.h"
#include "bmcheck.h"

#if IRQSYNC_NR_CPUS < 2
#error "smp.c needs a library built with IRQSYNC_NR_CPUS >= 2"
#endif

int bm_n_tests, bm_n_failed, bm_cur_failed;

#define LINE		4
#define T_PERIOD_US	1000u		/* CPU 1's timer period */
#define ACT_US		400u		/* how long an acting handler stays in its body */
#define ROUNDS		60		/* tg3 rounds; disable and free: ROUNDS / 3 each */
#define WAIT_BOUND	200000000ul	/* CPU 0 iterations without one CPU 1 interrupt: silent */
#define ACT_EVENTS	2000ul		/* CPU 1 interrupts a wait for an acting instance may take */
#define PROGRESS_EVENTS	64ul		/* ... a wait for a handler call or an action may take */
#define ROUNDS_MAX_FACTOR 8		/* rounds run at most, as a multiple of the planned ones */
#define OVERLAPS_TG3	10ul		/* overlapping calls each loop needs: tg3 ... */
#define OVERLAPS_OTHER	3ul		/* ... disable, free */

/* Shared between the CPUs. _Atomic for the flags and counters the checks read: they only
 * observe; the library's guarantees are what is tested. */
static _Atomic unsigned long raw_events;	/* timer interrupts taken on CPU 1 */
static _Atomic int cpu1_up;

struct tg3_dev {
	_Atomic int quiesce;		/* the driver's flag (DRV_STORE_FLAG) */
	_Atomic int acting;		/* 1 while a handler acts (it read quiesce == 0) */
	_Atomic unsigned long runs;	/* handler calls */
	_Atomic unsigned long acted;	/* calls that acted */
	_Atomic unsigned long irqs_on;	/* calls with local interrupts enabled (REQ-DISPATCH-8) */
	_Atomic unsigned long on_cpu0;	/* calls on CPU 0: enable_irq's replays */
	_Atomic int freed;		/* set by the driver once free_irq returned */
	_Atomic unsigned long after_free;	/* calls while freed (REQ-LIFECYCLE-5) */
	_Atomic int disabled;		/* set once disable_irq returned, cleared before enable */
	_Atomic unsigned long while_disabled;	/* calls while disabled (REQ-DEPTH-1) */
	volatile unsigned long last_write; /* not atomic: written by acting handlers only, set to
					    * the acted count they complete (REQ-SYNC-2) */
};

static struct tg3_dev dev;

static unsigned long counter(void)
{
	unsigned long now;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(now) : : "memory");
	return now;
}

static unsigned long ticks_per_us(void)
{
	unsigned long frq;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	return frq / 1000000ul;
}

static unsigned long this_cpu(void)
{
	unsigned long mpidr;

	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
	return mpidr & 0xfful;
}

static irqreturn_t tg3_handler(void *dev_id)
{
	struct tg3_dev *d = dev_id;
	unsigned long end;

	if (!irqs_disabled())
		d->irqs_on++;
	if (this_cpu() == 0)
		d->on_cpu0++;
	if (d->freed)
		d->after_free++;
	if (d->disabled)
		d->while_disabled++;
	d->runs++;
	if (!d->quiesce) {
		d->acting = 1;
		end = counter() + ACT_US * ticks_per_us();
		while (counter() < end)
			;
		d->last_write = d->acted + 1;
		d->acted++;
		d->acting = 0;
	}
	return IRQ_HANDLED;
}

void bm_timer_event(unsigned int i)
{
	(void)i;
	raw_events++;
	(void)handle_irq(LINE);
}

/* CPU 1: its timer drives the line; it never returns. */
static void cpu1_main(void)
{
	bm_timer_start(0, T_PERIOD_US);
	cpu1_up = 1;
	for (;;)
		__asm__ volatile("wfi");
}

/* Wait until cond, or until CPU 1 has taken `events` timer interrupts since the wait began
 * (its own progress), or until it has been silent for WAIT_BOUND of CPU 0's iterations. */
#define WAIT_CPU1(cond, events) ({ unsigned long n_ = 0, e0_ = raw_events, e_ = e0_; \
	while (!(cond) && raw_events - e0_ < (events) && n_ < WAIT_BOUND) { \
		if (raw_events != e_) { \
			e_ = raw_events; \
			n_ = 0; \
		} \
		n_++; \
		__asm__ volatile("yield"); \
	} \
	(cond); })
/* The start-up waits: CPU 1 may not take interrupts yet, so only the silence bound. */
#define WAIT_UNTIL(cond) WAIT_CPU1(cond, ~0ul)

/* xorshift */
static unsigned long rnd_state = 0x2545f4914f6cdd1dul;

static unsigned long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * Where the next driver call lands in the handler's cycle. Odd rounds: after a random pause
 * of up to two timer periods. Even rounds: as soon as CPU 0 sees an instance acting (bounded;
 * returns 0 if it never did, which only makes the round a random one).
 * Return: 1 when the call starts during an acting instance.
 */
static int pick_moment(int r)
{
	unsigned long end;

	if (r & 1) {
		end = counter() + rnd() % (2ul * T_PERIOD_US * ticks_per_us() + 1ul);
		while (counter() < end)
			;
		return 0;
	}
	return WAIT_CPU1(dev.acting, ACT_EVENTS) ? 1 : 0;
}

static void test_second_cpu_takes_the_interrupts(void)
{
	irqsync_init();
	BM_CHECK_EQ(request_irq(LINE, tg3_handler, 0, "tg3", &dev), 0);
	bm_board_init();			/* CPU 0: distributor on */
	BM_CHECK_EQ(bm_cpu_start(1, cpu1_main), 0);
	BM_CHECK(WAIT_UNTIL(cpu1_up));
	BM_CHECK(WAIT_UNTIL(dev.acted >= 5));
	BM_CHECK_EQ(dev.irqs_on, 0);
	BM_CHECK_EQ(dev.on_cpu0, 0);		/* the timer interrupts are CPU 1's */
}

static unsigned long overlaps;	/* driver calls that began during an acting instance */
static unsigned long ov_tg3, ov_disable, ov_free;	/* ... per loop */
static int rounds_tg3, rounds_disable, rounds_free;

/* Run another round? At least `planned`, then on until `need` overlaps, at most
 * ROUNDS_MAX_FACTOR * planned. */
static int more_rounds(int r, int planned, unsigned long have, unsigned long need)
{
	if (r < planned)
		return 1;
	return have < need && r < ROUNDS_MAX_FACTOR * planned;
}

/* The tg3 pattern against a handler running on the other CPU, with and without smp_mb. */
static void test_tg3_quiesce_across_cpus(void)
{
	unsigned long running = 0, stale = 0, unseen = 0, acted, runs;
	int r, cpu1_kept_up = 1;

	for (r = 0; more_rounds(r, ROUNDS, ov_tg3, OVERLAPS_TG3); r++) {
		ov_tg3 += (unsigned long)pick_moment(r);
		dev.quiesce = 1;
		if (r & 2)
			smp_mb();
		BM_CHECK_EQ(synchronize_irq(LINE), 0);
		if (dev.acting)				/* REQ-SYNC-1 */
			running++;
		acted = dev.acted;
		if (dev.last_write != acted)		/* the last instance's write (REQ-SYNC-2) */
			unseen++;
		runs = dev.runs;
		if (!WAIT_CPU1(dev.runs >= runs + 2, PROGRESS_EVENTS)) {	/* two later instances ... */
			cpu1_kept_up = 0;
			break;
		}
		if (dev.acted != acted)			/* ... neither acted (REQ-SYNC-3/4) */
			stale++;
		dev.quiesce = 0;
		if (!WAIT_CPU1(dev.acted >= acted + 1, PROGRESS_EVENTS)) {
			cpu1_kept_up = 0;
			break;
		}
	}
	BM_CHECK(cpu1_kept_up);			/* no wait for CPU 1 gave up */
	rounds_tg3 = r;
	overlaps += ov_tg3;
	BM_CHECK_EQ(running, 0);
	BM_CHECK_EQ(stale, 0);
	BM_CHECK_EQ(unseen, 0);
}

/* disable_irq on CPU 0 while CPU 1 keeps taking the timer: no handler runs until enable. */
static void test_disable_across_cpus(void)
{
	unsigned long raw, acted;
	int r, cpu1_kept_up = 1;

	for (r = 0; more_rounds(r, ROUNDS / 3, ov_disable, OVERLAPS_OTHER); r++) {
		ov_disable += (unsigned long)pick_moment(r);
		BM_CHECK_EQ(disable_irq(LINE), 0);
		if (dev.acting)
			dev.while_disabled++;		/* an instance still inside: REQ-DEPTH-1 */
		dev.disabled = 1;
		raw = raw_events;
		if (!WAIT_UNTIL(raw_events >= raw + 2)) {	/* arrivals on CPU 1, held */
			cpu1_kept_up = 0;
			break;
		}
		dev.disabled = 0;
		acted = dev.acted;
		BM_CHECK_EQ(enable_irq(LINE), 0);
		if (!WAIT_CPU1(dev.acted >= acted + 1, PROGRESS_EVENTS)) {	/* the line works again */
			cpu1_kept_up = 0;
			break;
		}
	}
	BM_CHECK(cpu1_kept_up);			/* no wait for CPU 1 gave up */
	rounds_disable = r;
	overlaps += ov_disable;
	BM_CHECK_EQ(dev.while_disabled, 0);
}

/* free_irq on CPU 0: once it returns the handler is never called again; then re-request. */
static void test_free_across_cpus(void)
{
	unsigned long raw, acted;
	int r, cpu1_kept_up = 1;

	for (r = 0; more_rounds(r, ROUNDS / 3, ov_free, OVERLAPS_OTHER); r++) {
		ov_free += (unsigned long)pick_moment(r);
		BM_CHECK_EQ(free_irq(LINE, &dev), 0);
		if (dev.acting)
			dev.after_free++;		/* REQ-LIFECYCLE-5 */
		dev.freed = 1;
		raw = raw_events;
		if (!WAIT_UNTIL(raw_events >= raw + 2)) {
			cpu1_kept_up = 0;
			break;
		}
		dev.freed = 0;
		acted = dev.acted;
		BM_CHECK_EQ(request_irq(LINE, tg3_handler, 0, "tg3", &dev), 0);
		if (!WAIT_CPU1(dev.acted >= acted + 1, PROGRESS_EVENTS)) {
			cpu1_kept_up = 0;
			break;
		}
	}
	BM_CHECK(cpu1_kept_up);			/* no wait for CPU 1 gave up */
	rounds_free = r;
	overlaps += ov_free;
	BM_CHECK_EQ(dev.after_free, 0);
	BM_CHECK_EQ(dev.irqs_on, 0);
}

/* The rounds above are worth something only if calls really overlapped a running instance
 * on the other CPU: each loop must have had its overlaps (it ran on until it did). */
static void test_calls_overlapped_running_handlers(void)
{
	BM_CHECK(ov_tg3 >= OVERLAPS_TG3);
	BM_CHECK(ov_disable >= OVERLAPS_OTHER);
	BM_CHECK(ov_free >= OVERLAPS_OTHER);
}

int main(void)
{
	sh_puts("# irqsync bare metal SMP: port baremetal-aarch64, 2 CPUs on ");
	sh_puts(bm_board_name);
	sh_puts("\n");
	BM_RUN(second_cpu_takes_the_interrupts, "REQ-DISPATCH-8 REQ-LOCK-6");
	BM_RUN(tg3_quiesce_across_cpus, "REQ-SYNC-1 REQ-SYNC-2 REQ-SYNC-3 REQ-SYNC-4 REQ-SYNC-5");
	BM_RUN(disable_across_cpus, "REQ-DEPTH-1 REQ-DEPTH-3");
	BM_RUN(free_across_cpus, "REQ-LIFECYCLE-5 REQ-LIFECYCLE-1");
	BM_RUN(calls_overlapped_running_handlers, "REQ-SYNC-1");
	sh_puts("# timer interrupts on CPU 1: ");
	sh_putu(raw_events);
	sh_puts(", handler calls: ");
	sh_putu(dev.runs);
	sh_puts(" (replays on CPU 0: ");
	sh_putu(dev.on_cpu0);
	sh_puts("), acting: ");
	sh_putu(dev.acted);
	sh_puts(", driver calls during an acting instance: ");
	sh_putu(overlaps);
	sh_puts(" (tg3 ");
	sh_putu(ov_tg3);
	sh_puts(" in ");
	sh_putu((unsigned long)rounds_tg3);
	sh_puts(" rounds, disable ");
	sh_putu(ov_disable);
	sh_puts(" in ");
	sh_putu((unsigned long)rounds_disable);
	sh_puts(", free ");
	sh_putu(ov_free);
	sh_puts(" in ");
	sh_putu((unsigned long)rounds_free);
	sh_puts(")");
	sh_puts("\n1..");
	sh_putu((unsigned long)bm_n_tests);
	sh_puts("\n");
	return bm_n_failed;
}

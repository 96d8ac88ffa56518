/* conformance.c — the port conformance suite: checks at run time that a port of irqsync meets
 * what src/port/port.h asks of it and what the proofs (acsl/port.h) and the model (promela/)
 * assume of it. docs/porting.md lists every obligation and the case of this file that checks it.
 *
 * It is compiled in ONE translation unit with the port's sources (mk/port.mk writes a file that
 * #includes the port's .c files, then this one, then probes.c), so the compiler sees the
 * port's function bodies, as it does in a build with -flto: a port function that is not a
 * compiler barrier then lets the compiler move or drop accesses around it, and the cases below
 * and the static probes of probes.c can notice. The core library is not linked: this file
 * defines handle_irq() itself and watches what the port (or the board) hands it.
 *
 * What the machine does is observed through plat.h, independently of the port: the platform
 * raises interrupts and says when one has reached the CPU; whether it was then taken is what
 * handle_irq() counts. "Masked" therefore means "an interrupt raised now is held", not "the
 * port says so".
 *
 * Output is TAP ("ok N - name [REQ-…]"); the exit status is the number of failed cases
 * (capped at 100), so qemu's exit code (semihosting) carries the verdict on bare metal.
 * Every wait is bounded by a count of loop iterations; nothing here can hang on a broken port
 * except cpu_relax() itself (a port whose cpu_relax never returns ends in the caller's
 * timeout).
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include "../../src/port/port.h"
#include "plat.h"

#ifndef PC_NAME
#define PC_NAME "port"
#endif
#ifndef PC_LITMUS_ROUNDS
#define PC_LITMUS_ROUNDS 20000	/* rounds per litmus test (mk/port.mk sets it per target) */
#endif
/* PC_ONLY: space-separated case-name prefixes; only those cases run (mk/port.mk:
 * PORT_CHECK_ONLY, set by the broken ports to their own obligation). Empty: every case. */
#ifndef PC_ONLY
#define PC_ONLY ""
#endif
#define PC_MAXCPU	8
#define PC_WAIT		20000000ul	/* loop iterations before a wait for an arrival gives up */
#define PC_WAIT_LONG	400000000ul	/* ... for the other CPU */
#define PC_HOLD		20000ul		/* iterations an arrived interrupt must stay held */
#define PC_ID_SAMPLES	2000

/* ---- TAP ---------------------------------------------------------------------------------- */

static int pc_tests, pc_failed, pc_cur;

static void pc_fail(int line, const char *what, long a, long b, int values)
{
	pc_cur++;
	plat_puts("#   conformance.c:");
	plat_putu((unsigned long)line);
	plat_puts(": ");
	plat_puts(what);
	if (values) {
		plat_puts(": ");
		if (a < 0) {
			plat_puts("-");
			a = -a;
		}
		plat_putu((unsigned long)a);
		plat_puts(" != ");
		if (b < 0) {
			plat_puts("-");
			b = -b;
		}
		plat_putu((unsigned long)b);
	}
	plat_puts("\n");
}

/* CHECK(cond, "what the port failed to do") */
#define PC_CHECK(cond, what) do { if (!(cond)) pc_fail(__LINE__, what, 0, 0, 0); } while (0)
#define PC_CHECK_EQ(a, b, what) do { \
	long pc_a_ = (long)(a), pc_b_ = (long)(b); \
	if (pc_a_ != pc_b_) pc_fail(__LINE__, what, pc_a_, pc_b_, 1); } while (0)

/* One TAP line: "ok N - <port>/<name> [<reqs>]", with " # SKIP <why>" when @why is not 0. */
static void pc_result(const char *status, const char *name, const char *reqs, const char *why)
{
	pc_tests++;
	plat_puts(status);
	plat_puts(" ");
	plat_putu((unsigned long)pc_tests);
	plat_puts(" - " PC_NAME "/");
	plat_puts(name);
	plat_puts(" [");
	plat_puts(reqs);
	plat_puts("]");
	if (why) {
		plat_puts(" # SKIP ");
		plat_puts(why);
	}
	plat_puts("\n");
	pc_cur = 0;
}

static void pc_report(const char *name, const char *reqs)
{
	if (pc_cur)
		pc_failed++;
	pc_result(pc_cur ? "not ok" : "ok", name, reqs, 0);
}

static void pc_skip(const char *name, const char *reqs, const char *why)
{
	pc_result("ok", name, reqs, why);
}

static void pc_note(const char *s, unsigned long v)
{
	plat_puts("# ");
	plat_puts(s);
	plat_putu(v);
	plat_puts("\n");
}

static void pc_say(const char *s)
{
	plat_puts("# ");
	plat_puts(s);
	plat_puts("\n");
}

static int pc_selected(const char *name)
{
	const char *p = PC_ONLY;
	unsigned int n, i;

	if (*p == '\0')
		return 1;
	while (*p != '\0') {
		for (n = 0; p[n] != '\0' && p[n] != ' '; n++)
			;
		for (i = 0; i < n && name[i] == p[i]; i++)
			;
		if (n > 0 && i == n)
			return 1;
		p += n;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/* ---- what the port delivers --------------------------------------------------------------- */

static _Atomic unsigned long pc_deliv[PC_MAXCPU][PC_NSRC];	/* handle_irq calls */
static _Atomic int pc_inside[PC_MAXCPU];
static _Atomic unsigned long pc_nested[PC_MAXCPU];		/* handle_irq inside handle_irq */
static _Atomic unsigned long pc_stray;				/* other lines, unknown CPUs */
static _Atomic unsigned int pc_irq_cpu_id[PC_MAXCPU];		/* cpu_id() in the last handler */

/* The runtime compiler-barrier probe: a plain int, which only a compiler barrier orders
 * against the handler that an unmask runs. */
static int pc_plain, pc_plain_seen;
static _Atomic int pc_plain_armed;

static void pc_thread_hooks(unsigned int c, unsigned int n);

/* The port calls this (hosted), or the board's interrupt entry does (bare metal). */
int handle_irq(unsigned int irq)
{
	unsigned int c = plat_cpu();
	unsigned int n = irq == PC_LINE(0) ? 0U : irq == PC_LINE(1) ? 1U : PC_NSRC;

	if (c >= PC_MAXCPU || n >= PC_NSRC) {
		pc_stray++;
		return -IRQSYNC_EINVAL;
	}
	if (atomic_exchange(&pc_inside[c], 1))
		pc_nested[c]++;
	pc_irq_cpu_id[c] = irqsync_port_cpu_id();
	pc_thread_hooks(c, n);
	if (c == 0 && n == 0 && atomic_load(&pc_plain_armed)) {
		pc_plain_seen = pc_plain;
		pc_plain = 2;
	}
	pc_deliv[c][n]++;
	atomic_store(&pc_inside[c], 0);
	return IRQ_HANDLED;
}

/*
 * The ground truth: raise source n on the calling CPU and see what the CPU does with it.
 * Return 0 if it was taken (interrupts are enabled), 1 if it reached the CPU and stayed
 * untaken for PC_HOLD iterations (held: interrupts are masked; it stays pending), -1 if it
 * never reached the CPU (a platform problem, reported as a failure by the callers).
 */
static int pc_observe(unsigned int n)
{
	unsigned int c = plat_cpu();
	unsigned long d0 = pc_deliv[c][n], i;

	plat_raise(n);
	for (i = 0; i < PC_WAIT; i++) {
		if (pc_deliv[c][n] != d0)
			return 0;
		if (plat_arrived(n))
			break;
		plat_pause();
	}
	if (i == PC_WAIT)
		return -1;
	for (i = 0; i < PC_HOLD; i++) {
		if (pc_deliv[c][n] != d0)
			return 0;
		plat_pause();
	}
	return 1;
}

/* Wait (bounded) until CPU c has taken more than `before` interrupts of source n. */
static int pc_wait_taken(unsigned int c, unsigned int n, unsigned long before)
{
	unsigned long i;

	for (i = 0; i < PC_WAIT && pc_deliv[c][n] == before; i++)
		plat_pause();
	return pc_deliv[c][n] != before;
}

/* ---- the second CPU: a command loop --------------------------------------------------------- */

enum { PC_CMD_IDS = 1, PC_CMD_STATE, PC_CMD_OWN_WINDOW, PC_CMD_LITMUS, PC_CMD_ASYNC, PC_CMD_EXIT };

static struct {
	_Atomic unsigned int seq, ack;
	unsigned int cmd, arg;
	long res[6];
} pc_mbox;
static int pc_have_cpu1;
static _Atomic unsigned int pc_lactive;		/* CPU 1 runs litmus rounds */

struct pc_ids {
	unsigned int first;		/* the first cpu_id() read */
	unsigned long unstable;		/* later reads that differed */
	unsigned int in_irq;		/* cpu_id() inside an interrupt on this CPU */
	int irq_taken;
	_Atomic int done;
};
static struct pc_ids pc_ids[PC_MAXCPU];
static _Atomic int pc_ids_release;

static void pc_id_sample(struct pc_ids *r)
{
	unsigned int c = plat_cpu(), i;
	unsigned long d0;
	irq_flags_t f;

	r->first = irqsync_port_cpu_id();
	r->unstable = 0;
	for (i = 0; i < PC_ID_SAMPLES; i++) {
		if (irqsync_port_cpu_id() != r->first)
			r->unstable++;
		if ((i & 63U) == 0U)
			plat_pause();
	}
	f = irqsync_port_irq_save();
	if (irqsync_port_cpu_id() != r->first)
		r->unstable++;
	irqsync_port_irq_restore(f);
	d0 = pc_deliv[c][0];
	plat_raise(0);
	r->irq_taken = pc_wait_taken(c, 0, d0);
	r->in_irq = pc_irq_cpu_id[c];
	if (irqsync_port_cpu_id() != r->first)
		r->unstable++;
}

static void pc_litmus_cpu1(unsigned int kind, unsigned int rounds);
static void pc_async_cpu1(unsigned int what, unsigned int arg);
static _Atomic int pc_c1_active;		/* CPU 1 runs an asynchronous command (pc_async) */

/* CPU 1 masks its own interrupts and checks that its interrupt is held while CPU 0's state
 * is whatever CPU 0 made it; then it unmasks and checks the delivery (state-is-per-cpu). */
static void pc_own_window(long *res)
{
	unsigned long d0 = pc_deliv[1][0];
	irq_flags_t f = irqsync_port_irq_save();

	res[0] = irqsync_port_irqs_disabled();
	res[1] = pc_observe(0);			/* held on CPU 1 */
	irqsync_port_irq_restore(f);
	res[2] = (long)(pc_deliv[1][0] - d0);	/* delivered by CPU 1's own unmask: 1 */
	res[3] = irqsync_port_irqs_disabled();
}

static void pc_worker(void)
{
	unsigned int seen = 0, s, cmd;

	for (;;) {
		while ((s = atomic_load(&pc_mbox.seq)) == seen)
			plat_pause();
		seen = s;
		cmd = pc_mbox.cmd;
		switch (cmd) {
		case PC_CMD_IDS:
			pc_id_sample(&pc_ids[1]);
			break;
		case PC_CMD_STATE:
			pc_mbox.res[0] = irqsync_port_irqs_disabled();
			pc_mbox.res[1] = pc_observe(0);
			break;
		case PC_CMD_OWN_WINDOW:
			pc_own_window(pc_mbox.res);
			break;
		case PC_CMD_LITMUS:
			atomic_store(&pc_lactive, 1);
			atomic_store(&pc_mbox.ack, s);	/* the rounds synchronise on their own */
			pc_litmus_cpu1(pc_mbox.arg & 0xffU, pc_mbox.arg >> 8);
			atomic_store(&pc_lactive, 0);
			continue;
		case PC_CMD_ASYNC:
			atomic_store(&pc_c1_active, 1);
			atomic_store(&pc_mbox.ack, s);	/* runs on its own (pc_async) */
			pc_async_cpu1(pc_mbox.arg & 0xffU, pc_mbox.arg >> 8);
			atomic_store(&pc_c1_active, 0);
			continue;
		default:
			break;
		}
		atomic_store(&pc_mbox.ack, s);
		if (cmd == PC_CMD_EXIT)
			return;
	}
}

/* Run a command on CPU 1 and wait (bounded) for its answer. Return: 1 if answered. */
static int pc_call(unsigned int cmd, unsigned int arg)
{
	unsigned int s;
	unsigned long i;

	pc_mbox.cmd = cmd;
	pc_mbox.arg = arg;
	s = atomic_load(&pc_mbox.seq) + 1U;
	atomic_store(&pc_mbox.seq, s);
	for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_mbox.ack) != s; i++)
		plat_pause();
	return atomic_load(&pc_mbox.ack) == s;
}

/* Hosted CPUs 2..: report their ids, stay until every CPU has reported, end. */
static void pc_id_reporter(void)
{
	unsigned int c = plat_cpu();
	unsigned long i;

	pc_id_sample(&pc_ids[c]);
	atomic_store(&pc_ids[c].done, 1);
	for (i = 0; i < PC_WAIT_LONG && !atomic_load(&pc_ids_release); i++)
		plat_pause();
}

/* ---- cpu_id ------------------------------------------------------------------------------ */

/* port.h: "stable for the calling context and below IRQSYNC_NR_CPUS"; acsl/port.h assumes
 * \result == this_cpu with 0 <= this_cpu < IRQSYNC_NR_CPUS; the core indexes per-CPU state
 * with it, so two CPUs must never share an id. */
static void test_cpu_id(void)
{
	unsigned int n = plat_ncpus(), c, d;
	unsigned long i;

	if (n > PC_MAXCPU)
		n = PC_MAXCPU;
	pc_id_sample(&pc_ids[0]);
	if (pc_have_cpu1)
		PC_CHECK(pc_call(PC_CMD_IDS, 0), "CPU 1 did not answer");
	for (c = 2; c < n; c++)
		PC_CHECK_EQ(plat_cpu_start(c, pc_id_reporter), 0, "cannot start CPU c");
	for (c = 2; c < n; c++) {
		for (i = 0; i < PC_WAIT_LONG && !atomic_load(&pc_ids[c].done); i++)
			plat_pause();
		PC_CHECK(atomic_load(&pc_ids[c].done), "a CPU did not report its id");
	}
	atomic_store(&pc_ids_release, 1);
	if (!pc_have_cpu1 && n > 1)
		n = 1;
	for (c = 0; c < n; c++) {
		struct pc_ids *r = &pc_ids[c];

		PC_CHECK(r->first < IRQSYNC_NR_CPUS, "cpu_id out of range: not below IRQSYNC_NR_CPUS");
		PC_CHECK_EQ(r->unstable, 0, "cpu_id not stable on one CPU (reads that differed)");
		PC_CHECK(r->irq_taken, "no interrupt came to read cpu_id in");
		PC_CHECK_EQ(r->in_irq, r->first, "cpu_id in an interrupt differs from the CPU's id");
		for (d = 0; d < c; d++)
			PC_CHECK(pc_ids[d].first != r->first, "cpu_id: two CPUs have the same id");
	}
	pc_note("CPUs whose ids were read: ", n);
	pc_report("cpu-id/in-range-stable-distinct", "REQ-TCB-2 REQ-HANDLER-2 REQ-ERR-4");
}

/* ---- interrupt state ------------------------------------------------------------------------ */

/* The CPU's real state (1 masked, 0 enabled) must be `want` after `what`. */
static void pc_expect_state(int want, int line, const char *what)
{
	int got = pc_observe(0);

	if (got < 0)
		pc_fail(line, "the raised interrupt never reached the CPU (platform)", 0, 0, 0);
	else if (got != want)
		pc_fail(line, what, got, want, 1);
}
#define EXPECT_MASKED(what) pc_expect_state(1, __LINE__, "save/restore: enabled (0) where disabled (1) is due, after " what)
#define EXPECT_ENABLED(what) pc_expect_state(0, __LINE__, "save/restore: disabled (1) where enabled (0) is due, after " what)

/* REQ-LOCK-3: irq_restore restores exactly the state irq_save saved, at any nesting depth and
 * whatever happened in between (acsl: saves_state_port, restores_port). */
static void test_save_restore(void)
{
	irq_flags_t s1, s2, s3, s4, s5, s6, deep[8];
	int i;

	EXPECT_ENABLED("start");
	s1 = irqsync_port_irq_save();
	EXPECT_MASKED("save from enabled");
	s2 = irqsync_port_irq_save();
	s3 = irqsync_port_irq_save();
	EXPECT_MASKED("three nested saves");
	irqsync_port_irq_restore(s3);
	EXPECT_MASKED("restore of the innermost save");
	irqsync_port_irq_restore(s2);
	EXPECT_MASKED("restore of the middle save");
	irqsync_port_irq_restore(s1);
	EXPECT_ENABLED("restore of the outermost save");

	irqsync_port_irq_disable();
	s4 = irqsync_port_irq_save();
	irqsync_port_irq_restore(s4);
	EXPECT_MASKED("disable; save; restore");
	irqsync_port_irq_enable();
	EXPECT_ENABLED("enable");

	/* restore "disabled" while enabled: must mask again */
	irqsync_port_irq_disable();
	s5 = irqsync_port_irq_save();
	irqsync_port_irq_enable();
	irqsync_port_irq_restore(s5);
	EXPECT_MASKED("restore of a save made while disabled, called while enabled");
	irqsync_port_irq_enable();

	/* restore "enabled" while disabled: must unmask */
	s6 = irqsync_port_irq_save();
	irqsync_port_irq_disable();
	irqsync_port_irq_restore(s6);
	EXPECT_ENABLED("restore of a save made while enabled, called after disable");

	for (i = 0; i < 8; i++)
		deep[i] = irqsync_port_irq_save();
	for (i = 7; i > 0; i--)
		irqsync_port_irq_restore(deep[i]);
	EXPECT_MASKED("seven of eight nested restores");
	irqsync_port_irq_restore(deep[0]);
	EXPECT_ENABLED("eight nested saves and restores");
	pc_report("irq/save-restore-nesting-exact", "REQ-LOCK-3 REQ-FLAGS-2 REQ-TCB-2");
}

/* Raise both sources with the CPU masked; they must arrive and stay held. */
static void pc_raise_held(int line, unsigned int nsrc, unsigned long *d0)
{
	unsigned int c = plat_cpu(), n;

	for (n = 0; n < nsrc; n++) {
		int r;

		d0[n] = pc_deliv[c][n];
		r = pc_observe(n);
		if (r < 0)
			pc_fail(line, "the raised interrupt never reached the CPU (platform)", 0, 0, 0);
		else if (r == 0)
			pc_fail(line, "held: an interrupt was delivered while disabled", 0, 0, 0);
	}
}

static void pc_expect_delivered(int line, unsigned int nsrc, const unsigned long *d0,
				const char *what)
{
	unsigned int c = plat_cpu(), n;

	for (n = 0; n < nsrc; n++)
		if (pc_deliv[c][n] != d0[n] + 1U)
			pc_fail(line, what, (long)(pc_deliv[c][n] - d0[n]), 1, 1);
}

/* REQ-LOCK-6 (port.h): while disabled the port must not call handle_irq() on this CPU, and it
 * must deliver every interrupt held meanwhile when the state becomes enabled -- by the time
 * irq_restore / irq_enable returns (acsl: the handlers' effects happen inside those calls,
 * ACSL_IRQ_EFFECTS; the model: take_irq needs irq_en[me]). Handlers are never nested. */
static void test_held_then_delivered(void)
{
	unsigned int c = plat_cpu();
	unsigned long d0[PC_NSRC], nested0 = pc_nested[c];
	irq_flags_t f, g;

	/* save ... restore, both sources */
	f = irqsync_port_irq_save();
	pc_raise_held(__LINE__, PC_NSRC, d0);
	irqsync_port_irq_restore(f);
	pc_expect_delivered(__LINE__, PC_NSRC, d0,
			    "delivered: held interrupts taken by the end of irq_restore (count)");

	/* disable ... enable */
	irqsync_port_irq_disable();
	pc_raise_held(__LINE__, 1, d0);
	irqsync_port_irq_enable();
	pc_expect_delivered(__LINE__, 1, d0,
			    "delivered: held interrupt taken by the end of irq_enable (count)");

	/* nested: the inner restore (of "disabled") must not deliver, the outer one must */
	f = irqsync_port_irq_save();
	g = irqsync_port_irq_save();
	pc_raise_held(__LINE__, 1, d0);
	irqsync_port_irq_restore(g);
	PC_CHECK_EQ(pc_deliv[c][0], d0[0], "held: delivered by the inner restore of a disabled state");
	irqsync_port_irq_restore(f);
	pc_expect_delivered(__LINE__, 1, d0,
			    "delivered: held interrupt taken by the end of the outer irq_restore (count)");

	/* disable, then save/restore inside: still held until the enable */
	irqsync_port_irq_disable();
	f = irqsync_port_irq_save();
	pc_raise_held(__LINE__, 1, d0);
	irqsync_port_irq_restore(f);
	PC_CHECK_EQ(pc_deliv[c][0], d0[0], "held: delivered by a restore inside a disabled region");
	irqsync_port_irq_enable();
	pc_expect_delivered(__LINE__, 1, d0,
			    "delivered: held interrupt taken by the end of irq_enable (count)");

	PC_CHECK_EQ(pc_nested[c], nested0, "held: handle_irq was entered while it ran (nested)");
	PC_CHECK_EQ(pc_stray, 0, "held: interrupts of unknown lines or CPUs");
	pc_report("irq/masked-interrupt-held-then-delivered-at-unmask",
		  "REQ-LOCK-6 REQ-DISPATCH-8 REQ-TCB-2");
}

/* ---- the windows inside the port's own functions (plat_inject) ----------------------------
 *
 * The cases above raise an interrupt before an unmask or after it; a port goes wrong INSIDE
 * it. A soft-mask port (hosted; a bare-metal port that masks lazily) that looks for pending
 * interrupts before it clears its mask loses one raised in between: its signal finds the mask
 * still set and leaves it to the unmask, which has already looked. One that replays what it
 * read without claiming it delivers twice when the signal comes between the read and the
 * claim. So these cases raise source 0 at every instruction boundary j of the call and let the
 * CPU notice it at every boundary k >= j (all the interleavings of one interrupt with the
 * call), and count handle_irq() calls: EXACTLY one by the time the unmask returns, none
 * inside a nested restore. The count is the assertion; "at least once" would let the doubled
 * delivery through. Sized by the (j, k) pairs run, not by time. */
#define PC_WIN_MAXRUNS	400000ul	/* pairs per sweep: a port whose call is longer fails */

static irq_flags_t pc_win_flags;

static void pc_win_restore(void)
{
	irqsync_port_irq_restore(pc_win_flags);
}

static void pc_win_enable(void)
{
	irqsync_port_irq_enable();
}

struct pc_sweep {
	unsigned long runs, bad;
	long bad_j, bad_k, bad_got, bad_want;
};

/* Take whatever a broken run left pending, so the next run starts clean. */
static void pc_win_flush(void)
{
	irq_flags_t f = irqsync_port_irq_save();

	irqsync_port_irq_restore(f);
}

/* One (j, k) run. nested: the call is the inner restore of a nested pair (want 0 inside,
 * then 1 at the outer restore); else the call unmasks (want 1 by its end). */
static int pc_win_run(struct pc_sweep *w, void (*fn)(void), int enable, int nested, long j, long k)
{
	unsigned int c = plat_cpu();
	unsigned long d0 = pc_deliv[c][0];
	irq_flags_t outer = { 0 };
	long got, want = nested ? 0 : 1, after = 1;
	int r;

	if (nested)
		outer = irqsync_port_irq_save();
	if (enable)
		irqsync_port_irq_disable();		/* fn: irq_enable() */
	else
		pc_win_flags = irqsync_port_irq_save();	/* fn: irq_restore(pc_win_flags) */
	r = plat_inject(fn, 0, j, k);
	got = (long)(pc_deliv[c][0] - d0);
	if (nested) {
		irqsync_port_irq_restore(outer);
		after = (long)(pc_deliv[c][0] - d0);
	}
	w->runs++;
	if (got != want || after != 1) {
		if (w->bad++ == 0) {
			w->bad_j = j;
			w->bad_k = k;
			w->bad_got = got != want ? got : after;
			w->bad_want = got != want ? want : 1;
		}
		pc_win_flush();
	}
	return r;
}

/* Every (j, k) with j <= k inside the call, and each past its end. */
static int pc_win_sweep(struct pc_sweep *w, void (*fn)(void), int enable, int nested)
{
	long j, k;
	int r;

	for (j = 0; w->runs < PC_WIN_MAXRUNS; j++) {
		for (k = j; w->runs < PC_WIN_MAXRUNS; k++) {
			r = pc_win_run(w, fn, enable, nested, j, k);
			if (r < 0)
				return -1;
			if (r == 0)
				break;		/* k past the end of the call */
		}
		if (k == j && r == 0)
			break;			/* j past the end too: all pairs run */
	}
	return w->runs < PC_WIN_MAXRUNS ? 0 : 1;
}

static void pc_win_verdict(int line, const struct pc_sweep *w, const char *what)
{
	if (w->bad == 0)
		return;
	pc_note("  window runs that failed: ", w->bad);
	pc_note("  first: raised at boundary ", (unsigned long)w->bad_j);
	pc_note("  first: noticed at boundary ", (unsigned long)w->bad_k);
	pc_fail(line, what, w->bad_got, w->bad_want, 1);
}

/* REQ-LOCK-6: an interrupt raised at any point of an unmask (irq_restore of "enabled",
 * irq_enable) is delivered exactly once by the time the unmask returns. */
static void test_unmask_window(void)
{
	struct pc_sweep wr = { 0 }, we = { 0 };
	int r1, r2;

	r1 = pc_win_sweep(&wr, pc_win_restore, 0, 0);
	if (r1 < 0) {
		pc_skip("irq/unmask-window-delivers-exactly-once", "REQ-LOCK-6 REQ-TCB-2",
			"this platform cannot single-step (plat_inject): hosted x86-64 Linux only");
		return;
	}
	r2 = pc_win_sweep(&we, pc_win_enable, 1, 0);
	pc_note("(raise, notice) boundary pairs run in irq_restore: ", wr.runs);
	pc_note("(raise, notice) boundary pairs run in irq_enable: ", we.runs);
	PC_CHECK(r1 == 0 && r2 == 0, "window: the unmask runs too many instructions to sweep");
	pc_win_verdict(__LINE__, &wr,
		       "window: irq_restore: handle_irq calls for one interrupt raised during it (want 1)");
	pc_win_verdict(__LINE__, &we,
		       "window: irq_enable: handle_irq calls for one interrupt raised during it (want 1)");
	pc_report("irq/unmask-window-delivers-exactly-once", "REQ-LOCK-6 REQ-TCB-2");
}

/* REQ-LOCK-3, REQ-LOCK-6: an interrupt raised at any point of a nested restore (of a saved
 * "disabled") stays held through it -- the mask is held across the nested restore, not
 * dropped and retaken -- and the outer restore delivers it exactly once. */
static void test_nested_restore_window(void)
{
	struct pc_sweep w = { 0 };
	int r = pc_win_sweep(&w, pc_win_restore, 0, 1);

	if (r < 0) {
		pc_skip("irq/nested-restore-window-holds", "REQ-LOCK-3 REQ-LOCK-6",
			"this platform cannot single-step (plat_inject): hosted x86-64 Linux only");
		return;
	}
	pc_note("(raise, notice) boundary pairs run in the nested irq_restore: ", w.runs);
	PC_CHECK(r == 0, "window: the nested restore runs too many instructions to sweep");
	pc_win_verdict(__LINE__, &w,
		       "window: nested restore: handle_irq calls inside it, or at the outer restore (want 0, then 1)");
	pc_report("irq/nested-restore-window-holds", "REQ-LOCK-3 REQ-LOCK-6 REQ-TCB-2");
}

/* irqs_disabled() == the CPU's real state, and exactly 0 or 1 (acsl: REQ_LOCK_6:
 * \result == 1 - g_irqs_enabled). */
static void pc_truth(int line, const char *where)
{
	int said = irqsync_port_irqs_disabled();
	int real = pc_observe(0);

	if (said != 0 && said != 1)
		pc_fail(line, "truth: irqs_disabled() returned neither 0 nor 1", said, 1, 1);
	if (real < 0)
		pc_fail(line, "the raised interrupt never reached the CPU (platform)", 0, 0, 0);
	else if ((said != 0) != (real != 0))
		pc_fail(line, where, said, real, 1);
}

static void test_irqs_disabled_truth(void)
{
	irq_flags_t f, g;

	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) at the start");
	f = irqsync_port_irq_save();
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after save");
	g = irqsync_port_irq_save();
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after a nested save");
	irqsync_port_irq_restore(g);
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after the inner restore");
	irqsync_port_irq_restore(f);
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after the outer restore");
	irqsync_port_irq_disable();
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after disable");
	irqsync_port_irq_enable();
	pc_truth(__LINE__, "truth: irqs_disabled() (left) vs the CPU (right) after enable");
	pc_report("irq/irqs-disabled-tells-the-truth", "REQ-LOCK-6 REQ-TCB-2");
}

/* port.h: "the interrupt-state functions act on the calling CPU only" (the model: one
 * irq_en[] bit per CPU). */
static void test_per_cpu(void)
{
	unsigned long d0;
	irq_flags_t f;
	int r;

	if (!pc_have_cpu1) {
		pc_skip("irq/state-is-per-cpu", "REQ-LOCK-6", "one CPU: no other CPU to compare");
		return;
	}
	f = irqsync_port_irq_save();
	PC_CHECK(pc_call(PC_CMD_STATE, 0), "CPU 1 did not answer");
	PC_CHECK_EQ(pc_mbox.res[0], 0, "per-cpu: CPU 1's irqs_disabled() after CPU 0 masked");
	PC_CHECK_EQ(pc_mbox.res[1], 0, "per-cpu: CPU 1's interrupt held after CPU 0 masked");
	d0 = pc_deliv[0][0];
	r = pc_observe(0);
	PC_CHECK_EQ(r, 1, "per-cpu: CPU 0's own interrupt not held while CPU 0 masked");
	PC_CHECK(pc_call(PC_CMD_OWN_WINDOW, 0), "CPU 1 did not answer");
	PC_CHECK_EQ(pc_mbox.res[0], 1, "per-cpu: CPU 1's irqs_disabled() after CPU 1 masked");
	PC_CHECK_EQ(pc_mbox.res[1], 1, "per-cpu: CPU 1's interrupt not held after CPU 1 masked");
	PC_CHECK_EQ(pc_mbox.res[2], 1, "per-cpu: CPU 1's unmask did not deliver its own interrupt");
	PC_CHECK_EQ(pc_mbox.res[3], 0, "per-cpu: CPU 1's irqs_disabled() after CPU 1 unmasked");
	PC_CHECK_EQ(pc_deliv[0][0], d0, "per-cpu: CPU 1's unmask delivered CPU 0's held interrupt");
	PC_CHECK_EQ(irqsync_port_irqs_disabled(), 1, "per-cpu: CPU 0's irqs_disabled() after CPU 1 unmasked");
	irqsync_port_irq_restore(f);
	PC_CHECK_EQ(pc_deliv[0][0], d0 + 1U, "per-cpu: CPU 0's held interrupt at CPU 0's unmask");
	pc_report("irq/state-is-per-cpu", "REQ-LOCK-6");
}

/* ---- compiler barrier, at run time -------------------------------------------------------- */

/* A store just before an unmask must be seen by the handler the unmask runs, and the
 * handler's store must be seen just after it. Only a compiler barrier in irq_restore /
 * irq_enable guarantees both for a plain variable (port.h: "each function is also a compiler
 * barrier"); without one the compiler may sink the store, or forward it to the later load.
 * Sensitive where the port delivers without a call the compiler can see (bare metal: the
 * exception); the hosted port delivers through a visible call, which is a barrier anyway. */
static void test_unmask_orders_plain_accesses(void)
{
	int route, held, after, seen;
	irq_flags_t f = { 0 };

	for (route = 0; route < 2; route++) {
		if (route == 0)
			f = irqsync_port_irq_save();
		else
			irqsync_port_irq_disable();
		held = pc_observe(0);
		pc_plain_seen = -1;
		atomic_store(&pc_plain_armed, 1);
		pc_plain = 1;
		if (route == 0)
			irqsync_port_irq_restore(f);
		else
			irqsync_port_irq_enable();
		after = pc_plain;
		atomic_store(&pc_plain_armed, 0);
		seen = pc_plain_seen;
		PC_CHECK_EQ(held, 1, "the probe's interrupt was not held (see the held case)");
		if (route == 0) {
			PC_CHECK_EQ(seen, 1, "compiler barrier: the handler run by irq_restore missed the store made just before it");
			PC_CHECK_EQ(after, 2, "compiler barrier: the code after irq_restore missed the handler's store");
		} else {
			PC_CHECK_EQ(seen, 1, "compiler barrier: the handler run by irq_enable missed the store made just before it");
			PC_CHECK_EQ(after, 2, "compiler barrier: the code after irq_enable missed the handler's store");
		}
	}
	pc_report("compiler-barrier/unmask-orders-plain-accesses", "REQ-TCB-1 REQ-TCB-2");
}

/* ---- cpu_relax ------------------------------------------------------------------------------ */

/* The core spins with cpu_relax() in its wait loops, with interrupts masked (the lock) or
 * not (synchronize_irq): it must return, whatever the interrupt state, without an event from
 * another CPU (a `wfe` or `wfi` here could sleep for good). The model's mm_relax is a no-op. */
static void test_cpu_relax_returns(void)
{
	irq_flags_t f;
	unsigned int i;

	for (i = 0; i < 1000; i++)
		irqsync_port_cpu_relax();
	PC_CHECK_EQ(pc_observe(0), 0, "cpu_relax changed the interrupt state (enabled)");
	f = irqsync_port_irq_save();
	for (i = 0; i < 1000; i++)
		irqsync_port_cpu_relax();
	PC_CHECK_EQ(pc_observe(0), 1, "cpu_relax changed the interrupt state (disabled)");
	irqsync_port_irq_restore(f);
	pc_report("cpu-relax/returns-with-interrupts-masked", "REQ-SYNC-5 REQ-TCB-2");
}

/* ---- atomics: litmus rounds on two CPUs ----------------------------------------------------- */

enum { PC_LIT_SB = 1, PC_LIT_MP, PC_LIT_RMW, PC_LIT_TEAR };
/* Instances per round: after the common start both sides run through PC_LIT_K instances on
 * their own variables back to back, one side a little slower or faster than the other (a
 * pause of PC_LIT_PACE loop iterations per instance on CPU 0, of 0 .. 2*PC_LIT_PACE on CPU 1,
 * chosen per round): the offset between the sides drifts across the instances, so some
 * instance of a round lands where the two sides' accesses meet, however coarse the common
 * start was. The round's hand-over is paid once for all of them. */
#define PC_LIT_K		32U
#define PC_LIT_PACE		2U
#define PC_RMW_PER_ROUND	64U
#define PC_TEAR_PER_ROUND	256U
#define PC_TEAR_A		0x00000000U
#define PC_TEAR_B		0xffffffffU

/* The variables under test, each on its own cache line. */
struct pc_line {
	irqsync_atomic_t v;
	char pad[60];
} __attribute__((aligned(64)));
static struct pc_line pc_lx[PC_LIT_K], pc_ly[PC_LIT_K], pc_lc, pc_ld;
/* The round protocol (not under test: plain C11 seq_cst). */
static _Atomic unsigned int pc_lround, pc_ldone, pc_lstop;
static _Atomic unsigned long pc_ldeadline;
static _Atomic unsigned int pc_lpace1;		/* CPU 1's pause per instance, this round */
static unsigned int pc_lres0[PC_LIT_K], pc_lres1[PC_LIT_K];	/* each side's loads */
static unsigned int pc_lseen1[PC_LIT_K];	/* MP: the reader saw the flag */

static unsigned int pc_rnd(unsigned int *s)	/* xorshift32 */
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void pc_until(unsigned long t)
{
	unsigned long i;

	for (i = 0; i < PC_WAIT && plat_clock() < t; i++)
		;
}

static void pc_spin(unsigned int n)
{
	volatile unsigned int i;

	for (i = 0; i < n; i++)
		;
}

/* One side of one round: side 0 is CPU 0, side 1 is CPU 1. */
static void pc_litmus_side(unsigned int kind, unsigned int side, unsigned int r)
{
	unsigned int k, v, pace = side == 0 ? PC_LIT_PACE : atomic_load(&pc_lpace1);

	switch (kind) {
	case PC_LIT_SB:		/* SB+mb+mb: x = 1; mb; read y  ||  y = 1; mb; read x */
		for (k = 0; k < PC_LIT_K; k++) {
			if (side == 0) {
				irqsync_atomic_set_relaxed(&pc_lx[k].v, 1U);
				irqsync_smp_mb();
				pc_lres0[k] = irqsync_atomic_read_relaxed(&pc_ly[k].v);
			} else {
				irqsync_atomic_set_relaxed(&pc_ly[k].v, 1U);
				irqsync_smp_mb();
				pc_lres1[k] = irqsync_atomic_read_relaxed(&pc_lx[k].v);
			}
			pc_spin(pace);
		}
		break;
	case PC_LIT_MP:		/* MP+rel+acq: data = r; flag =rel r  ||  acq flag == r => data == r */
		for (k = 0; k < PC_LIT_K; k++) {
			if (side == 0) {
				irqsync_atomic_set_relaxed(&pc_lx[k].v, r);
				irqsync_atomic_set_release(&pc_ly[k].v, r);
			} else {
				pc_lseen1[k] = irqsync_atomic_read_acquire(&pc_ly[k].v) == r;
				pc_lres1[k] = irqsync_atomic_read_relaxed(&pc_lx[k].v);
			}
			pc_spin(pace);
		}
		break;
	case PC_LIT_RMW:	/* both sides increment the same two counters */
		for (k = 0; k < PC_RMW_PER_ROUND; k++) {
			(void)irqsync_atomic_fetch_add_acquire(&pc_lc.v, 1U);
			irqsync_atomic_inc_relaxed(&pc_ld.v);
		}
		break;
	case PC_LIT_TEAR:	/* side 0 stores all-zeros and all-ones in turn, side 1 loads */
		for (k = 0; k < PC_TEAR_PER_ROUND; k++) {
			if (side == 0) {
				irqsync_atomic_set_relaxed(&pc_lx[0].v, (k & 1U) ? PC_TEAR_B : PC_TEAR_A);
			} else {
				v = irqsync_atomic_read_relaxed(&pc_lx[0].v);
				if (v != PC_TEAR_A && v != PC_TEAR_B)
					pc_lres1[0] = v;
			}
		}
		break;
	default:
		break;
	}
}

static void pc_litmus_cpu1(unsigned int kind, unsigned int rounds)
{
	unsigned int seed = 0x9e3779b9U, r;
	unsigned long i;

	for (r = 1; r <= rounds; r++) {
		for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_lround) != r; i++) {
			if (atomic_load(&pc_lstop))
				return;
			plat_pause();
		}
		if (atomic_load(&pc_lround) != r)
			return;
		pc_until(atomic_load(&pc_ldeadline) + pc_rnd(&seed) % plat_clock_jitter());
		pc_litmus_side(kind, 1, r);
		atomic_store(&pc_ldone, r);
	}
}

/* Run up to `rounds` rounds of a litmus test with CPU 1; return the violations seen (it stops
 * at the first violating round), or -1 when CPU 1 stopped answering. info[0]: MP instances in
 * which the reader saw the flag; info[1]: the bad value; info[2]: rounds run. */
static long pc_litmus(unsigned int kind, unsigned int rounds, unsigned long *info)
{
	unsigned int seed = 0x2545f491U, r, k;
	unsigned long i, viol = 0;

	atomic_store(&pc_lround, 0);
	atomic_store(&pc_ldone, 0);
	atomic_store(&pc_lstop, 0);
	info[0] = info[1] = info[2] = 0;
	if (!pc_call(PC_CMD_LITMUS, kind | (rounds << 8)))
		return -1;
	for (r = 1; r <= rounds && !viol; r++) {
		for (k = 0; k < PC_LIT_K; k++) {
			irqsync_atomic_set_relaxed(&pc_lx[k].v, 0U);
			irqsync_atomic_set_relaxed(&pc_ly[k].v, 0U);
			pc_lres0[k] = pc_lres1[k] = pc_lseen1[k] = 0;
		}
		irqsync_atomic_set_relaxed(&pc_lc.v, 0U);
		irqsync_atomic_set_relaxed(&pc_ld.v, 0U);
		atomic_store(&pc_lpace1, pc_rnd(&seed) % (2U * PC_LIT_PACE + 1U));
		atomic_store(&pc_ldeadline, plat_clock() + plat_clock_margin());
		atomic_store(&pc_lround, r);
		pc_until(atomic_load(&pc_ldeadline) + pc_rnd(&seed) % plat_clock_jitter());
		pc_litmus_side(kind, 0, r);
		for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_ldone) != r; i++)
			plat_pause();
		if (atomic_load(&pc_ldone) != r) {
			atomic_store(&pc_lstop, 1);
			info[2] = r - 1U;
			return -1;
		}
		switch (kind) {
		case PC_LIT_SB:
			for (k = 0; k < PC_LIT_K; k++)
				if (pc_lres0[k] == 0 && pc_lres1[k] == 0)
					viol++;
			break;
		case PC_LIT_MP:
			for (k = 0; k < PC_LIT_K; k++) {
				if (!pc_lseen1[k])
					continue;
				info[0]++;
				if (pc_lres1[k] != r) {
					viol++;
					info[1] = pc_lres1[k];
				}
			}
			break;
		case PC_LIT_RMW:
			if (irqsync_atomic_read_relaxed(&pc_lc.v) != 2U * PC_RMW_PER_ROUND ||
			    irqsync_atomic_read_relaxed(&pc_ld.v) != 2U * PC_RMW_PER_ROUND) {
				viol++;
				info[1] = irqsync_atomic_read_relaxed(&pc_lc.v);
			}
			break;
		case PC_LIT_TEAR:
			if (pc_lres1[0]) {
				viol++;
				info[1] = pc_lres1[0];
			}
			break;
		default:
			break;
		}
	}
	info[2] = r - 1U;
	/* after a violation CPU 1 waits for the next round: stop it, and wait until it is back
	 * in its command loop */
	atomic_store(&pc_lstop, 1);
	for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_lactive); i++)
		plat_pause();
	return atomic_load(&pc_lactive) ? -1 : (long)viol;
}

/* The litmus cases: PORT_CHECK_ONLY's selector, the kind, the case, and what a violation means. */
struct pc_litmus_def {
	const char *sel;
	unsigned int kind;
	const char *name, *reqs, *what;
};
static const struct pc_litmus_def pc_litmus_cases[] = {
	{ "atomics/sb", PC_LIT_SB, "atomics/sb-smp_mb-is-a-full-fence", "REQ-MM-4 REQ-SYNC-3",
	  "SB+mb+mb: both loads read 0 (smp_mb does not order store->load)" },
	{ "atomics/mp", PC_LIT_MP, "atomics/mp-release-acquire", "REQ-MM-4 REQ-LOCK-1 REQ-SYNC-2",
	  "MP+rel+acq: the flag's acquire saw the release but the data was old" },
	{ "atomics/rmw", PC_LIT_RMW, "atomics/rmw-is-atomic", "REQ-MM-4 REQ-LOCK-1 REQ-LOCK-2",
	  "RMW: increments lost (fetch_add_acquire / inc_relaxed not atomic)" },
	{ "atomics/single-copy", PC_LIT_TEAR, "atomics/single-copy-atomic-32-bit", "REQ-MM-4",
	  "single-copy: a load saw half of a store (torn value)" },
};

static void pc_litmus_case(const struct pc_litmus_def *c)
{
	unsigned long info[3] = { 0, 0, 0 };
	long v;

	if (!pc_have_cpu1) {
		pc_skip(c->name, c->reqs, "one CPU: a litmus test needs a second observer");
		return;
	}
	v = pc_litmus(c->kind, PC_LITMUS_ROUNDS, info);
	PC_CHECK(v >= 0, "CPU 1 stopped answering during the litmus rounds");
	if (v > 0) {
		pc_fail(__LINE__, c->what, 0, 0, 0);
		pc_note("violation in round ", info[2]);
		if (c->kind == PC_LIT_RMW)
			pc_note("ticket counter after the round (expected 128): ", info[1]);
		if (c->kind == PC_LIT_MP)
			pc_note("data read after the flag: ", info[1]);
		if (c->kind == PC_LIT_TEAR)
			pc_note("torn value read: ", info[1]);
	}
	pc_note("rounds run: ", info[2]);
	if (c->kind == PC_LIT_MP)
		pc_note("instances in which the reader saw the flag: ", info[0]);
	pc_report(c->name, c->reqs);
}

/* ---- threads, waits, line masks (port.h, "Threaded handlers"; docs/porting.md, "Threads") ---
 *
 * The core names what it runs and what it waits for by a channel; the suite uses three: the
 * thread under test (PC_CH_A) and the wait channels of CPU 0 and CPU 1. Each thread function
 * of the suite records what it saw and wakes CPU 0's channel, so a case waits for a run with
 * irqsync_port_wait() itself -- on a run-to-completion port (bare metal) that wait is also
 * where the owed runs are made.
 *
 * No wait may hang the suite: every ready() of it gives up after PC_WAIT calls (bare metal:
 * the ports' waits spin and call ready() again and again), and on a platform with a ticker
 * (hosted) a watchdog wakes a wait that has lasted PC_WD_TICKS ticks, so that a port that
 * slept through its wake-up fails the case instead of stopping the run. */
#define PC_CH_A		0U
#define PC_CH_W0	1U
#define PC_CH_W1	2U
#define PC_WD_TICKS	3000UL		/* ticks (about 1 ms each) before the watchdog ends a wait */
#define PC_STOP_SPIN	200000U		/* iterations of the run the stop case stops */
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#define PC_T_ROUNDS	2000U		/* kick rounds */
#define PC_T_RUNS	5000UL		/* runs of the no-overlap case */
#define PC_W_WINDOW	2000U		/* rounds of the wake-up in the window */
#define PC_W_STRESS	10000U		/* rounds of the cross-CPU wake-up */
#else
#define PC_T_ROUNDS	200U
#define PC_T_RUNS	500UL
#define PC_W_WINDOW	30U
#define PC_W_STRESS	1000U
#endif

static _Atomic unsigned int pc_wd_chan;		/* channel + 1 of the watched wait, or 0 */
static _Atomic unsigned long pc_wd_ticks, pc_ready_calls;
static _Atomic int pc_wd_fired;
static int pc_have_ticker;

static void pc_wd_tick(void)
{
	unsigned int ch = atomic_load(&pc_wd_chan);

	if (ch == 0U)
		return;
	if (atomic_fetch_add(&pc_wd_ticks, 1UL) + 1UL >= PC_WD_TICKS) {
		atomic_store(&pc_wd_fired, 1);
		irqsync_port_wake(ch - 1U);
	}
}

/* What every ready() of a watched wait returns when its condition is false: 1 (give up) once
 * the watchdog fired or after PC_WAIT calls, else 0. */
static int pc_gave_up(void)
{
	if (atomic_load(&pc_wd_fired))
		return 1;
	if (atomic_fetch_add(&pc_ready_calls, 1UL) + 1UL >= PC_WAIT) {
		atomic_store(&pc_wd_fired, 1);
		return 1;
	}
	return 0;
}

/* irqsync_port_wait(chan, ready), watched. Return: 1 if ready() ended it, 0 if the suite did. */
static int pc_wait(unsigned int chan, int (*ready)(unsigned int chan))
{
	atomic_store(&pc_wd_fired, 0);
	atomic_store(&pc_wd_ticks, 0UL);
	atomic_store(&pc_ready_calls, 0UL);
	atomic_store(&pc_wd_chan, chan + 1U);
	irqsync_port_wait(chan, ready);
	atomic_store(&pc_wd_chan, 0U);
	return !atomic_load(&pc_wd_fired);
}

/* ---- CPU 1's part: commands that run on their own after the answer (pc_async) ---- */

enum { PC_ASYNC_WORK = 1, PC_ASYNC_WAKER, PC_ASYNC_STALL };
static _Atomic int pc_c1_stop;
static _Atomic unsigned long pc_c1_calls;

/* CPU 1 waits on its own channel until told to stop: a second worker for the owed runs on a
 * run-to-completion port (its wait makes them), an idle sleeper elsewhere. */
static _Atomic int pc_c1_waiting;		/* CPU 1 is in that wait (its ready() was called) */

static int pc_ready_c1(unsigned int chan)
{
	(void)chan;
	atomic_store(&pc_c1_waiting, 1);
	return atomic_load(&pc_c1_stop) || atomic_fetch_add(&pc_c1_calls, 1UL) >= PC_WAIT_LONG;
}

static _Atomic unsigned int pc_w_state, pc_w_want, pc_wk_go, pc_wk_done;

/* CPU 1 as the waker of the cross-CPU wake-up rounds: when CPU 0 opens round r, a random
 * short pause, then the state change and the wake. */
static void pc_waker_cpu1(unsigned int rounds)
{
	unsigned int seed = 0x1b873593U, r;
	unsigned long i;

	for (r = 1; r <= rounds; r++) {
		for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_wk_go) != r; i++) {
			if (atomic_load(&pc_c1_stop))
				return;
			plat_pause();
		}
		if (atomic_load(&pc_wk_go) != r)
			return;
		pc_spin(pc_rnd(&seed) % 3000U);
		atomic_store(&pc_w_state, r);
		irqsync_port_wake(PC_CH_W0);
		atomic_store(&pc_wk_done, r);
	}
}

static _Atomic int pc_if_stall, pc_if_in, pc_if_release;

static void pc_async_cpu1(unsigned int what, unsigned int arg)
{
	unsigned long i;

	switch (what) {
	case PC_ASYNC_WORK:
		atomic_store(&pc_c1_calls, 0UL);
		irqsync_port_wait(PC_CH_W1, pc_ready_c1);
		break;
	case PC_ASYNC_WAKER:
		pc_waker_cpu1(arg);
		break;
	case PC_ASYNC_STALL:		/* an interrupt on CPU 1 whose handler stays until released */
		atomic_store(&pc_if_stall, 1);
		plat_raise(0);
		for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_if_stall); i++)
			plat_pause();
		break;
	default:
		break;
	}
}

/* Start `what` on CPU 1; it runs until it ends or pc_async_end() stops it. Return: 1 if started
 * (for PC_ASYNC_WORK: once CPU 1 is inside its wait, so that it competes from the start). */
static int pc_async(unsigned int what, unsigned int arg)
{
	unsigned long i;

	atomic_store(&pc_c1_stop, 0);
	atomic_store(&pc_c1_waiting, 0);
	if (!pc_have_cpu1 || !pc_call(PC_CMD_ASYNC, what | (arg << 8)))
		return 0;
	for (i = 0; what == PC_ASYNC_WORK && i < PC_WAIT_LONG && !atomic_load(&pc_c1_waiting); i++)
		plat_pause();
	return 1;
}

/* Stop CPU 1's command (and wake its wait), and wait until it is back in its command loop. */
static int pc_async_end(void)
{
	unsigned long i;

	atomic_store(&pc_c1_stop, 1);
	irqsync_port_wake(PC_CH_W1);
	for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_c1_active); i++) {
		if ((i & 1023UL) == 0UL)
			irqsync_port_wake(PC_CH_W1);
		plat_pause();
	}
	return !atomic_load(&pc_c1_active);
}

/* ---- thread/kick-runs-fn-after-each-kick ---- */

static _Atomic unsigned int pc_t_data, pc_t_seen, pc_t_want, pc_t_mode;
static _Atomic unsigned long pc_t_runs, pc_t_overlap, pc_t_masked, pc_t_badchan, pc_t_by_cpu1;
static _Atomic unsigned long pc_t_irq_kicks, pc_t_kicks_seen, pc_t_target, pc_t_badcur;
static _Atomic int pc_t_inside, pc_kick_armed;

static void pc_t_reset(void)
{
	atomic_store(&pc_t_data, 0U);
	atomic_store(&pc_t_seen, 0U);
	atomic_store(&pc_t_want, 0U);
	atomic_store(&pc_t_mode, 0U);
	atomic_store(&pc_t_runs, 0UL);
	atomic_store(&pc_t_overlap, 0UL);
	atomic_store(&pc_t_masked, 0UL);
	atomic_store(&pc_t_badchan, 0UL);
	atomic_store(&pc_t_by_cpu1, 0UL);
	atomic_store(&pc_t_badcur, 0UL);
	atomic_store(&pc_t_irq_kicks, 0UL);
	atomic_store(&pc_t_kicks_seen, 0UL);
	atomic_store(&pc_t_inside, 0);
}

/* What every thread function of the suite checks: its channel, its context (local interrupts
 * enabled, port.h; irqsync_port_thread_current() names the channel), that no other run of the
 * channel is under way. */
static void pc_t_enter(unsigned int chan)
{
	if (chan != PC_CH_A)
		pc_t_badchan++;
	if (irqsync_port_thread_current() != chan + 1U)
		pc_t_badcur++;
	if (irqsync_port_irqs_disabled())
		pc_t_masked++;
	if (atomic_exchange(&pc_t_inside, 1))
		pc_t_overlap++;
	if (plat_cpu() == 1U && pc_have_cpu1)
		pc_t_by_cpu1++;
}

static void pc_fn_kick(unsigned int chan)
{
	unsigned int d = atomic_load_explicit(&pc_t_data, memory_order_relaxed);
	unsigned long k = atomic_load(&pc_t_irq_kicks), i;

	pc_t_enter(chan);
	if (d > atomic_load(&pc_t_seen))
		atomic_store(&pc_t_seen, d);
	if (k > atomic_load(&pc_t_kicks_seen))
		atomic_store(&pc_t_kicks_seen, k);
	if (atomic_load(&pc_t_mode) == 1U && k == 0UL) {
		/* a kick while this run runs, from an interrupt handler: one more run is owed */
		atomic_store(&pc_kick_armed, 1);
		plat_raise(0);
		for (i = 0; i < PC_WAIT && atomic_load(&pc_t_irq_kicks) == 0UL; i++)
			plat_pause();
	}
	atomic_store(&pc_t_inside, 0);
	pc_t_runs++;
	irqsync_port_wake(PC_CH_W0);
}

static int pc_ready_seen(unsigned int chan)
{
	(void)chan;
	return atomic_load(&pc_t_seen) >= atomic_load(&pc_t_want) || pc_gave_up();
}

static int pc_ready_kicked_in_run(unsigned int chan)
{
	(void)chan;
	return atomic_load(&pc_t_kicks_seen) >= 1UL || pc_gave_up();
}

static void pc_t_common_checks(int line)
{
	if (pc_t_overlap)
		pc_fail(line, "thread: two runs of one channel at once", (long)pc_t_overlap, 0, 1);
	if (pc_t_masked)
		pc_fail(line, "thread: runs with local interrupts disabled (port.h: task context)",
			(long)pc_t_masked, 0, 1);
	if (pc_t_badchan)
		pc_fail(line, "thread: fn called with another channel than its own", (long)pc_t_badchan, 0, 1);
	if (pc_t_badcur)
		pc_fail(line, "thread: irqsync_port_thread_current() is not 1 + the channel in its run",
			(long)pc_t_badcur, 0, 1);
	if (irqsync_port_thread_current() != 0U)
		pc_fail(line, "thread: irqsync_port_thread_current() is not 0 outside every run",
			(long)irqsync_port_thread_current(), 0, 1);
}

/* port.h: after thread_start(chan, fn) the port runs fn(chan) at least once after every
 * kick (kicks may fold; a kick while it runs owes one more run, and a kick may come from a
 * handler); what the caller wrote before the kick is visible to that run (a full barrier). */
static void test_thread_kick(void)
{
	unsigned int r;
	int rc;

	pc_t_reset();
	rc = irqsync_port_thread_start(PC_CH_A, pc_fn_kick);
	PC_CHECK_EQ(rc, 0, "thread_start: not 0");
	if (rc != 0) {
		pc_report("thread/kick-runs-fn-after-each-kick", "REQ-TCB-2 REQ-THREAD-7 REQ-THREAD-8");
		return;
	}
	for (r = 1; r <= PC_T_ROUNDS; r++) {
		atomic_store_explicit(&pc_t_data, r, memory_order_relaxed);
		atomic_store(&pc_t_want, r);
		irqsync_port_thread_kick(PC_CH_A);
		if ((r & 7U) == 0U)
			irqsync_port_thread_kick(PC_CH_A);	/* two kicks, folded or not */
		if (!pc_wait(PC_CH_W0, pc_ready_seen)) {
			pc_note("  in kick round ", r);
			pc_fail(__LINE__, "kick: no run after it that saw the data written before it",
				(long)atomic_load(&pc_t_seen), (long)r, 1);
			break;
		}
	}
	pc_note("kick rounds: ", r - 1U);
	pc_note("runs: ", pc_t_runs);
#ifdef IRQSYNC_BAREMETAL_H
	{	/* the idle loop's worker makes an owed run, and only one */
		unsigned long before = pc_t_runs;

		atomic_store(&pc_t_want, PC_T_ROUNDS + 1U);
		atomic_store_explicit(&pc_t_data, PC_T_ROUNDS + 1U, memory_order_relaxed);
		irqsync_port_thread_kick(PC_CH_A);
		irqsync_port_thread_kick(PC_CH_A);
		PC_CHECK_EQ(irqsync_baremetal_run_threads(), 1,
			    "irqsync_baremetal_run_threads: runs made for two folded kicks");
		PC_CHECK_EQ(pc_t_runs - before, 1, "irqsync_baremetal_run_threads: runs of fn");
		PC_CHECK_EQ(irqsync_baremetal_run_threads(), 0,
			    "irqsync_baremetal_run_threads: a run without a kick");
	}
#endif
	atomic_store(&pc_t_mode, 1U);
	irqsync_port_thread_kick(PC_CH_A);
	PC_CHECK(pc_wait(PC_CH_W0, pc_ready_kicked_in_run),
		 "kick during a run (from handle_irq): no run after it");
	PC_CHECK_EQ(pc_t_irq_kicks, 1, "the handler's kick during the run was not made (platform)");
	irqsync_port_thread_stop(PC_CH_A);
	pc_t_common_checks(__LINE__);
	pc_report("thread/kick-runs-fn-after-each-kick", "REQ-TCB-2 REQ-THREAD-7 REQ-THREAD-8");
}

/* ---- thread/runs-never-overlap ---- */

static void pc_fn_chain(unsigned int chan)
{
	unsigned long n;

	pc_t_enter(chan);
	pc_spin(64U);
	n = ++pc_t_runs;
	if (n < pc_t_target) {
		irqsync_port_thread_kick(chan);		/* owe the next run while this one runs */
		if ((n % 5UL) == 0UL)
			irqsync_port_thread_kick(chan);
	}
	atomic_store(&pc_t_inside, 0);
	if (n >= pc_t_target)
		irqsync_port_wake(PC_CH_W0);
}

static int pc_ready_chain(unsigned int chan)
{
	(void)chan;
	return atomic_load(&pc_t_runs) >= atomic_load(&pc_t_target) || pc_gave_up();
}

/* port.h: "never two runs of one channel at once" -- a chain of runs each of which kicks the
 * next while it runs, made by every worker the port has: its thread (hosted), or CPU 0's and
 * CPU 1's waits both (bare metal with two CPUs: each claims the channel for a run). */
static void test_thread_no_overlap(void)
{
	int rc, two;

	pc_t_reset();
	atomic_store(&pc_t_target, PC_T_RUNS);
	rc = irqsync_port_thread_start(PC_CH_A, pc_fn_chain);
	PC_CHECK_EQ(rc, 0, "thread_start: not 0");
	if (rc == 0) {
		two = pc_async(PC_ASYNC_WORK, 0U);
		irqsync_port_thread_kick(PC_CH_A);
		PC_CHECK(pc_wait(PC_CH_W0, pc_ready_chain), "chain: the runs stopped before the last");
		if (two)
			PC_CHECK(pc_async_end(), "CPU 1 did not come back from its wait");
		irqsync_port_thread_stop(PC_CH_A);
		pc_note("runs: ", pc_t_runs);
		pc_note("runs made by CPU 1: ", pc_t_by_cpu1);
#ifdef IRQSYNC_BAREMETAL_H
		if (two && pc_t_by_cpu1 == 0UL)
			pc_say("CPU 1 made no run: two workers did not compete this time (a loaded host?)");
#endif
	}
	pc_t_common_checks(__LINE__);
	pc_report("thread/runs-never-overlap", "REQ-TCB-2 REQ-THREAD-7");
}

/* ---- thread/stop-ends-the-runs-then-no-more ---- */

static _Atomic unsigned long pc_s_begun, pc_s_ended, pc_s_want;
static _Atomic int pc_s_in, pc_s_stopping;

static void pc_fn_stop(unsigned int chan)
{
	unsigned long i;

	pc_t_enter(chan);
	atomic_store(&pc_s_in, 1);
	if (pc_s_begun++ == 0UL) {
		/* the first run stays until the stop has been called (bounded), and a while more */
		for (i = 0; i < PC_WAIT && !atomic_load(&pc_s_stopping); i++)
			plat_pause();
	}
	pc_spin(PC_STOP_SPIN);
	atomic_store(&pc_s_in, 0);
	pc_s_ended++;
	atomic_store(&pc_t_inside, 0);
	irqsync_port_wake(PC_CH_W0);
}

static int pc_ready_ended(unsigned int chan)
{
	(void)chan;
	return atomic_load(&pc_s_ended) >= atomic_load(&pc_s_want) || pc_gave_up();
}

/* port.h: thread_stop lets the owed run and the running one end, then runs no more, and only
 * then returns; a stopped channel may be started again. */
static void test_thread_stop(void)
{
	unsigned long i, b;
	int rc, two, concurrent;

	pc_t_reset();
	atomic_store(&pc_s_begun, 0UL);
	atomic_store(&pc_s_ended, 0UL);
	atomic_store(&pc_s_stopping, 0);
	rc = irqsync_port_thread_start(PC_CH_A, pc_fn_stop);
	PC_CHECK_EQ(rc, 0, "thread_start: not 0");
	if (rc != 0) {
		pc_report("thread/stop-ends-the-runs-then-no-more", "REQ-TCB-2 REQ-THREAD-6");
		return;
	}
	two = pc_async(PC_ASYNC_WORK, 0U);
	irqsync_port_thread_kick(PC_CH_A);
	for (i = 0; i < PC_WAIT / 16U && atomic_load(&pc_s_begun) == 0UL; i++)
		plat_pause();
	concurrent = atomic_load(&pc_s_begun) != 0UL;
	if (concurrent) {
		/* a run is under way on its thread (or CPU 1): owe one more, then stop */
		irqsync_port_thread_kick(PC_CH_A);
		atomic_store(&pc_s_stopping, 1);
		irqsync_port_thread_stop(PC_CH_A);
		PC_CHECK_EQ(atomic_load(&pc_s_in), 0, "stop returned while the run was still running");
		PC_CHECK_EQ(pc_s_ended, 2, "stop: runs ended by its return (the running one and the owed one)");
	} else {
		/* nobody runs it meanwhile (run to completion, one CPU): the stop makes the owed run */
		pc_say("no run started while CPU 0 waited: the port runs owed runs in its callers");
		atomic_store(&pc_s_stopping, 1);
		irqsync_port_thread_stop(PC_CH_A);
		PC_CHECK_EQ(pc_s_ended, 1, "stop: runs ended by its return (the owed one)");
	}
	PC_CHECK_EQ(pc_s_begun, pc_s_ended, "stop: a run began but had not ended at the return");
	/* no run after the stop, kicked or not */
	b = pc_s_begun;
	irqsync_port_thread_kick(PC_CH_A);
	for (i = 0; i < 20U * PC_HOLD; i++)
		plat_pause();
#ifdef IRQSYNC_BAREMETAL_H
	(void)irqsync_baremetal_run_threads();
#endif
	PC_CHECK_EQ(pc_s_begun, b, "stop: a run after the stop returned");
	if (two)
		PC_CHECK(pc_async_end(), "CPU 1 did not come back from its wait");
	/* started again, it runs again */
	rc = irqsync_port_thread_start(PC_CH_A, pc_fn_stop);
	PC_CHECK_EQ(rc, 0, "thread_start after a stop: not 0");
	if (rc == 0) {
		atomic_store(&pc_s_want, atomic_load(&pc_s_ended) + 1UL);
		irqsync_port_thread_kick(PC_CH_A);
		PC_CHECK(pc_wait(PC_CH_W0, pc_ready_ended), "started again: no run after a kick");
		irqsync_port_thread_stop(PC_CH_A);
		PC_CHECK_EQ(pc_s_begun, pc_s_ended, "second stop: a run began but had not ended");
	}
	pc_t_common_checks(__LINE__);
	pc_report("thread/stop-ends-the-runs-then-no-more", "REQ-TCB-2 REQ-THREAD-6");
}

/* ---- wait/wake-after-a-state-change-is-never-lost ---- */

static _Atomic unsigned long pc_w_calls;
static _Atomic int pc_w_armed, pc_w_woken;

static int pc_ready_state(unsigned int chan)
{
	(void)chan;
	pc_w_calls++;
	return atomic_load(&pc_w_state) == atomic_load(&pc_w_want) || pc_gave_up();
}

/* The lost wake-up's window, on purpose: the first look of a round reads "not ready"; before
 * it returns, an interrupt on this CPU changes the state and wakes the channel (as the core's
 * dispatch may, T_FOLD); the port must look again. */
static int pc_ready_window(unsigned int chan)
{
	unsigned long i;
	int was;

	(void)chan;
	if (pc_w_calls++ == 0UL) {
		was = atomic_load(&pc_w_state) == atomic_load(&pc_w_want);
		atomic_store(&pc_w_woken, 0);
		atomic_store(&pc_w_armed, 1);
		plat_raise(0);
		for (i = 0; i < PC_WAIT && !atomic_load(&pc_w_woken); i++)
			plat_pause();
		return was;
	}
	return atomic_load(&pc_w_state) == atomic_load(&pc_w_want) || pc_gave_up();
}

/* port.h: wait returns once ready() is true, and a wake made after a change that ready()
 * reads is never lost (spec/threaded.md REQ-THREAD-8). */
static void test_wait_wake(void)
{
	unsigned int r, lost = 0;
	unsigned long i, calls_min = ~0UL;

	/* ready at once: returns, having looked */
	atomic_store(&pc_w_state, 0U);
	atomic_store(&pc_w_want, 0U);
	pc_w_calls = 0;
	PC_CHECK(pc_wait(PC_CH_W0, pc_ready_state), "wait: did not return although ready() was true");
	PC_CHECK(pc_w_calls >= 1UL, "wait: returned without calling ready()");
	/* the wake in the window, from an interrupt */
	for (r = 1; r <= PC_W_WINDOW; r++) {
		atomic_store(&pc_w_want, r);
		pc_w_calls = 0;
		if (!pc_wait(PC_CH_W0, pc_ready_window)) {
			lost++;
			pc_note("  lost in window round ", r);
			pc_fail(__LINE__, "wait: a wake-up made between ready()'s look and the sleep was lost (the wait slept on until the suite's watchdog woke it)",
				0, 0, 0);
			break;
		}
		if (!atomic_load(&pc_w_woken))
			pc_fail(__LINE__, "the interrupt that wakes did not come (platform)", 0, 0, 0);
		if (pc_w_calls < calls_min)
			calls_min = pc_w_calls;
	}
	pc_note("window rounds: ", r - 1U);
	if (!lost)
		PC_CHECK(calls_min >= 2UL, "wait: returned on the look that read 'not ready'");
	/* CPU 1 changes the state and wakes at random moments around CPU 0's wait */
	if (!lost && pc_async(PC_ASYNC_WAKER, PC_W_STRESS)) {
		atomic_store(&pc_wk_done, 0U);
		for (r = 1; r <= PC_W_STRESS; r++) {
			atomic_store(&pc_w_want, r);
			atomic_store(&pc_wk_go, r);
			if (!pc_wait(PC_CH_W0, pc_ready_state)) {
				pc_note("  lost in cross-CPU round ", r);
				pc_fail(__LINE__, "wait: a wake-up from CPU 1 was lost (the suite's watchdog ended the wait)",
					0, 0, 0);
				break;
			}
			for (i = 0; i < PC_WAIT_LONG && atomic_load(&pc_wk_done) != r; i++)
				plat_pause();
			if (atomic_load(&pc_wk_done) != r) {
				pc_fail(__LINE__, "CPU 1 stopped waking", 0, 0, 0);
				break;
			}
		}
		pc_note("cross-CPU rounds: ", r - 1U);
		PC_CHECK(pc_async_end(), "CPU 1 did not come back");
	}
	pc_report("wait/wake-after-a-state-change-is-never-lost", "REQ-TCB-2 REQ-THREAD-8");
}

/* ---- line masks ---- */

/* After an unmask: the held interrupt of source n comes (bounded wait), and exactly once. */
static void pc_expect_once(int line, unsigned int c, unsigned int n, unsigned long d0, const char *what)
{
	unsigned long i;

	(void)pc_wait_taken(c, n, d0);
	for (i = 0; i < PC_HOLD; i++)
		plat_pause();
	if (pc_deliv[c][n] != d0 + 1U)
		pc_fail(line, what, (long)(pc_deliv[c][n] - d0), 1, 1);
}

static void pc_expect_line_held(int line, unsigned int n, const char *what)
{
	int r = pc_observe(n);

	if (r < 0)
		pc_fail(line, "the raised interrupt never reached the CPU (platform)", 0, 0, 0);
	else if (r != 1)
		pc_fail(line, what, r, 1, 1);
}

/* port.h: while line irq is masked the port delivers no interrupt of it; one raised
 * meanwhile is held and delivered (once) after the unmask (REQ-ONESHOT-1, REQ-ONESHOT-3). */
static void test_line_mask(void)
{
	unsigned int c = plat_cpu();
	unsigned long d0, i;
	irq_flags_t f;

	irqsync_port_line_mask(PC_LINE(0));
	d0 = pc_deliv[c][0];
	pc_expect_line_held(__LINE__, 0, "line mask: an interrupt of the masked line was delivered (1 = held)");
	PC_CHECK_EQ(pc_observe(1), 0, "line mask: another line's interrupt was held too (0 = taken)");
	irqsync_port_line_unmask(PC_LINE(0));
	pc_expect_once(__LINE__, c, 0, d0, "line unmask: deliveries of the held interrupt after the unmask");

	/* unmasked while the CPU's interrupts are disabled: the CPU holds it until its unmask */
	irqsync_port_line_mask(PC_LINE(0));
	d0 = pc_deliv[c][0];
	pc_expect_line_held(__LINE__, 0, "line mask (second): an interrupt of the masked line was delivered");
	f = irqsync_port_irq_save();
	irqsync_port_line_unmask(PC_LINE(0));
	for (i = 0; i < PC_HOLD; i++)
		plat_pause();
	PC_CHECK_EQ(pc_deliv[c][0], d0, "line unmask: delivered while the CPU's interrupts were disabled");
	irqsync_port_irq_restore(f);
	pc_expect_once(__LINE__, c, 0, d0, "line unmask under irq_save: deliveries by the end of irq_restore");

	/* a mask and an unmask with nothing raised deliver nothing; the line works after it */
	d0 = pc_deliv[c][0];
	irqsync_port_line_mask(PC_LINE(0));
	irqsync_port_line_unmask(PC_LINE(0));
	for (i = 0; i < PC_HOLD; i++)
		plat_pause();
	PC_CHECK_EQ(pc_deliv[c][0], d0, "line unmask: a delivery with nothing raised");
	PC_CHECK_EQ(pc_observe(0), 0, "line: held after the unmask (left masked)");
	PC_CHECK_EQ(pc_stray, 0, "line: interrupts of unknown lines or CPUs");
	pc_report("line/mask-holds-then-unmask-delivers-once", "REQ-TCB-2 REQ-ONESHOT-1 REQ-ONESHOT-3");
}

static void test_line_mask_every_cpu(void)
{
	unsigned long d0, d00;

	if (!pc_have_cpu1) {
		pc_skip("line/mask-holds-on-every-cpu", "REQ-TCB-2 REQ-ONESHOT-1", "one CPU");
		return;
	}
	if (plat_lines_per_cpu()) {
		pc_skip("line/mask-holds-on-every-cpu", "REQ-TCB-2 REQ-ONESHOT-1",
			"the sources are per-CPU interrupts (GIC PPIs): a line mask acts on the masking CPU's own");
		return;
	}
	irqsync_port_line_mask(PC_LINE(0));
	d0 = pc_deliv[1][0];
	d00 = pc_deliv[0][0];
	PC_CHECK(pc_call(PC_CMD_STATE, 0), "CPU 1 did not answer");
	PC_CHECK_EQ(pc_mbox.res[1], 1, "line mask: delivered on CPU 1 while CPU 0 had the line masked (1 = held)");
	irqsync_port_line_unmask(PC_LINE(0));
	pc_expect_once(__LINE__, 1, 0, d0, "line unmask: deliveries on CPU 1 of its held interrupt");
	PC_CHECK_EQ(pc_deliv[0][0], d00, "line unmask: CPU 1's held interrupt delivered on CPU 0");
	pc_report("line/mask-holds-on-every-cpu", "REQ-TCB-2 REQ-ONESHOT-1");
}

/* ---- in flight ---- */

static _Atomic int pc_if_armed, pc_if_line, pc_if_other;

/* port.h: line_inflight(irq) is 1 from the moment the port takes an interrupt of irq for
 * delivery until its handle_irq() returns, else 0; or IRQSYNC_PORT_CANNOT_TELL (REQ-THREAD-10). */
static void test_line_inflight(void)
{
	int before = irqsync_port_line_inflight(PC_LINE(0)), v;
	unsigned long i;

	if (before == IRQSYNC_PORT_CANNOT_TELL) {
		PC_CHECK_EQ(irqsync_port_line_inflight(PC_LINE(1)), IRQSYNC_PORT_CANNOT_TELL,
			    "inflight: cannot tell for one line, tells for another");
		if (pc_cur)
			pc_report("line/inflight-during-handle-irq-only", "REQ-TCB-2 REQ-THREAD-10");
		else
			pc_skip("line/inflight-during-handle-irq-only", "REQ-TCB-2 REQ-THREAD-10",
				"the port cannot tell (IRQSYNC_PORT_CANNOT_TELL): synchronize_irq does not wait for the controller");
		return;
	}
	PC_CHECK_EQ(before, 0, "inflight: 1 with no interrupt in flight");
	atomic_store(&pc_if_line, -2);
	atomic_store(&pc_if_other, -2);
	atomic_store(&pc_if_armed, 1);
	PC_CHECK_EQ(pc_observe(0), 0, "inflight: the interrupt was not taken");
	atomic_store(&pc_if_armed, 0);
	PC_CHECK_EQ(atomic_load(&pc_if_line), 1, "inflight: during the handle_irq() of its line (want 1)");
	PC_CHECK_EQ(atomic_load(&pc_if_other), 0, "inflight: another line's, during that handle_irq() (want 0)");
	PC_CHECK_EQ(irqsync_port_line_inflight(PC_LINE(0)), 0, "inflight: after handle_irq() returned (want 0)");
	if (pc_have_cpu1 && !plat_lines_per_cpu()) {
		/* seen from CPU 0 while CPU 1's handler runs */
		atomic_store(&pc_if_in, 0);
		atomic_store(&pc_if_release, 0);
		PC_CHECK(pc_async(PC_ASYNC_STALL, 0U), "CPU 1 did not answer");
		for (i = 0; i < PC_WAIT_LONG && !atomic_load(&pc_if_in); i++)
			plat_pause();
		PC_CHECK(atomic_load(&pc_if_in), "CPU 1's interrupt did not come (platform)");
		v = irqsync_port_line_inflight(PC_LINE(0));
		atomic_store(&pc_if_release, 1);
		PC_CHECK_EQ(v, 1, "inflight: seen from CPU 0 while CPU 1's handle_irq() runs (want 1)");
		PC_CHECK(pc_async_end(), "CPU 1 did not come back");
		PC_CHECK_EQ(irqsync_port_line_inflight(PC_LINE(0)), 0,
			    "inflight: seen from CPU 0 after CPU 1's handle_irq() returned (want 0)");
	} else {
		pc_say("inflight seen from another CPU: not checked here (one CPU, or per-CPU lines)");
	}
	pc_report("line/inflight-during-handle-irq-only", "REQ-TCB-2 REQ-THREAD-10");
}


/* What handle_irq() does for the cases above, when they arm it. */
static void pc_thread_hooks(unsigned int c, unsigned int n)
{
	unsigned long i;

	if (n == 0U && atomic_exchange(&pc_kick_armed, 0)) {
		irqsync_port_thread_kick(PC_CH_A);	/* a kick from a handler */
		pc_t_irq_kicks++;
	}
	if (n == 0U && atomic_exchange(&pc_w_armed, 0)) {
		atomic_store(&pc_w_state, atomic_load(&pc_w_want));
		irqsync_port_wake(PC_CH_W0);		/* a wake from a handler */
		atomic_store(&pc_w_woken, 1);
	}
	if (atomic_load(&pc_if_armed) && c == 0U) {
		atomic_store(&pc_if_line, irqsync_port_line_inflight(PC_LINE(n)));
		atomic_store(&pc_if_other, irqsync_port_line_inflight(PC_LINE(1U - n)));
	}
	if (c == 1U && n == 0U && atomic_load(&pc_if_stall)) {
		atomic_store(&pc_if_in, 1);
		for (i = 0; i < PC_WAIT_LONG && !atomic_load(&pc_if_release); i++)
			plat_pause();
		atomic_store(&pc_if_stall, 0);
	}
}

/* The other cases, in order, each under its PORT_CHECK_ONLY selector. */
static const struct {
	const char *sel;
	void (*run)(void);
} pc_cases[] = {
	{ "cpu-id/", test_cpu_id },
	{ "irq/save-restore", test_save_restore },
	{ "irq/masked-interrupt", test_held_then_delivered },
	{ "irq/unmask-window", test_unmask_window },
	{ "irq/nested-restore-window", test_nested_restore_window },
	{ "irq/irqs-disabled", test_irqs_disabled_truth },
	{ "irq/state-is-per-cpu", test_per_cpu },
	{ "compiler-barrier/", test_unmask_orders_plain_accesses },
	{ "cpu-relax/", test_cpu_relax_returns },
	{ "line/mask-holds-then", test_line_mask },
	{ "line/mask-holds-on-every-cpu", test_line_mask_every_cpu },
	{ "line/inflight", test_line_inflight },
	{ "thread/kick", test_thread_kick },
	{ "thread/runs-never-overlap", test_thread_no_overlap },
	{ "thread/stop", test_thread_stop },
	{ "wait/", test_wait_wake },
};

/* The bare-metal ports mask lines at their interrupt controller: tell them which input
 * carries each of the suite's lines (the board's numbering, plat_line_hwirq). */
static void pc_lines_setup(void)
{
#ifdef IRQSYNC_BAREMETAL_H
	unsigned int n;

	for (n = 0; n < PC_NSRC; n++)
		if (plat_line_hwirq(n) >= 0 &&
		    irqsync_baremetal_line_hwirq(PC_LINE(n), (unsigned int)plat_line_hwirq(n)) != 0)
			plat_puts("Bail out! irqsync_baremetal_line_hwirq refused the board's input\n");
#endif
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(void)
{
	unsigned int i;

	plat_init();
	plat_puts("# irqsync port conformance suite: " PC_NAME "\n");
	pc_note("IRQSYNC_NR_CPUS = ", IRQSYNC_NR_CPUS);
	pc_note("CPUs of this run: ", plat_ncpus());
	if (plat_ncpus() > 1) {
		pc_have_cpu1 = plat_cpu_start(1, pc_worker) == 0;
		if (!pc_have_cpu1)
			plat_puts("Bail out! cannot start CPU 1\n");
	}
	if (PC_ONLY[0] != '\0')
		plat_puts("# cases selected (PORT_CHECK_ONLY): " PC_ONLY "\n");
	pc_lines_setup();
	pc_have_ticker = plat_ticker_start(pc_wd_tick) == 0;
	pc_note("watchdog ticker for the waits (1 = yes; else their ready() calls are counted): ",
		(unsigned long)pc_have_ticker);
	for (i = 0; i < sizeof(pc_cases) / sizeof(pc_cases[0]); i++)
		if (pc_selected(pc_cases[i].sel))
			pc_cases[i].run();
	for (i = 0; i < sizeof(pc_litmus_cases) / sizeof(pc_litmus_cases[0]); i++)
		if (pc_selected(pc_litmus_cases[i].sel))
			pc_litmus_case(&pc_litmus_cases[i]);
	if (pc_have_cpu1)
		(void)pc_call(PC_CMD_EXIT, 0);
	plat_ticker_stop();
	plat_cpu_join_all();
	plat_fini();
	plat_puts("1..");
	plat_putu((unsigned long)pc_tests);
	plat_puts("\n");
	return pc_failed > 100 ? 100 : pc_failed;
}

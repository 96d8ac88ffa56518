/* SPDX-License-Identifier: MIT */
/*
 * replay.c - the conformance harness (REQ-IMPL-3, REQ-TCB-1).
 *
 * Runs the REAL C core (a library built with -DIRQSYNC_STEP_HOOKS), one
 * thread per CPU, under a deterministic scheduler that follows a schedule of
 * step names produced from a SPIN run (tests/conformance/gen.py, mapped by
 * tests/conformance/refinement.md).  The step hook blocks each thread until
 * the schedule says it is its turn with that step; exactly one thread runs
 * at a time, and its step is done when it reaches its next hook.  At the end
 * the observable state is compared with the model's final state.
 *
 * For TSO schedules the harness emulates store buffers on the three words the
 * protocol's ordering rests on (status of line 0, the driver's flag, the lock
 * owner): see "Store-buffer emulation" in refinement.md.
 *
 * Input (stdin), one or more schedules:
 *   schedule <id>
 *   config variant=<0|1|2> tso=<0|1> scen=<sync|free|depth> ncpu=<n> sharers=<n>
 *          caller_mb=<0|1> mode=<match|cannot>
 *   S <cpu> <STEP> <stores: status,flag,lock,act or -> <flags: 1 drain | 2 locked> [ld|st=<word>:<v>/<mask>]
 *   F <cpu>
 *   expect status=<v0,v1,..> depth=<n> flag0=<n> stale=<n> returned=<n> inst=<b0,b1,..>
 *          lock=<0|1> passes=<n> violation=<none|sync3-read|sync3-return|sync1|lifecycle5|depth1>
 *   end
 * mode=match: the C must take every step and end in the expected state, with
 * the same violation.  mode=cannot: a counterexample of another variant; this
 * build must NOT reproduce its violation (it diverges or ends without one).
 *
 * A difference between model and C is a failure unless it is one of the closed
 * list of documented gaps (step_gap, ghost_explains; refinement.md), and at most
 * GAP_CAP schedules of a run may end in a gap.
 *
 * Output: one line per schedule (ok / gap / FAIL ...), then a summary line
 * "replayed N: ok A, gap G, cannot C, failed F (vV build, gap cap K)".  Exit 1 if
 * any failed.  Each schedule runs in a forked child (fresh library state, a hang
 * is killed by alarm()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"		/* src/core: irq_desc (the observable state) */
#include "irqsync_hosted.h"

#ifndef IRQSYNC_STEP_HOOKS
#error "build replay.c against a library built with -DIRQSYNC_STEP_HOOKS"
#endif

#define MAXCPU 5
#define MAXSTEPS 20000
#define MAXBUF 64
/*
 * At most this many schedules of one run (one build's schedule file) may end in a documented
 * gap; each one more is a failure.  The number is stated in spec/conformance.md (80-conformance
 * checks that the two agree): a change in the model or the C that opens more gaps must be
 * looked at, not absorbed.
 */
#define GAP_CAP 6

enum word { W_STATUS, W_FLAG, W_OWNER, NW, W_NONE = NW };
static const char *const word_name[] = { "status", "flag", "lock", "act" };

enum scen { SC_SYNC, SC_FREE, SC_DEPTH };

struct entry {
	char kind;		/* 'S' step, 'F' flush */
	int cpu;
	enum irqsync_step step;
	int nst, st[4];		/* model stores (enum word) */
	int drain;
	int chk, chk_w;		/* 1: the model loaded, 2: stored chk_v at word chk_w */
	unsigned int chk_v, chk_mask;	/* status bits compared (refinement.md: relax) */
};

struct expect {
	unsigned int status[MAXCPU];
	unsigned int depth, flag0, stale, returned, inst[MAXCPU], lock, passes, smask;
	char violation[32];
};

struct sched {
	char id[512];
	int variant, tso, scen, ncpu, sharers, caller_mb, cannot;
	int check_sync1, check_flag, ltl_sync;	/* which properties the SPIN run checked */
	int n;
	struct entry e[MAXSTEPS];
	struct expect x;
};

static struct sched S;		/* the schedule being replayed (child) */

/* ---- scheduler state (child), all under mtx ---- */
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int free_run;			/* schedule over or diverged: hooks pass */
static int running = -1;		/* CPU whose step is being executed */
static int waiting[MAXCPU], done_[MAXCPU];
static enum irqsync_step at[MAXCPU];	/* the step each waiting CPU is at */
static int pos;				/* next schedule entry */
static const struct entry *cur;		/* the step being executed */
static _Thread_local int me = -1;
static _Thread_local int granted;	/* the last hook returned with a turn */
static _Thread_local unsigned long spins;

/* ---- emulated words ---- */
static _Atomic unsigned int flag;	/* the driver's irq_sync flag (tg3) */
static _Atomic unsigned int *real[NW];
static unsigned int memv[NW];		/* memory */
static struct { int w; unsigned int v; unsigned long seq; } buf[MAXCPU][MAXBUF];
static int nbuf[MAXCPU];
static unsigned long seqno;
static unsigned int viewv[NW];		/* what the running CPU was shown */

/* ---- ghost state (as the model's) ---- */
static int inst[MAXCPU], old[MAXCPU], stale, returned, insync, before, frun, freed;
/*
 * The model computes `before` in an unmarked atomic block somewhere between the
 * driver's previous marked step and its first synchronize step; the harness takes the
 * running instances at both ends of that window (early: when the previous step is
 * done, late: at the grant of the first synchronize step) and tracks both sets as the
 * model tracks its one: an instance that ends leaves both.  Early is a subset of late
 * (an instance running from the early point to the return also runs from the late
 * one), so the early verdict is the C's, and a model verdict that differs from it is
 * explained by the window only if it is the late one (gap-ghost-before).
 */
static int before_early, early_taken, ambiguous;
static char verdict_early[32] = "none", verdict_late[32] = "none";
static char ghost_broken[96];		/* the harness's own ghost is inconsistent */
static int unlinked;			/* FREE_UNLINK granted: the chain lost the tg3 action */
static int dis_window, work;
static char violation[32] = "none";
static char diverged[256];

/* The first divergence in the step order, for the closed list of step gaps. */
static struct {
	int set;
	enum irqsync_step model, c;
	unsigned int status;		/* line 0's status as the diverging CPU sees it */
} mism;

static void note_violation(const char *kind, const char *fmt, ...)
{
	va_list ap;

	if (strcmp(violation, "none") == 0)
		snprintf(violation, sizeof(violation), "%s", kind);
	va_start(ap, fmt);
	fprintf(stderr, "# VIOLATION %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

static unsigned int view(int c, int w)
{
	int i;

	for (i = nbuf[c] - 1; i >= 0; i--)
		if (buf[c][i].w == w)
			return buf[c][i].v;
	return memv[w];
}

/* Show CPU c its view of the emulated words. */
static void install_view(int c)
{
	int w;

	for (w = 0; w < NW; w++) {
		viewv[w] = view(c, w);
		atomic_store(real[w], viewv[w]);
	}
}

static void push(int c, int w, unsigned int v)
{
	if (!S.tso) {
		if (w != W_NONE)
			memv[w] = v;
		return;
	}
	if (nbuf[c] == MAXBUF) {
		fprintf(stderr, "# store buffer overflow\n");
		_exit(3);
	}
	buf[c][nbuf[c]].w = w;
	buf[c][nbuf[c]].v = v;
	buf[c][nbuf[c]].seq = ++seqno;
	nbuf[c]++;
}

/* Every buffered store reaches memory, newest last (before a free run). */
static void drain_all(void)
{
	int c, w, i;
	unsigned long best[NW] = { 0 };

	for (c = 0; c < MAXCPU; c++) {
		for (i = 0; i < nbuf[c]; i++) {
			w = buf[c][i].w;
			if (w != W_NONE && buf[c][i].seq > best[w]) {
				best[w] = buf[c][i].seq;
				memv[w] = buf[c][i].v;
			}
		}
		nbuf[c] = 0;
	}
	for (w = 0; w < NW; w++)
		atomic_store(real[w], memv[w]);
}

static void diverge(const char *fmt, ...)
{
	va_list ap;

	if (!diverged[0]) {
		va_start(ap, fmt);
		vsnprintf(diverged, sizeof(diverged), fmt, ap);
		va_end(ap);
	}
	free_run = 1;
	running = -1;
	drain_all();
	pthread_cond_broadcast(&cv);
}

static int check_value(int c, const struct entry *e, unsigned int v);

/* Model and C disagree on CPU c's next step: keep both names for step_gap(). */
static void note_mismatch(int c, enum irqsync_step model)
{
	if (diverged[0] || mism.set)
		return;
	mism.set = 1;
	mism.model = model;
	mism.c = at[c];
	mism.status = view(c, W_STATUS);
}

/* The running CPU c finished its step: record what it stored. */
static void complete_step(int c)
{
	unsigned int now[NW];
	int listed[NW + 1] = { 0 };
	int i, w;

	for (w = 0; w < NW; w++)
		now[w] = atomic_load(real[w]);
	if (cur && cur->chk == 2 && check_value(c, cur, now[cur->chk_w]))
		return;
	for (i = 0; cur && i < cur->nst; i++) {
		w = cur->st[i];
		listed[w] = 1;
		push(c, w, w == W_NONE ? 0U : now[w]);
	}
	for (w = 0; w < NW; w++) {
		if (!listed[w] && now[w] != viewv[w]) {
			diverge("step %d: C stored %s at %s where the model stores nothing",
				pos - 1, word_name[w], cur ? irqsync_step_name(cur->step) : "start");
			return;
		}
	}
}

static void snapshot_and_compare(void);

/* The value the model read (at the grant) or wrote (when done) must be the C's. */
static int check_value(int c, const struct entry *e, unsigned int v)
{
	unsigned int mask = e->chk_w == W_STATUS ? e->chk_mask : ~0U;

	if ((v & mask) != (e->chk_v & mask) ||
	    (e->chk_w == W_STATUS && irq_desc[0].depth != e->chk_v >> 3)) {
		diverge("step %d: cpu%d %s %s %s: model %u, C %u (depth %u)", (int)(e - S.e), c,
			irqsync_step_name(e->step), e->chk == 1 ? "reads" : "writes",
			word_name[e->chk_w], e->chk_v, v & mask, irq_desc[0].depth);
		return -1;
	}
	return 0;
}

/* Called with mtx held when no thread runs: grant the next step. */
static void schedule_next(void)
{
	int c, n = 0;

	for (c = 0; c < S.ncpu; c++)
		n += waiting[c] || done_[c];
	if (n < S.ncpu || free_run)
		return;
	while (pos < S.n) {
		const struct entry *e = &S.e[pos];

		if (e->kind == 'F') {
			if (nbuf[e->cpu] == 0) {
				diverge("step %d: model flushes cpu%d, the emulated buffer is empty",
					pos, e->cpu);
				return;
			}
			if (buf[e->cpu][0].w != e->chk_w) {
				diverge("step %d: model flushes a %s store of cpu%d, the buffer's oldest is %s",
					pos, word_name[e->chk_w], e->cpu, word_name[buf[e->cpu][0].w]);
				return;
			}
			if (buf[e->cpu][0].w != W_NONE)
				memv[buf[e->cpu][0].w] = buf[e->cpu][0].v;
			memmove(&buf[e->cpu][0], &buf[e->cpu][1],
				(size_t)(nbuf[e->cpu] - 1) * sizeof(buf[0][0]));
			nbuf[e->cpu]--;
			pos++;
			continue;
		}
		c = e->cpu;
		if (done_[c]) {
			diverge("step %d: model cpu%d %s, C cpu%d has finished", pos, c,
				irqsync_step_name(e->step), c);
			return;
		}
		if (at[c] != e->step) {
			note_mismatch(c, e->step);
			diverge("step %d: model cpu%d %s, C cpu%d %s", pos, c,
				irqsync_step_name(e->step), c, irqsync_step_name(at[c]));
			return;
		}
		if ((e->drain & 1) && nbuf[c]) {
			diverge("step %d: cpu%d %s needs an empty store buffer", pos, c,
				irqsync_step_name(e->step));
			return;
		}
		install_view(c);
		if ((e->drain & 2) && atomic_load(&irq_desc[0].lock.next.counter) == viewv[W_OWNER]) {
			diverge("step %d: cpu%d %s: the model holds the descriptor lock, the C does not",
				pos, c, irqsync_step_name(e->step));
			return;
		}
		if (e->chk == 1 && check_value(c, e, viewv[e->chk_w]))
			return;
		cur = e;
		running = c;
		pos++;
		pthread_cond_broadcast(&cv);
		return;
	}
	/* The schedule is over and every thread is at a hook or finished. */
	snapshot_and_compare();
	free_run = 1;
	drain_all();
	pthread_cond_broadcast(&cv);
}

/* The CPUs running an instance of line 0 now (the model's INST_MASK). */
static int inst_mask(void)
{
	int i, m = 0;

	for (i = 0; i < S.ncpu; i++)
		m |= inst[i] << i;
	return m;
}

/*
 * Does the driver's hook at this step open the window of the model's `before` block?
 * It does at the hook that follows the driver's last marked step before synchronize_irq:
 * the first synchronize step (S_MB, S_SPIN_READ), or DRV_MB under SC, where the model's
 * smp_mb is an unmarked skip and gen.py inserted the step (insert_fences), so the block
 * may run before it.
 */
static int opens_before_window(enum irqsync_step step)
{
	if (step == IRQSYNC_STEP_S_MB || step == IRQSYNC_STEP_S_SPIN_READ)
		return 1;
	return step == IRQSYNC_STEP_DRV_MB && !S.tso;
}

/* The driver reached a hook (its previous step is done): the early end of the window. */
static void take_before_early(enum irqsync_step step)
{
	if (insync || early_taken || !opens_before_window(step))
		return;
	early_taken = 1;
	before_early = inst_mask();
}

/* The model's verdict at S_RETURN (its assertions in order) for a given `before` set. */
static const char *return_verdict(int before_set)
{
	int flag_checked = stale && S.scen == SC_SYNC;

	if (before_set && S.check_sync1)
		return "sync1";
	if (flag_checked && S.check_flag)
		return "sync3-return";
	if (flag_checked && S.ltl_sync)
		return "ltl-sync";	/* the claim, not an assertion: the step goes on */
	return "none";
}

/* S_RETURN: the model's d_step with `before` taken at the early end of the window. */
static void sync_return(void)
{
	const char *v = return_verdict(before_early);
	const char *late = return_verdict(before);

	/* gap-ghost-before rests on early being a subset of late: check it, every time */
	if ((before_early & ~before) && !ghost_broken[0])
		snprintf(ghost_broken, sizeof(ghost_broken),
			 "`before` at the early end (%#x) is not within the late end's (%#x)",
			 (unsigned int)before_early, (unsigned int)before);
	if (strcmp(v, late) != 0) {
		ambiguous = 1;
		snprintf(verdict_early, sizeof(verdict_early), "%s", v);
		snprintf(verdict_late, sizeof(verdict_late), "%s", late);
	}
	if (!strcmp(v, "sync1"))
		note_violation(v, "an instance that began before synchronize_irq still runs");
	else if (!strcmp(v, "sync3-return"))
		note_violation(v, "synchronize_irq returned while an instance that read the old flag runs");
	else if (!strcmp(v, "ltl-sync"))
		note_violation(v, "[] !(returned && stale > 0) fails at the return");
	if (!strcmp(v, "sync1") || !strcmp(v, "sync3-return"))
		return;		/* as in the model, a failed assertion ends the atomic step here */
	insync = 0;
	early_taken = 0;
	returned = 1;
}

/* Ghost bookkeeping at the grant of a step of line 0 (as the model's atomic blocks). */
static void ghost(int c, enum irqsync_step step)
{
	int i;

	switch ((int)step) {
	case IRQSYNC_STEP_D_SET_INPROGRESS:
		for (i = 0; i < S.ncpu; i++)
			if (inst[i] && i != c)
				note_violation("dispatch3", "two instances of line 0");
		inst[c] = 1;
		break;
	case IRQSYNC_STEP_D_CLEAR_INPROGRESS:
		inst[c] = 0;
		stale -= old[c];
		old[c] = 0;
		/* the instance ended: it leaves both ends of the window (the model's before) */
		before &= ~(1 << c);
		before_early &= ~(1 << c);
		break;
	case IRQSYNC_STEP_D_HANDLER:
		if (dis_window)
			note_violation("depth1", "a handler runs on cpu%d while the line is disabled", c);
		break;
	case IRQSYNC_STEP_S_MB:
	case IRQSYNC_STEP_S_SPIN_READ:
		if (!insync) {
			insync = 1;
			before = inst_mask();	/* the late end of the window */
		}
		break;
	case IRQSYNC_STEP_S_RETURN:
		sync_return();
		break;
	case IRQSYNC_STEP_FREE_UNLINK:
		unlinked = 1;
		break;
	case IRQSYNC_STEP_EN_DEPTH_DEC:
		if (irq_desc[0].depth == 1U)
			dis_window = 0;
		break;
	default:
		break;
	}
}

/* The step hook: every marked step of the core and of the harness comes here. */
static void hook(enum irqsync_step step, unsigned int irq)
{
	if (irq != 0U) {
		/* A spinning lock wait while holding the turn: the model's lock was free. */
		if (step == IRQSYNC_STEP_LOCK_WAIT && !free_run && me == running && ++spins > 100000) {
			pthread_mutex_lock(&mtx);
			diverge("step %d: cpu%d spins on a lock the model found free", pos - 1, me);
			pthread_mutex_unlock(&mtx);
		}
		return;
	}
	pthread_mutex_lock(&mtx);
	spins = 0;
	if (running == me) {
		complete_step(me);
		running = -1;
	}
	at[me] = step;
	waiting[me] = 1;
	if (me == 0)
		take_before_early(step);
	schedule_next();
	while (running != me && !free_run)
		pthread_cond_wait(&cv, &mtx);
	waiting[me] = 0;
	granted = running == me;
	ghost(me, step);
	pthread_mutex_unlock(&mtx);
}

static void thread_done(void)
{
	pthread_mutex_lock(&mtx);
	if (running == me) {
		complete_step(me);
		running = -1;
	}
	done_[me] = 1;
	schedule_next();
	pthread_mutex_unlock(&mtx);
}

/* ---- the driver's handler (tg3 pattern) and a silent sharer ---- */
static int dev0, dev1;

static irqreturn_t tg3_handler(void *dev_id)
{
	unsigned int fl;

	(void)dev_id;
	pthread_mutex_lock(&mtx);
	frun++;
	if (freed)
		note_violation("lifecycle5", "the freed handler runs after free_irq returned");
	pthread_mutex_unlock(&mtx);
	IRQSYNC_STEP(H_READ_FLAG, 0U);
	fl = atomic_load(&flag);
	if (fl == 0U) {
		pthread_mutex_lock(&mtx);
		if (returned && S.scen == SC_SYNC && S.check_flag) {
			note_violation("sync3-read", "cpu%d read the flag clear after synchronize_irq returned", me);
		} else {
			if (returned && S.scen == SC_SYNC && S.ltl_sync)
				note_violation("ltl-sync", "cpu%d read the old flag after the return", me);
			stale += 1 - old[me];	/* each instance counted once, as the model does */
			old[me] = 1;
			work++;
		}
		pthread_mutex_unlock(&mtx);
		IRQSYNC_STEP(H_WORK, 0U);
	}
	pthread_mutex_lock(&mtx);
	frun--;
	pthread_mutex_unlock(&mtx);
	return IRQ_HANDLED;
}

static irqreturn_t quiet_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}

/* ---- threads ---- */
static void *driver(void *arg)
{
	(void)arg;
	me = 0;
	(void)irqsync_hosted_cpu_attach(0);
	switch (S.scen) {
	case SC_SYNC:
		IRQSYNC_STEP(DRV_STORE_FLAG, 0U);
		atomic_store(&flag, 1U);
		if (S.caller_mb) {
			IRQSYNC_STEP(DRV_MB, 0U);
			smp_mb();
		}
		(void)synchronize_irq(0);
		break;
	case SC_FREE:
		(void)free_irq(0, &dev0);
		pthread_mutex_lock(&mtx);
		if (frun)
			note_violation("lifecycle5", "free_irq returned while the freed handler runs");
		freed = 1;
		pthread_mutex_unlock(&mtx);
		break;
	case SC_DEPTH:
		(void)disable_irq(0);
		pthread_mutex_lock(&mtx);
		for (int i = 0; i < S.ncpu; i++)
			if (inst[i])
				note_violation("depth1", "disable_irq returned while cpu%d runs the handler", i);
		dis_window = 1;
		pthread_mutex_unlock(&mtx);
		(void)disable_irq_nosync(0);
		(void)enable_irq(0);
		(void)enable_irq(0);
		break;
	}
	thread_done();
	return NULL;
}

static void *cpu_thread(void *arg)
{
	me = (int)(long)arg;
	(void)irqsync_hosted_cpu_attach((unsigned int)me);
	for (;;) {
		IRQSYNC_STEP(IRQ_ARRIVE, 0U);
		if (!granted)
			break;
		/* what the port does: interrupts off, dispatch */
		(void)handle_irq(0);
	}
	thread_done();
	return NULL;
}

/* ---- the end state ---- */
static char mismatch[512];

static void cmp(const char *what, unsigned int model, unsigned int c)
{
	size_t l = strlen(mismatch);

	if (model != c && l < sizeof(mismatch) - 64)
		snprintf(mismatch + l, sizeof(mismatch) - l, " %s: model %u, C %u;", what, model, c);
}

static void snapshot_and_compare(void)
{
	const struct irq_desc *d = &irq_desc[0];
	unsigned int next = atomic_load(&d->lock.next.counter);
	unsigned int owner_latest = memv[W_OWNER];
	unsigned long best = 0;
	char name[32];
	int c, i;

	for (c = 0; c < MAXCPU; c++)
		for (i = 0; i < nbuf[c]; i++)
			if (buf[c][i].w == W_OWNER && buf[c][i].seq > best) {
				best = buf[c][i].seq;
				owner_latest = buf[c][i].v;
			}
	for (c = 0; c < S.ncpu; c++) {
		snprintf(name, sizeof(name), "status(cpu%d view)", c);
		cmp(name, S.x.status[c] & S.x.smask, view(c, W_STATUS) & S.x.smask);
		snprintf(name, sizeof(name), "inst(cpu%d)", c);
		cmp(name, S.x.inst[c], (unsigned int)inst[c]);
	}
	cmp("depth", S.x.depth, d->depth);
	cmp("flag(driver view)", S.x.flag0, view(0, W_FLAG));
	/*
	 * After a failed assertion SPIN's simulation stops inside the atomic step and its trail
	 * replay finishes it: the ghost counters it touches are compared only without one.
	 */
	if (strcmp(S.x.violation, "none") == 0) {
		cmp("stale", S.x.stale, (unsigned int)stale);
		cmp("returned", S.x.returned, (unsigned int)returned);
	}
	cmp("lock held", S.x.lock, next != owner_latest);
	cmp("chain passes", S.x.passes, (unsigned int)(d->handled + d->unhandled));
}

/*
 * A child that makes no progress for 5 s: say where it stands (a divergence seen before the
 * hang is the better evidence) and die.  Test code: snprintf in a handler is tolerated here.
 */
static void on_alarm(int sig)
{
	char msg[700];
	int n;

	(void)sig;
	n = snprintf(msg, sizeof(msg), "FAIL %s: %s%s; then no progress in 5 s (hang)\n", S.id,
		     diverged[0] ? "diverged: " : "at schedule entry ", diverged[0] ? diverged : "");
	if (!diverged[0])
		n = snprintf(msg, sizeof(msg), "FAIL %s: no progress in 5 s at schedule entry %d (hang)\n",
			     S.id, pos);
	if (n > 0)
		(void)!write(1, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	_exit(1);
}

/* ---- the verdict of one schedule ---- */

/*
 * The closed list of documented gaps (refinement.md "Documented gaps", spec/conformance.md
 * "Documented gaps: a closed list, capped").  A difference that matches none of them fails,
 * whatever else the schedule is (an ambiguous `before` window included).
 */
enum gap_kind { GAP_NONE, GAP_REPLAY_DISABLED, GAP_CHAIN_SNAPSHOT, GAP_GHOST_BEFORE };
static const char *const gap_name[] = {
	"none", "gap-replay-disabled", "gap-chain-snapshot", "gap-ghost-before"
};

/* A divergence in the step order that one of the two protocol gaps explains, or GAP_NONE. */
static enum gap_kind step_gap(void)
{
	if (!mism.set)
		return GAP_NONE;
	/* the C leaves PENDING of a DISABLED line to enable_irq, the model replayed it */
	if (S.scen == SC_DEPTH && mism.model == IRQSYNC_STEP_D_CLEAR_PENDING &&
	    mism.c == IRQSYNC_STEP_D_CLEAR_INPROGRESS && (mism.status & IRQS_DISABLED))
		return GAP_REPLAY_DISABLED;
	/* the C calls the chain it copied under the lock, the model the one free_irq left */
	if (S.scen == SC_FREE && unlinked && mism.model == IRQSYNC_STEP_D_RELOCK &&
	    mism.c == IRQSYNC_STEP_H_READ_FLAG)
		return GAP_CHAIN_SNAPSHOT;
	return GAP_NONE;
}

/*
 * The violation differs only because SPIN ran the `before` block at the late end of the
 * window where the C takes the early one: the C's first violation is its verdict at the
 * return (the early end's), the model's is the late end's.
 */
static int ghost_explains(void)
{
	return ambiguous && strcmp(violation, verdict_early) == 0 &&
	       strcmp(S.x.violation, verdict_late) == 0;
}

static int gap(enum gap_kind k, const char *what)
{
	printf("gap %s: %s (%s, refinement.md)\n", S.id, what, gap_name[k]);
	return 10;
}

/* A divergence: one of the step gaps, or a failure (ambiguity of `before` excuses none). */
static int diverged_verdict(void)
{
	enum gap_kind k = step_gap();

	if (k != GAP_NONE)
		return gap(k, diverged);
	printf("FAIL %s: diverged: %s%s\n", S.id, diverged,
	       ambiguous ? " (the `before` window is ambiguous here; that excuses no divergence)" : "");
	return 1;
}

/* mode=match: the C took the model's steps to the same end state and violation, or a gap. */
static int match_verdict(void)
{
	int same = strcmp(violation, S.x.violation) == 0;
	char what[128];

	if (ghost_broken[0]) {
		printf("FAIL %s: harness ghost: %s\n", S.id, ghost_broken);
		return 1;
	}
	if (diverged[0])
		return diverged_verdict();
	if (!same && !ghost_explains()) {
		printf("FAIL %s: violation: model %s, C %s%s%s\n", S.id, S.x.violation, violation,
		       ambiguous ? "; the late end of the `before` window gives " : "",
		       ambiguous ? verdict_late : "");
		return 1;
	}
	if (mismatch[0]) {
		printf("FAIL %s: end state:%s\n", S.id, mismatch);
		return 1;
	}
	if (!same) {
		snprintf(what, sizeof(what), "violation: model %s, C %s", S.x.violation, violation);
		return gap(GAP_GHOST_BEFORE, what);
	}
	printf("ok %s: %d entries%s%s\n", S.id, S.n, strcmp(violation, "none") ? ", same violation: " : "",
	       strcmp(violation, "none") ? violation : "");
	return 0;
}

/* ---- one schedule, in a child ---- */
static int run_child(void)
{
	pthread_t th[MAXCPU];
	int c;

	irqsync_init();
	irqsync_hosted_reset();
	real[W_STATUS] = &irq_desc[0].status.counter;
	real[W_FLAG] = &flag;
	real[W_OWNER] = &irq_desc[0].lock.owner.counter;
	if (request_irq(0, tg3_handler, S.sharers > 1 ? IRQF_SHARED : 0UL, "tg3", &dev0) ||
	    (S.sharers > 1 && request_irq(0, quiet_handler, IRQF_SHARED, "other", &dev1))) {
		printf("FAIL %s: request_irq\n", S.id);
		return 1;
	}
	for (c = 0; c < NW; c++)
		memv[c] = atomic_load(real[c]);
	(void)irqsync_set_step_hook(hook);
	signal(SIGALRM, on_alarm);
	alarm(5);
	pthread_create(&th[0], NULL, driver, NULL);
	for (c = 1; c < S.ncpu; c++)
		pthread_create(&th[c], NULL, cpu_thread, (void *)(long)c);
	for (c = 0; c < S.ncpu; c++)
		pthread_join(th[c], NULL);

	if (S.cannot) {
		if (strcmp(violation, "none") != 0 && strcmp(violation, S.x.violation) == 0) {
			printf("FAIL %s: this build reproduces the counterexample (%s)\n", S.id, violation);
			return 1;
		}
		printf("cannot %s: %s; no violation\n", S.id, diverged[0] ? diverged : "followed to the end");
		return 11;
	}
	return match_verdict();
}

/* ---- parsing ---- */
static int step_by_name(const char *name)
{
	int i;

	for (i = 0; i < IRQSYNC_NR_STEPS; i++)
		if (strcmp(irqsync_step_name((enum irqsync_step)i), name) == 0)
			return i;
	return -1;
}

static void parse_list(const char *s, unsigned int *out, int max)
{
	int i = 0;

	while (*s && i < max) {
		out[i++] = (unsigned int)strtoul(s, (char **)&s, 10);
		if (*s == ',')
			s++;
		else
			break;
	}
}

static int parse_expect(char *line)
{
	char *tok, *save = NULL;

	memset(&S.x, 0, sizeof(S.x));
	strcpy(S.x.violation, "none");
	S.x.smask = 7U;
	for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(tok, "status")) parse_list(v, S.x.status, MAXCPU);
		else if (!strcmp(tok, "inst")) parse_list(v, S.x.inst, MAXCPU);
		else if (!strcmp(tok, "depth")) S.x.depth = (unsigned int)atoi(v);
		else if (!strcmp(tok, "flag0")) S.x.flag0 = (unsigned int)atoi(v);
		else if (!strcmp(tok, "stale")) S.x.stale = (unsigned int)atoi(v);
		else if (!strcmp(tok, "returned")) S.x.returned = (unsigned int)atoi(v);
		else if (!strcmp(tok, "lock")) S.x.lock = (unsigned int)atoi(v);
		else if (!strcmp(tok, "passes")) S.x.passes = (unsigned int)atoi(v);
		else if (!strcmp(tok, "smask")) S.x.smask = (unsigned int)atoi(v);
		else if (!strcmp(tok, "violation")) snprintf(S.x.violation, sizeof(S.x.violation), "%s", v);
	}
	return 0;
}

static int parse_config(char *line)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *v = strchr(tok, '=');

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(tok, "variant")) S.variant = atoi(v);
		else if (!strcmp(tok, "tso")) S.tso = atoi(v);
		else if (!strcmp(tok, "ncpu")) S.ncpu = atoi(v);
		else if (!strcmp(tok, "sharers")) S.sharers = atoi(v);
		else if (!strcmp(tok, "caller_mb")) S.caller_mb = atoi(v);
		else if (!strcmp(tok, "mode")) S.cannot = !strcmp(v, "cannot");
		else if (!strcmp(tok, "check_sync1")) S.check_sync1 = atoi(v);
		else if (!strcmp(tok, "check_flag")) S.check_flag = atoi(v);
		else if (!strcmp(tok, "ltl_sync")) S.ltl_sync = atoi(v);
		else if (!strcmp(tok, "scen"))
			S.scen = !strcmp(v, "free") ? SC_FREE : !strcmp(v, "depth") ? SC_DEPTH : SC_SYNC;
	}
	if (S.ncpu < 2 || S.ncpu > MAXCPU)
		return -1;
	return 0;
}

/* Read one schedule into S.  Return 1 read, 0 at EOF, -1 on bad input. */
static int read_schedule(FILE *f, int *lineno)
{
	char line[512], name[64], stores[64], chk[64];
	int cpu, drain, st, nf;

	memset(&S, 0, sizeof(S));
	S.check_sync1 = S.check_flag = 1;
	while (fgets(line, sizeof(line), f)) {
		++*lineno;
		if (!strncmp(line, "schedule ", 9)) {
			snprintf(S.id, sizeof(S.id), "%s", line + 9);
			S.id[strcspn(S.id, "\n")] = '\0';
		} else if (!strncmp(line, "config ", 7)) {
			if (parse_config(line + 7))
				return -1;
		} else if (line[0] == 'S' && line[1] == ' ') {
			chk[0] = '\0';
			if (S.n >= MAXSTEPS ||
			    (nf = sscanf(line + 2, "%d %63s %63s %d %63s", &cpu, name, stores, &drain, chk)) < 4 ||
			    cpu < 0 || cpu >= MAXCPU || (st = step_by_name(name)) < 0)
				return -1;
			struct entry *e = &S.e[S.n++];
			if (nf == 5) {
				char wn[16];
				unsigned int v, m = 7U;

				if (sscanf(chk, "%*[a-z]=%15[a-z]:%u/%u", wn, &v, &m) < 2)
					return -1;
				e->chk_mask = m;
				e->chk = chk[0] == 'l' ? 1 : 2;
				e->chk_w = !strcmp(wn, "flag") ? W_FLAG : W_STATUS;
				e->chk_v = v;
			}
			e->kind = 'S';
			e->cpu = cpu;
			e->step = (enum irqsync_step)st;
			e->drain = drain;
			if (strcmp(stores, "-")) {
				char *tok, *save = NULL;
				for (tok = strtok_r(stores, ",", &save); tok && e->nst < 4;
				     tok = strtok_r(NULL, ",", &save)) {
					int w;
					for (w = 0; w <= W_NONE; w++)
						if (!strcmp(tok, word_name[w]))
							break;
					if (w > W_NONE)
						return -1;
					e->st[e->nst++] = w;
				}
			}
		} else if (line[0] == 'F' && line[1] == ' ') {
			int w;

			if (S.n >= MAXSTEPS || sscanf(line + 2, "%d %15s", &cpu, name) != 2 || cpu < 0 ||
			    cpu >= MAXCPU)
				return -1;
			for (w = 0; w <= W_NONE; w++)
				if (!strcmp(name, word_name[w]))
					break;
			if (w > W_NONE)
				return -1;
			S.e[S.n].kind = 'F';
			S.e[S.n].cpu = cpu;
			S.e[S.n].chk_w = w;
			S.n++;
		} else if (!strncmp(line, "expect ", 7)) {
			parse_expect(line + 7);
		} else if (!strncmp(line, "end", 3)) {
			return 1;
		}
	}
	return S.id[0] ? -1 : 0;
}

/*
 * The wait the library carries: a variant library (tests/variants/, in place of
 * src/core/sync.c) defines irqsync_test_variant; the shipped sources (v2) define no such
 * symbol (REQ-SYNC-6), hence the weak reference.
 */
extern const int irqsync_test_variant __attribute__((weak));

static int lib_variant(void)
{
	return &irqsync_test_variant ? irqsync_test_variant : 2;
}

int main(int argc, char **argv)
{
	int lineno = 0, r, nok = 0, ngap = 0, ncannot = 0, nfail = 0, total = 0, gaps_seen = 0;
	const int variant = lib_variant();
	int max_fail = 0;	/* --max-fail N: stop after N failed schedules (the mutation campaign) */
	FILE *f = stdin;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "--max-fail")) {
		max_fail = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc > 1 && !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "replay: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	while ((r = read_schedule(f, &lineno)) == 1) {
		int status;
		pid_t pid;

		if (max_fail && nfail >= max_fail) {
			printf("stopped after %d failed schedules (--max-fail)\n", nfail);
			break;
		}
		total++;
		if (!S.cannot && S.variant != variant) {
			printf("FAIL %s: schedule of v%d given to the v%d build\n", S.id, S.variant,
			       variant);
			nfail++;
			continue;
		}
		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(run_child());
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			printf("FAIL %s: fork\n", S.id);
			nfail++;
			continue;
		}
		/* the child printed ok / gap / cannot, or why it failed */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			nok++;
			continue;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 10) {
			if (++gaps_seen <= GAP_CAP) {
				ngap++;
				continue;
			}
			/* the child printed the gap line; beyond the cap it is a failure */
			printf("FAIL %s: gap %d of this run, more than the cap of %d (spec/conformance.md)\n",
			       S.id, gaps_seen, GAP_CAP);
			nfail++;
			continue;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 11 && S.cannot) {
			ncannot++;
			continue;
		}
		if (WIFSIGNALED(status))
			printf("FAIL %s: %s (signal %d)\n", S.id,
			       WTERMSIG(status) == SIGALRM ? "hang: no progress in 5 s" : "crash",
			       WTERMSIG(status));
		nfail++;
	}
	if (r < 0) {
		fprintf(stderr, "replay: bad schedule input near line %d\n", lineno);
		return 2;
	}
	printf("replayed %d: ok %d, gap %d, cannot %d, failed %d (v%d build, gap cap %d)\n", total, nok,
	       ngap, ncannot, nfail, variant, GAP_CAP);
	return nfail ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * replay_threaded.c - the conformance harness of the threaded protocol (REQ-IMPL-3,
 * REQ-THREAD-*, REQ-ONESHOT-*; tests/conformance/refinement.md, "Threaded schedules").
 *
 * Runs the REAL C core (src/core, built with -DIRQSYNC_STEP_HOOKS) under a deterministic
 * scheduler that follows a schedule of step names produced from a SPIN run of
 * promela/threaded.pml under SC (tests/conformance/threaded.py).  Three agents, as the
 * model's: 0 the driver (in the ONESHOT scenario a second interrupt CPU), 1 an interrupt
 * CPU, 2 the threaded action's handler thread.  Exactly one agent runs at a time; a step is
 * done when its agent reaches its next step mark, parks in the port, or ends.
 *
 * This file is also the port the core runs on here (src/port/port.h): a replay port, whose
 * handler thread, waiter sleep and line mask are the scheduler's objects, so that a sleep
 * is a state the scheduler sees, and every port call the core makes is recorded.  It keeps
 * port.h's contract: a channel's fn runs at least once after each kick (it runs whenever
 * the model's thread tests run_pending, as port.h allows: runs may be more than kicks),
 * never two runs at once, none after the stop returned; a wait returns only once ready();
 * a masked line delivers nothing.  What it adds for the check:
 *   - a thread that sleeps (T_SLEEP) runs again only if a kick or the stop came since its
 *     last test of run_pending (T_RUN), as the model's thread wakes only by T_WAKEUP or
 *     T_STOP: a missing kick is a failure ("asleep in the C"), not hidden by the extra runs;
 *   - a waiter that sleeps (S_THREADS_SLEEP) runs again only if a wake came since its last
 *     test (a lost wake-up, REQ-THREAD-8);
 *   - a T_WAKEUP, T_MASK, T_UNMASK step must make its port call (a kick, a mask, an unmask);
 *   - a LOCK_WAIT (the ticket lock contended) where the model's lock was free fails.
 * The in-flight state the port reports (S_CHIP) is the model's: from the arrival to the
 * instance's end (D_CLEAR_INPROGRESS) or its hand-over (D_SET_PENDING), as the model's EOI.
 *
 * Input (stdin), one or more schedules:
 *   schedule <id>
 *   config scen=<sync|hard|oneshot|free> oneshot=<0|1> sharers=<1|2> [mode=mapped]
 *   S <agent> <STEP> [w=<0|1>] [<word>=<value> ...]
 *        w: at D_HANDLER, whether the threaded primary returns IRQ_WAKE_THREAD;
 *        word: status (INPROGRESS 1 | PENDING 2), flag, work, tact (threads_active), act (the
 *        chain: 1 action 0, 2 action 1), runp (run_pending), mask (1: action 0's bit, 2: any
 *        other), checked when the step is done
 *   expect status= tact= runp= mask= masked= flag= work= act= returned= exited=
 *   end
 * The model's assertions (promela/threaded.pml: sync_end's, quiet()'s, the ONESHOT ones) are
 * checked on the C over ghosts kept from what it does (violation()): in a match replay of a
 * run where they hold, one failing fails the schedule.
 *
 * mode=mapped (a counterexample of a known-bad model variant): the C takes each of the
 * counterexample's steps its agent is at; an agent whose C is elsewhere has left it and its
 * later steps go.  After it, every agent goes on in turn (round robin, with the arrivals the
 * C has not taken) until none can.  The schedule passes when no assertion failed ("no race
 * outcome"): on the shipped C it must; on the C mutant with the same bug it must not.
 *
 * Output: one line per schedule (ok / mapped / FAIL <why>), then
 * "replayed N: ok A, mapped M, failed F".
 * Exit 1 if any failed.  Each schedule runs in a forked child (fresh library state; a hang
 * is killed by alarm()).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"		/* src/core: irq_desc, irqsync_threads (the observable state) */
#include "port.h"

#ifndef IRQSYNC_STEP_HOOKS
#error "build replay_threaded.c against core objects built with -DIRQSYNC_STEP_HOOKS"
#endif

#define NAG 3			/* agents: 0 driver / CPU, 1 CPU, 2 the handler thread */
#define TH 2
#define MAXSTEPS 4000
#define LINE 0U

enum scen { SC_SYNC, SC_HARD, SC_ONESHOT, SC_FREE };

/*
 * The model's steps that are not the core's: the port's thread loop (T_READY, T_SLEEP,
 * T_EXIT) and the driver's thread_fn (TH_READ_FLAG, TH_WORK).  The harness marks them where
 * the model takes them; numbered after the core's steps (src/core/steps.h).
 */
enum { XS_T_READY = IRQSYNC_NR_STEPS, XS_T_SLEEP, XS_T_EXIT, XS_TH_READ_FLAG, XS_TH_WORK, XS_NR };
static const char *const xs_name[] = { "T_READY", "T_SLEEP", "T_EXIT", "TH_READ_FLAG", "TH_WORK" };

static const char *step_name(int s)
{
	return s >= IRQSYNC_NR_STEPS && s < XS_NR ? xs_name[s - IRQSYNC_NR_STEPS] :
	       irqsync_step_name((enum irqsync_step)s);
}
enum word { W_STATUS, W_FLAG, W_WORK, W_TACT, W_ACT, W_RUNP, W_MASK, NW };
static const char *const word_name[NW] = { "status", "flag", "work", "tact", "act", "runp", "mask" };

struct entry {
	int agent;
	int step;
	int wake;		/* D_HANDLER: the primary returns IRQ_WAKE_THREAD (-1: not given) */
	int nchk, chk_w[4];
	unsigned int chk_v[4];
};

struct sched {
	char id[600];
	enum scen scen;
	int oneshot, sharers;
	int n;
	struct entry e[MAXSTEPS];
	unsigned int x[NW], x_masked, x_returned, x_exited;
};

static struct sched S;

/* ---- the scheduler ---- */
enum astate { A_RUN, A_HOOK, A_PARK_THREAD, A_PARK_WAIT, A_PARK_STOP, A_DONE };
static const char *const astate_name[] = { "running", "at a step", "asleep (thread)",
					   "asleep (waiter)", "stopping its thread", "ended" };
struct agent {
	enum astate st;
	int step;		/* A_HOOK: the step it waits at */
	int granted;
	unsigned int seen;	/* parks: the wake counter at its last test */
};
static struct agent ag[NAG];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int running = -1;	/* the agent that has the turn */
static int cur = -1;		/* the schedule entry being run */
static _Thread_local int me = -1;	/* the calling agent (-1: the harness, at set-up) */
static int irqs_off[NAG];	/* each agent's local interrupt state (the port's) */

/* the port's objects */
static unsigned int tseq;	/* the channel's kicks and stop (the thread's wake-ups) */
static unsigned int wseq;	/* the waiters' wake-ups */
static unsigned int kicks, masks, unmasks;
static int stop_req, th_stopped, exited, masked, inflight[NAG];
static void (*chan_fn)(unsigned int);
static unsigned int chan_id = ~0U;
static unsigned int waiter_chan = ~0U;

/* the driver's objects (the model's FLAG, WORK) and the outcome */
static unsigned int flag, work, returned, ran;
static int dev0, dev1;

/*
 * The model's ghosts (promela/threaded.pml), kept from what the C does: the instance under
 * way (inst, from D_SET_INPROGRESS to D_CLEAR_INPROGRESS), the episode (gpend: run_pending
 * raised 0 -> 1 at a T_WAKE, not yet taken; grun: taken at a T_RUN (1 -> 0), until the
 * thread's fn returns), what a synchronize call must wait for (ibefore, dbefore, covpend,
 * covrun: taken at its start, as sync_begin), and a run that read the old flag (stale).  The
 * model's assertions over them are checked on the C (violation()).
 */
static int inst = -1;
static unsigned int ibefore, dbefore, insync, gpend, grun, covpend, covrun, stale;

static int mapped;		/* mode=mapped: follow a counterexample, then go on (below) */
static int diverged[NAG];	/* mapped: the agent's C left the model's steps */
static int arrivals_left;	/* mapped: the counterexample's arrivals not yet taken */
static int followed;		/* mapped: model steps the C took */
static char outcome[300];	/* mapped: the first violation */

static _Noreturn void fail(const char *fmt, ...)
{
	va_list ap;
	char buf[600];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("FAIL %s: %s (at entry %d of %d)\n", S.id, buf, cur, S.n);
	fflush(stdout);
	_exit(1);
}

/* One of the model's assertions fails on the C: in a match replay the schedule is of a run
 * where it holds (fail); in a mapped one it is the race outcome, noted. */
static void violation(const char *fmt, ...)
{
	va_list ap;
	char buf[300];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!mapped)
		fail("the C breaks what the model's run holds: %s", buf);
	if (!outcome[0])
		snprintf(outcome, sizeof(outcome), "%s", buf);
}

/* Give up the turn in state @st and wait until the scheduler grants it again.  mu held. */
static void yield_as(enum astate st)
{
	ag[me].st = st;
	running = -1;
	pthread_cond_broadcast(&cv);
	while (!ag[me].granted)
		pthread_cond_wait(&cv, &mu);
	ag[me].granted = 0;
	ag[me].st = A_RUN;
}

static void mark(int step, unsigned int irq)
{
	if (irq == IRQSYNC_NO_IRQ) {
		/* the lock's and the interrupt state's inner steps: part of the enclosing step; a
		 * contended ticket lock means the model's lock was free and the C's is not */
		static _Thread_local int lock_reads;

		if (step == IRQSYNC_STEP_LOCK_TICKET)
			lock_reads = 0;
		/* LOCK_WAIT marks each read of the owner: a second one is a wait */
		if (step == IRQSYNC_STEP_LOCK_WAIT && ++lock_reads > 1) {
			if (!mapped || me < 0)
				fail("agent %d waits for the descriptor lock, which the model's took free", me);
			pthread_mutex_lock(&mu);	/* mapped: a wait the scheduler sees */
			ag[me].step = IRQSYNC_STEP_LOCK_WAIT;
			yield_as(A_HOOK);
			pthread_mutex_unlock(&mu);
		}
		return;
	}
	if (me < 0)
		return;		/* set-up (request_threaded_irq): before the schedule */
	pthread_mutex_lock(&mu);
	ag[me].step = step;
	yield_as(A_HOOK);
	pthread_mutex_unlock(&mu);
}

/* the core's step marks */
static void hook(enum irqsync_step step, unsigned int irq)
{
	mark((int)step, irq);
}

static void agent_end(void)
{
	pthread_mutex_lock(&mu);
	ag[me].st = A_DONE;
	running = -1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

/* Wait until no agent has the turn.  mu held. */
static void quiesce(void)
{
	while (running != -1)
		pthread_cond_wait(&cv, &mu);
}

static void grant(int a)
{
	running = a;
	ag[a].granted = 1;
	pthread_cond_broadcast(&cv);
	quiesce();
}

/* ---- the replay port (src/port/port.h) ---- */
unsigned int irqsync_port_cpu_id(void)
{
	return me < 0 ? 0U : (unsigned int)me;
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t f = { .arch = 0UL };

	if (me >= 0) {
		f.arch = (unsigned long)irqs_off[me];
		irqs_off[me] = 1;
	}
	return f;
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	if (me >= 0)
		irqs_off[me] = (int)flags.arch;
}

void irqsync_port_irq_disable(void)
{
	if (me >= 0)
		irqs_off[me] = 1;
}

void irqsync_port_irq_enable(void)
{
	if (me >= 0)
		irqs_off[me] = 0;
}

int irqsync_port_irqs_disabled(void)
{
	return me >= 0 && irqs_off[me];
}

void irqsync_port_cpu_relax(void)
{
}

int irqsync_port_thread_start(unsigned int chan, void (*fn)(unsigned int chan))
{
	if (chan >= IRQSYNC_PORT_CHANNELS || !fn)
		return -IRQSYNC_EINVAL;
	if (chan_fn)
		return -IRQSYNC_EBUSY;	/* one threaded action per schedule */
	chan_fn = fn;
	chan_id = chan;
	return 0;			/* the harness starts the agent after the set-up */
}

void irqsync_port_thread_kick(unsigned int chan)
{
	if (chan != chan_id)
		fail("kick of channel %u, not the action's %u", chan, chan_id);
	kicks++;
	tseq++;
}

void irqsync_port_thread_stop(unsigned int chan)
{
	if (chan != chan_id)
		fail("stop of channel %u, not the action's %u", chan, chan_id);
	if (me == TH)
		fail("the thread stops itself (port.h: never from the channel's fn)");
	pthread_mutex_lock(&mu);
	stop_req = 1;
	tseq++;
	yield_as(A_PARK_STOP);	/* until the thread has exited */
	pthread_mutex_unlock(&mu);
	chan_fn = NULL;
}

unsigned int irqsync_port_thread_current(void)
{
	return me == TH ? chan_id + 1U : 0U;
}

void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan))
{
	waiter_chan = chan;
	for (;;) {
		/* the model's waiter: the acquire read of threads_active, then the sleep */
		hook(IRQSYNC_STEP_S_THREADS, LINE);
		pthread_mutex_lock(&mu);
		ag[me].seen = wseq;
		pthread_mutex_unlock(&mu);
		if (ready(chan))
			return;
		hook(IRQSYNC_STEP_S_THREADS_SLEEP, LINE);
		pthread_mutex_lock(&mu);
		yield_as(A_PARK_WAIT);
		pthread_mutex_unlock(&mu);
	}
}

void irqsync_port_wake(unsigned int chan)
{
	if (chan != waiter_chan && waiter_chan != ~0U)
		fail("wake of channel %u, the waiters wait on %u", chan, waiter_chan);
	wseq++;
}

void irqsync_port_line_mask(unsigned int irq)
{
	if (irq != LINE)
		fail("mask of line %u", irq);
	masks++;
	masked = 1;
}

void irqsync_port_line_unmask(unsigned int irq)
{
	if (irq != LINE)
		fail("unmask of line %u", irq);
	unmasks++;
	/* REQ-ONESHOT-3 (the model's port_unmask and CHECK_OS_BIT) */
	if (!masked)
		violation("REQ-ONESHOT-3: agent %d unmasks a line that is not masked", me);
	if (irq_desc[LINE].oneshot_mask != 0U)
		violation("REQ-ONESHOT-3: agent %d unmasks the line while a thread's bit is set", me);
	masked = 0;
}

int irqsync_port_line_inflight(unsigned int irq)
{
	int a, r = 0;

	for (a = 0; a < NAG && irq == LINE; a++)
		r |= inflight[a];
	return r;
}

/* ---- the driver's code: the action's primary and thread_fn, the agents ---- */
static irqreturn_t primary(void *dev_id)
{
	(void)dev_id;
	if (S.oneshot && !masked)
		violation("REQ-ONESHOT-1: the primary runs on an unmasked line");
	if (S.scen == SC_FREE && returned)
		violation("REQ-THREAD-6: the freed action's primary runs after free_irq returned");
	if (cur >= 0 && cur < S.n && S.e[cur].step == IRQSYNC_STEP_D_HANDLER && S.e[cur].wake >= 0)
		return S.e[cur].wake ? IRQ_WAKE_THREAD : IRQ_HANDLED;
	if (!mapped)
		fail("the primary runs outside a D_HANDLER step that says what it returns");
	return IRQ_WAKE_THREAD;		/* mapped, after the counterexample: as the model's */
}

static irqreturn_t plain(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;	/* action 1: no shared access, as the model's */
}

static irqreturn_t thread_fn(void *dev_id)
{
	(void)dev_id;
	ran = 1;
	mark(XS_TH_READ_FLAG, LINE);
	/* the model's read (its value is checked when the step is done) and its assertions */
	if (S.oneshot && !masked)
		violation("REQ-ONESHOT-3: the thread_fn runs on an unmasked line");
	if (S.scen == SC_FREE && returned)
		violation("REQ-THREAD-6: the freed action's thread_fn runs after free_irq returned");
	if (flag == 0U) {
		if (S.scen == SC_SYNC && returned)
			violation("REQ-THREAD-1: a run that begins after synchronize_irq returned reads the old flag");
		stale = 1;
	}
	mark(XS_TH_WORK, LINE);
	work++;
	return IRQ_HANDLED;
}

static void *thread_agent(void *arg)
{
	(void)arg;
	me = TH;
	mark(XS_T_READY, LINE);
	for (;;) {
		/* the model's T_RUN tests the stop request and run_pending together: the grant of
		 * the core's T_RUN mark records both (run_entry) */
		ran = 0;
		chan_fn(chan_id);
		if (ran) {		/* the episode ends with the run (the model's episode_end) */
			grun = covrun = stale = 0U;
			continue;	/* test again at once */
		}
		if (th_stopped)
			break;
		mark(XS_T_SLEEP, LINE);
		pthread_mutex_lock(&mu);
		yield_as(A_PARK_THREAD);
		pthread_mutex_unlock(&mu);
	}
	mark(XS_T_EXIT, LINE);
	exited = 1;
	agent_end();
	return NULL;
}

static void *cpu_agent(void *arg)
{
	irq_flags_t f;

	me = (int)(long)arg;
	for (;;) {
		hook(IRQSYNC_STEP_IRQ_ARRIVE, LINE);
		if (masked)
			fail("an interrupt arrives on a line the C masked (the model's is not)");
		inflight[me] = 1;
		f = irqsync_port_irq_save();	/* what a CPU does: interrupts off, dispatch */
		(void)handle_irq(LINE);
		irqsync_port_irq_restore(f);
		inflight[me] = 0;
	}
	return NULL;
}

/* The model's sync_begin: what the call must wait for. */
static void sync_begin(void)
{
	int a;

	insync = 1U;
	ibefore = inst >= 0 ? 1U << inst : 0U;
	dbefore = 0U;
	for (a = 0; a < NAG; a++)
		dbefore |= inflight[a] ? 1U << a : 0U;
	covpend = gpend;
	covrun = grun;
}

/* The model's sync_end (CHECK_HARD, CHECK_T9, CHECK_T1, CHECK_FLAG), @r what the call returned. */
static void sync_end(int r)
{
	int hard = S.scen == SC_HARD;

	if (ibefore)
		violation("REQ-SYNC-1: the call returns while an instance begun before it runs");
	if (!hard && dbefore)
		violation("REQ-THREAD-10: synchronize_irq returns while an interrupt in flight at "
			  "the call is not done");
	if (hard && r == 1 && (covpend || covrun))
		violation("REQ-THREAD-9: synchronize_hardirq returns 1 while a covered episode is active");
	if (!hard && (covpend || covrun))
		violation("REQ-THREAD-1: the call returns before a covered episode ended");
	if (S.scen == SC_SYNC && stale)
		violation("REQ-THREAD-1: the call returns while a run that read the old flag is under way");
	insync = 0U;
	covpend = covrun = ibefore = dbefore = 0U;
}

static void *driver_agent(void *arg)
{
	int r;

	(void)arg;
	me = 0;
	switch (S.scen) {
	case SC_SYNC:
	case SC_HARD:
		hook(IRQSYNC_STEP_DRV_STORE_FLAG, LINE);
		flag = 1U;
		sync_begin();
		r = S.scen == SC_SYNC ? synchronize_irq(LINE) : synchronize_hardirq(LINE);
		if (r < 0)
			fail("synchronize returned %d", r);
		sync_end(r);
		returned = 1;
		hook(IRQSYNC_STEP_DRV_READ_DONE, LINE);
		(void)work;	/* the model's read: checked when the step is done */
		break;
	case SC_FREE:
		r = free_irq(LINE, &dev0);	/* its sync_begin: at its FREE_UNLOCK (step_done) */
		if (r != 0)
			fail("free_irq returned %d", r);
		if (!exited || gpend || grun)	/* the model's CHECK_T6 */
			violation("REQ-THREAD-6: free_irq returned before its thread ran every counted "
				  "episode and exited");
		returned = 1;
		break;
	case SC_ONESHOT:	/* agent 0 is a CPU then (cpu_agent) */
		break;
	}
	agent_end();
	return NULL;
}

/* ---- the observable words (the model's encoding) ---- */
static unsigned int thread_slot(void)
{
	return chan_id;		/* irqsync_threads index = channel */
}

static unsigned int word_value(int w)
{
	struct irq_desc *d = &irq_desc[LINE];
	unsigned int s, i, v = 0U, bit;

	switch (w) {
	case W_STATUS:
		s = irqsync_atomic_read_relaxed(&d->status);
		return ((s & IRQS_INPROGRESS) ? 1U : 0U) | ((s & IRQS_PENDING) ? 2U : 0U);
	case W_FLAG:
		return flag;
	case W_WORK:
		return work;
	case W_TACT:
		return irqsync_atomic_read_relaxed(&d->threads_active);
	case W_ACT:
		for (i = 0; i < d->nr_actions; i++)
			v |= d->action[i].dev_id == &dev0 ? 1U : d->action[i].dev_id == &dev1 ? 2U : 4U;
		return v;
	case W_RUNP:
		return irqsync_atomic_read_relaxed(&irqsync_threads[thread_slot()].run_pending);
	case W_MASK:
		bit = irqsync_threads[thread_slot()].thread_bit;
		return ((d->oneshot_mask & bit) && bit ? 1U : 0U) | ((d->oneshot_mask & ~bit) ? 2U : 0U);
	}
	return ~0U;
}

/* ---- one schedule ---- */
struct before {
	unsigned int runp, kicks, masks, unmasks;
};
static int free_synced;

/* Before agent @a takes @step: what the model does with the same step's guard. */
static void step_begin(int a, int step)
{
	if (a == TH && step == IRQSYNC_STEP_T_RUN) {
		ag[a].seen = tseq;	/* the model's th_armed = 1, with its test ... */
		th_stopped = stop_req;	/* ... and its look at the stop request */
	}
	if (a == 0 && step == IRQSYNC_STEP_T_STOP && S.scen == SC_FREE)
		sync_end(0);		/* free_irq's wait has returned (the model's S_RETURN) */
	if (step == IRQSYNC_STEP_IRQ_ARRIVE)
		arrivals_left--;
}

/* After agent @a took @step (@b: the state before): the model's ghost updates of that step;
 * for a step of the schedule (@e) in a match replay, its port calls and its values. */
static void step_done(int a, int step, const struct before *b, const struct entry *e)
{
	unsigned int runp = word_value(W_RUNP);
	int i;

	switch (step) {
	case IRQSYNC_STEP_T_WAKE:
		if (b->runp == 0U && runp == 1U) {	/* a new episode (the model's gpend) */
			gpend = 1U;
			if (insync && (ibefore >> a & 1U))
				covpend = 1U;
		}
		break;
	case IRQSYNC_STEP_T_RUN:
		if (b->runp == 1U && runp == 0U) {	/* the run is taken */
			gpend = 0U;
			grun = 1U;
			covrun = covpend;
			covpend = 0U;
		}
		break;
	case IRQSYNC_STEP_D_SET_INPROGRESS:
		inst = a;
		break;
	case IRQSYNC_STEP_D_CLEAR_INPROGRESS:
		inst = -1;
		ibefore &= ~(1U << a);
		inflight[a] = 0;	/* the model's EOI */
		dbefore &= ~(1U << a);
		break;
	case IRQSYNC_STEP_D_SET_PENDING:
		inflight[a] = 0;	/* the model's EOI */
		dbefore &= ~(1U << a);
		break;
	case IRQSYNC_STEP_FREE_UNLOCK:
		if (a == 0 && S.scen == SC_FREE && !free_synced) {
			free_synced = 1;	/* free_irq's wait begins (the model's sync_begin) */
			sync_begin();
		}
		break;
	default:
		break;
	}
	if (!e || mapped)
		return;
	if (step == IRQSYNC_STEP_T_WAKEUP && kicks == b->kicks)
		fail("T_WAKEUP by agent %d kicks no thread", a);
	if (step == IRQSYNC_STEP_T_MASK && masks == b->masks)
		fail("T_MASK by agent %d masks nothing", a);
	if (step == IRQSYNC_STEP_T_UNMASK && unmasks == b->unmasks)
		fail("T_UNMASK by agent %d unmasks nothing", a);
	for (i = 0; i < e->nchk; i++)
		if (word_value(e->chk_w[i]) != e->chk_v[i])
			fail("after %s by agent %d: %s is %u in the C, %u in the model",
			     step_name(step), a, word_name[e->chk_w[i]],
			     word_value(e->chk_w[i]), e->chk_v[i]);
}

/* Let a parked agent @a go on if its wake-up came (it runs to its next mark, or ends).
 * Return 0 when it is still asleep.  mu held. */
static int unpark(int a)
{
	switch (ag[a].st) {
	case A_PARK_THREAD:
		if (tseq == ag[a].seen)
			return 0;
		break;
	case A_PARK_WAIT:
		if (wseq == ag[a].seen)
			return 0;
		break;
	case A_PARK_STOP:
		if (!exited)
			return 0;
		break;
	case A_RUN:
	case A_HOOK:
	case A_DONE:
		return 1;
	}
	grant(a);
	return 1;
}

/* Agent @a, at a mark, takes its step.  mu held. */
static void take(int a, const struct entry *e)
{
	struct before b = { word_value(W_RUNP), kicks, masks, unmasks };
	int step = ag[a].step;

	step_begin(a, step);
	grant(a);
	step_done(a, step, &b, e);
}

/* match: the C must take the schedule's step i. */
static void run_entry(int i)
{
	const struct entry *e = &S.e[i];
	struct agent *a = &ag[e->agent];

	cur = i;
	pthread_mutex_lock(&mu);
	quiesce();
	if (!unpark(e->agent)) {
		if (a->st == A_PARK_THREAD)
			fail("the model's thread is woken (it takes %s), the C's is asleep: no kick or "
			     "stop since its last test", step_name(e->step));
		if (a->st == A_PARK_WAIT)
			fail("the model's waiter is woken (it takes %s), the C's is asleep: a lost "
			     "wake-up", step_name(e->step));
		fail("the model's free_irq goes on (%s), the C's waits for its thread to exit",
		     step_name(e->step));
	}
	if (a->st != A_HOOK)
		fail("the model's agent %d takes %s, the C's is %s", e->agent,
		     step_name(e->step), astate_name[a->st]);
	if (a->step != e->step)
		fail("the model's agent %d takes %s, the C's is at %s", e->agent,
		     step_name(e->step), step_name(a->step));
	take(e->agent, e);
	pthread_mutex_unlock(&mu);
}

/* mapped: the C takes the schedule's step i if its agent is there; an agent whose C is
 * elsewhere (another step, asleep, ended) has left the counterexample: its later steps go. */
static void mapped_entry(int i)
{
	const struct entry *e = &S.e[i];
	int a = e->agent;

	cur = i;
	pthread_mutex_lock(&mu);
	quiesce();
	if (!diverged[a] && (!unpark(a) || ag[a].st != A_HOOK || ag[a].step != e->step ||
			     (e->step == IRQSYNC_STEP_IRQ_ARRIVE && masked)))
		diverged[a] = 1;
	if (!diverged[a]) {
		take(a, e);
		followed++;
	}
	pthread_mutex_unlock(&mu);
}

/* mapped, after the counterexample: every agent that can go on does, in turn (round robin),
 * with the counterexample's arrivals the C has not taken yet, until none can. */
static int go_on(void)
{
	int n = 0, k, a = NAG - 1, last = NAG - 1, moved = 1;

	cur = S.n;
	pthread_mutex_lock(&mu);
	while (moved) {
		quiesce();
		moved = 0;
		for (k = 1; k <= NAG && !moved; k++) {
			a = (last + k) % NAG;
			if (ag[a].st == A_HOOK) {
				if (ag[a].step == IRQSYNC_STEP_IRQ_ARRIVE && (arrivals_left <= 0 || masked))
					continue;
				take(a, NULL);
				moved = 1;
			} else if (ag[a].st != A_DONE && ag[a].st != A_RUN && unpark(a)) {
				moved = 1;
			}
		}
		last = a;
		if (moved && ++n > 100000) {
			violation("the C does not come to rest (100000 steps after the counterexample)");
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	return n;
}

/* At rest (the model's quiet(): REQ-THREAD-5, -7, -8, REQ-ONESHOT-3, -4). */
static void quiet_checks(void)
{
	int a;

	if (word_value(W_TACT) != 0U)
		violation("REQ-THREAD-8: threads_active is %u at rest", word_value(W_TACT));
	if (word_value(W_RUNP) != 0U || gpend || grun)
		violation("REQ-THREAD-8: a counted episode never ran to its end");
	if (masked)
		violation("REQ-ONESHOT-3, -4: the line is left masked");
	if (irq_desc[LINE].oneshot_mask != 0U)
		violation("REQ-ONESHOT-3: a mask bit is left set");
	for (a = 0; a < NAG; a++)
		if (ag[a].st == A_PARK_WAIT)
			violation("REQ-THREAD-8: agent %d sleeps for ever in synchronize_irq (a lost "
				  "wake-up)", a);
	if (S.scen != SC_ONESHOT && ag[0].st != A_DONE)
		violation("the driver's call never returns (agent 0 is %s)", astate_name[ag[0].st]);
}

static void setup(void)
{
	unsigned long f = S.oneshot ? IRQF_ONESHOT : 0UL;
	int r;

	if (S.sharers > 1)
		f |= IRQF_SHARED;
	r = request_threaded_irq(LINE, primary, thread_fn, f, "threaded", &dev0);
	if (r == 0 && S.sharers > 1)
		r = request_irq(LINE, plain, IRQF_SHARED, "plain", &dev1);
	if (r != 0 || !chan_fn)
		fail("set-up: request returned %d", r);
}

static void run_schedule(void)
{
	pthread_t t[NAG];
	int i;

	irqsync_init();
	(void)irqsync_set_step_hook(hook);
	setup();
	if (S.scen == SC_ONESHOT)
		pthread_create(&t[0], NULL, cpu_agent, (void *)0L);
	else
		pthread_create(&t[0], NULL, driver_agent, NULL);
	pthread_create(&t[1], NULL, cpu_agent, (void *)1L);
	pthread_create(&t[2], NULL, thread_agent, NULL);
	/* every agent at its first step */
	pthread_mutex_lock(&mu);
	for (i = 0; i < NAG; i++)
		while (ag[i].st == A_RUN)
			pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	if (mapped) {
		for (i = 0; i < S.n; i++)
			arrivals_left += S.e[i].step == IRQSYNC_STEP_IRQ_ARRIVE;
		for (i = 0; i < S.n; i++)
			mapped_entry(i);
		i = go_on();
		quiet_checks();
		if (outcome[0]) {
			printf("FAIL %s: the race outcome occurs: %s (followed %d of %d model steps, "
			       "then %d)\n", S.id, outcome, followed, S.n, i);
			fflush(stdout);
			_exit(1);
		}
		printf("mapped %s: no race outcome (followed %d of %d model steps, then %d; left the "
		       "counterexample: agents%s%s%s)\n", S.id, followed, S.n, i,
		       diverged[0] ? " 0" : "", diverged[1] ? " 1" : "", diverged[2] ? " 2" : "");
		fflush(stdout);
		_exit(0);
	}
	for (i = 0; i < S.n; i++)
		run_entry(i);
	cur = S.n;
	/* the end: free_irq, whose thread has exited, finishes; an agent left at a step other
	 * than waiting for an arrival (or the thread asleep) took fewer steps than the model */
	pthread_mutex_lock(&mu);
	quiesce();
	if (ag[0].st == A_PARK_STOP && exited) {
		grant(0);
		/* free_irq gives the stopped thread's channel back in a hold of its own
		 * (irqsync_release_thread): bookkeeping the model leaves out, after its T_STOP */
		while (ag[0].st == A_HOOK && (ag[0].step == IRQSYNC_STEP_FREE_LOCK ||
					      ag[0].step == IRQSYNC_STEP_FREE_UNLOCK))
			grant(0);
	}
	for (i = 0; i < NAG; i++) {
		if (ag[i].st == A_DONE || (i == TH && ag[i].st == A_PARK_THREAD))
			continue;
		if (ag[i].st == A_HOOK && ag[i].step == IRQSYNC_STEP_IRQ_ARRIVE)
			continue;
		fail("at the end the C's agent %d is %s%s%s", i, astate_name[ag[i].st],
		     ag[i].st == A_HOOK ? " " : "", ag[i].st == A_HOOK ? step_name(ag[i].step) : "");
	}
	quiet_checks();
	pthread_mutex_unlock(&mu);
	{
		char mm[400] = "";
		size_t l;
		unsigned int got[NW];

		for (i = 0; i < NW; i++) {
			got[i] = word_value(i);
			if (S.x[i] != ~0U && got[i] != S.x[i]) {
				l = strlen(mm);
				snprintf(mm + l, sizeof(mm) - l, " %s: model %u, C %u;", word_name[i],
					 S.x[i], got[i]);
			}
		}
		if (S.x_masked != (unsigned int)masked)
			strncat(mm, " the line's mask differs;", sizeof(mm) - strlen(mm) - 1);
		if (S.x_returned != returned)
			strncat(mm, " the driver's return differs;", sizeof(mm) - strlen(mm) - 1);
		if (S.x_exited != (unsigned int)exited)
			strncat(mm, " the thread's exit differs;", sizeof(mm) - strlen(mm) - 1);
		if (mm[0])
			fail("end state:%s", mm);
	}
	printf("ok %s (%d steps)\n", S.id, S.n);
	fflush(stdout);
	_exit(0);
}

/* ---- input ---- */
static int step_by_name(const char *n)
{
	int s;

	for (s = 0; s < XS_NR; s++)
		if (strcmp(step_name(s), n) == 0)
			return s;
	fprintf(stderr, "replay_threaded: unknown step %s\n", n);
	exit(2);
}

static int word_by_name(const char *n, size_t len)
{
	int w;

	for (w = 0; w < NW; w++)
		if (strlen(word_name[w]) == len && strncmp(word_name[w], n, len) == 0)
			return w;
	return -1;
}

static int read_schedule(FILE *in)
{
	char line[600], name[64], *p, *tok;
	struct entry *e;
	int w;

	memset(&S, 0, sizeof(S));
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		if (strncmp(line, "schedule ", 9) == 0) {
			snprintf(S.id, sizeof(S.id), "%s", line + 9);
		} else if (strncmp(line, "config ", 7) == 0) {
			S.scen = strstr(line, "scen=hard") ? SC_HARD : strstr(line, "scen=oneshot") ?
				 SC_ONESHOT : strstr(line, "scen=free") ? SC_FREE : SC_SYNC;
			S.oneshot = strstr(line, "oneshot=1") != NULL;
			S.sharers = strstr(line, "sharers=2") ? 2 : 1;
			mapped = strstr(line, "mode=mapped") != NULL;
		} else if (line[0] == 'S' && line[1] == ' ') {
			if (S.n >= MAXSTEPS) {
				fprintf(stderr, "replay_threaded: %s: too many steps\n", S.id);
				exit(2);
			}
			e = &S.e[S.n++];
			if (sscanf(line + 2, "%d %63s", &e->agent, name) != 2 || e->agent < 0 ||
			    e->agent >= NAG) {
				fprintf(stderr, "replay_threaded: bad line: %s\n", line);
				exit(2);
			}
			e->step = step_by_name(name);
			e->wake = -1;
			p = strchr(line + 2, ' ');
			p = p ? strchr(p + 1, ' ') : NULL;
			for (tok = p ? strtok(p, " ") : NULL; tok; tok = strtok(NULL, " ")) {
				char *eq = strchr(tok, '=');

				if (!eq)
					continue;
				if (strncmp(tok, "w=", 2) == 0) {
					e->wake = atoi(eq + 1);
				} else if ((w = word_by_name(tok, (size_t)(eq - tok))) >= 0 && e->nchk < 4) {
					e->chk_w[e->nchk] = w;
					e->chk_v[e->nchk++] = (unsigned int)strtoul(eq + 1, NULL, 10);
				} else {
					fprintf(stderr, "replay_threaded: bad check %s\n", tok);
					exit(2);
				}
			}
		} else if (strncmp(line, "expect ", 7) == 0) {
			for (w = 0; w < NW; w++)
				S.x[w] = ~0U;
			for (tok = strtok(line + 7, " "); tok; tok = strtok(NULL, " ")) {
				char *eq = strchr(tok, '=');
				unsigned int v;

				if (!eq)
					continue;
				v = (unsigned int)strtoul(eq + 1, NULL, 10);
				if ((w = word_by_name(tok, (size_t)(eq - tok))) >= 0)
					S.x[w] = v;
				else if (strncmp(tok, "masked=", 7) == 0)
					S.x_masked = v;
				else if (strncmp(tok, "returned=", 9) == 0)
					S.x_returned = v;
				else if (strncmp(tok, "exited=", 7) == 0)
					S.x_exited = v;
			}
		} else if (strcmp(line, "end") == 0) {
			return 1;
		}
	}
	return 0;
}

int main(void)
{
	int n = 0, ok = 0, failed = 0, status, nmapped = 0;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (read_schedule(stdin)) {
		n++;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			alarm(20);
			run_schedule();
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0) {
			perror("replay_threaded");
			return 2;
		}
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			ok += !mapped;
			nmapped += mapped;
		} else {
			failed++;
			if (WIFSIGNALED(status))
				printf("FAIL %s: killed by signal %d (a hang: alarm)\n", S.id, WTERMSIG(status));
		}
	}
	printf("replayed %d: ok %d, mapped %d, failed %d\n", n, ok, nmapped, failed);
	return failed ? 1 : 0;
}

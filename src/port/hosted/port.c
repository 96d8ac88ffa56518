/* SPDX-License-Identifier: MIT */
/*
 * port.c - the hosted port: CPUs are POSIX threads (see irqsync_hosted.h).
 *
 * The soft mask.  Each thread has `masked` (volatile sig_atomic_t, the only
 * object type C lets a signal handler share with the code it interrupts,
 * besides lock-free atomics) and its CPU's `pending` word (a lock-free
 * atomic, also written by raising threads).  The handler delivers only
 * when `masked` is 0, and sets it while delivering, so the core never runs
 * nested on one thread.  The unmask clears `masked` first and then looks
 * at `pending`: an interrupt raised before the look is delivered by the
 * unmask, one raised after it by its own signal.  atomic_signal_fence
 * keeps the compiler from moving the core's accesses across the mask.
 *
 * Threaded handlers (port.h, "Threaded handlers"; docs/porting.md, "Threads") are at the end:
 * a POSIX thread per started channel, and a futex per channel for the waits.  kick and wake
 * may be called from handle_irq(), which here runs in a signal handler: they use only atomics
 * and the futex system call (async-signal-safe), never a mutex.  Line masks are checked where
 * the port takes an interrupt for delivery (hosted_take).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE		/* syscall(2), for the futex */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

#include <irqsync/irqsync.h>
#include "../port.h"
#include "../../core/steps.h"	/* IRQSYNC_STEP(IRQ_ARRIVE): the core's step marks */
#include "irqsync_hosted.h"

#if NR_IRQS > 64
#error "the hosted port keeps pending lines in a 64-bit word: NR_IRQS <= 64"
#endif

struct hosted_cpu {
	_Atomic unsigned long long pending;	/* lines raised, not yet delivered */
	_Atomic int attached;
	pthread_t thread;			/* valid while attached */
	_Atomic unsigned int inflight;		/* irq + 1 while its handle_irq() runs here, else 0 */
	_Atomic unsigned long raised, coalesced, signals, deferred, delivered, held;
	unsigned int id;			/* its index in hosted_cpus (set at attach) */
};

static struct hosted_cpu hosted_cpus[IRQSYNC_NR_CPUS];
static _Atomic unsigned int hosted_route[NR_IRQS];

static _Thread_local volatile sig_atomic_t hosted_masked;
static _Thread_local volatile sig_atomic_t hosted_cpu = -1;

/*
 * The unmask's fast path looks at one word: this thread's CPU's pending
 * lines, or an always-empty word while the thread is not attached.
 */
static _Atomic unsigned long long hosted_no_pending;
static _Thread_local _Atomic unsigned long long *hosted_pending_word = &hosted_no_pending;

static pthread_once_t hosted_once = PTHREAD_ONCE_INIT;

#define STAT_INC(c, field) atomic_fetch_add_explicit(&(c)->field, 1UL, memory_order_relaxed)

/* Line masks (irqsync_port_line_mask): a bit per masked line, and per line the CPU (+ 1) of an
 * interrupt the mask holds, 0 when none.  One held interrupt per line, as a controller's
 * pending latch: a second raise while one is held merges with it. */
static _Atomic unsigned long long hosted_line_masked;
static _Atomic unsigned int hosted_line_held[NR_IRQS];

static int hosted_take(struct hosted_cpu *c, unsigned int irq);

unsigned int irqsync_port_cpu_id(void)
{
	int cpu = hosted_cpu;

	atomic_signal_fence(memory_order_seq_cst);	/* a compiler barrier, as port.h asks */
	return cpu < 0 ? 0U : (unsigned int)cpu;
}

/*
 * Deliver everything pending on this thread's CPU.  Entered with the mask
 * clear; re-checks after clearing it again, because a signal that came
 * while we delivered found the mask set and left its bit to us.
 */
static void hosted_deliver(struct hosted_cpu *c)
{
	unsigned long long bits;
	unsigned int irq;

	do {
		hosted_masked = 1;
		atomic_signal_fence(memory_order_seq_cst);
		while ((bits = atomic_exchange_explicit(&c->pending, 0ULL,
							memory_order_acquire)) != 0ULL) {
			while (bits) {
				irq = (unsigned int)__builtin_ctzll(bits);
				bits &= bits - 1ULL;
				if (!hosted_take(c, irq))
					continue;		/* its line is masked: held */
				STAT_INC(c, delivered);
				(void)handle_irq(irq);
				atomic_store_explicit(&c->inflight, 0U, memory_order_release);
			}
		}
		atomic_signal_fence(memory_order_seq_cst);
		hosted_masked = 0;
		atomic_signal_fence(memory_order_seq_cst);
	} while (atomic_load_explicit(&c->pending, memory_order_relaxed) != 0ULL);
}

/* Out of line: the unmask's fast path stays a few instructions. */
static __attribute__((noinline)) void hosted_unmask_deliver(void)
{
	int cpu = hosted_cpu;

	if (cpu >= 0)
		hosted_deliver(&hosted_cpus[cpu]);
}

static inline void hosted_unmask(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	hosted_masked = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (atomic_load_explicit(hosted_pending_word, memory_order_relaxed) != 0ULL)
		hosted_unmask_deliver();
}

static void hosted_signal(int sig)
{
	int saved_errno = errno;
	int cpu = hosted_cpu;

	(void)sig;
	if (cpu >= 0) {
		if (hosted_masked)
			STAT_INC(&hosted_cpus[cpu], deferred);	/* the unmask delivers it */
		else
			hosted_deliver(&hosted_cpus[cpu]);
	}
	errno = saved_errno;
}

irq_flags_t irqsync_port_irq_save(void)
{
	irq_flags_t old = { .arch = (unsigned long)hosted_masked };	/* 0 or 1 */

	hosted_masked = 1;
	atomic_signal_fence(memory_order_seq_cst);
	return old;
}

void irqsync_port_irq_restore(irq_flags_t flags)
{
	if (flags.arch) {
		hosted_masked = 1;
		atomic_signal_fence(memory_order_seq_cst);
	} else {
		hosted_unmask();
	}
}

void irqsync_port_irq_disable(void)
{
	hosted_masked = 1;
	atomic_signal_fence(memory_order_seq_cst);
}

void irqsync_port_irq_enable(void)
{
	hosted_unmask();
}

int irqsync_port_irqs_disabled(void)
{
	int masked = hosted_masked;

	atomic_signal_fence(memory_order_seq_cst);	/* a compiler barrier, as port.h asks */
	return masked ? 1 : 0;
}

/*
 * Hosted CPUs are threads the OS may preempt, unlike hardware CPUs: a ticket
 * lock whose next owner is descheduled stalls every waiter (more CPU threads
 * than cores makes that the rule).  So every 64th relax yields the core.
 */
static _Thread_local unsigned int hosted_relax_count;

void irqsync_port_cpu_relax(void)
{
	if ((++hosted_relax_count & 63U) == 0U) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || (defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* ---- the interrupt controller and CPU registry ---- */

static void hosted_install_handler(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = hosted_signal;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);	/* one signal handler at a time per thread */
	(void)sigaction(IRQSYNC_HOSTED_SIGNO, &sa, NULL);
}

int irqsync_hosted_cpu_attach(unsigned int cpu)
{
	struct hosted_cpu *c;
	sigset_t set;
	int expected = 0;

	if (cpu >= IRQSYNC_NR_CPUS)
		return -IRQSYNC_EINVAL;
	c = &hosted_cpus[cpu];
	(void)pthread_once(&hosted_once, hosted_install_handler);
	if (!atomic_compare_exchange_strong(&c->attached, &expected, -1))
		return -IRQSYNC_EBUSY;
	c->thread = pthread_self();
	c->id = cpu;
	hosted_masked = 0;
	hosted_cpu = (sig_atomic_t)cpu;
	hosted_pending_word = &c->pending;
	sigemptyset(&set);
	sigaddset(&set, IRQSYNC_HOSTED_SIGNO);
	(void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	atomic_store_explicit(&c->attached, 1, memory_order_release);
	return 0;
}

void irqsync_hosted_cpu_detach(void)
{
	int cpu = hosted_cpu;

	if (cpu < 0)
		return;
	hosted_masked = 1;
	atomic_signal_fence(memory_order_seq_cst);
	atomic_store_explicit(&hosted_cpus[cpu].attached, 0, memory_order_release);
	atomic_store_explicit(&hosted_cpus[cpu].pending, 0ULL, memory_order_relaxed);
	hosted_pending_word = &hosted_no_pending;
	hosted_cpu = -1;
	hosted_masked = 0;
}

int irqsync_hosted_route(unsigned int irq, unsigned int cpu)
{
	if (irq >= NR_IRQS || cpu >= IRQSYNC_NR_CPUS)
		return -IRQSYNC_EINVAL;
	atomic_store_explicit(&hosted_route[irq], cpu, memory_order_relaxed);
	return 0;
}

/*
 * Set line @irq pending on CPU @c and signal it.  Return: 0, or 1 when the line was already
 * pending there (coalesced).  Async-signal-safe (an unmask may run in a handler).
 */
static int hosted_pend(struct hosted_cpu *c, unsigned int irq)
{
	unsigned long long bit = 1ULL << irq, old;

	/* Release: what the raiser wrote before raising is visible to the handler. */
	old = atomic_fetch_or_explicit(&c->pending, bit, memory_order_release);
	if (old & bit) {
		STAT_INC(c, coalesced);
		return 1;
	}
	STAT_INC(c, raised);
	/*
	 * A signal is needed only when the word was empty: otherwise the
	 * raise that made it non-empty signalled, or the CPU is masked and its
	 * unmask (or the running delivery's re-check) will see our bit.
	 */
	if (old == 0ULL) {
		STAT_INC(c, signals);
		(void)pthread_kill(c->thread, IRQSYNC_HOSTED_SIGNO);
	}
	return 0;
}

int irqsync_hosted_raise_on(unsigned int irq, unsigned int cpu)
{
	struct hosted_cpu *c;

	if (irq >= NR_IRQS || cpu >= IRQSYNC_NR_CPUS)
		return -IRQSYNC_EINVAL;
	c = &hosted_cpus[cpu];
	if (atomic_load_explicit(&c->attached, memory_order_acquire) != 1)
		return -IRQSYNC_ESRCH;
	IRQSYNC_STEP(IRQ_ARRIVE, irq);
	return hosted_pend(c, irq);
}

int irqsync_hosted_raise(unsigned int irq)
{
	if (irq >= NR_IRQS)
		return -IRQSYNC_EINVAL;
	return irqsync_hosted_raise_on(irq,
			atomic_load_explicit(&hosted_route[irq], memory_order_relaxed));
}

int irqsync_hosted_stats(unsigned int cpu, struct irqsync_hosted_stats *out)
{
	struct hosted_cpu *c;

	if (cpu >= IRQSYNC_NR_CPUS || !out)
		return -IRQSYNC_EINVAL;
	c = &hosted_cpus[cpu];
	out->raised = atomic_load(&c->raised);
	out->coalesced = atomic_load(&c->coalesced);
	out->signals = atomic_load(&c->signals);
	out->deferred = atomic_load(&c->deferred);
	out->delivered = atomic_load(&c->delivered);
	out->held = atomic_load(&c->held);
	return 0;
}

void irqsync_hosted_reset(void)
{
	unsigned int i;

	for (i = 0; i < IRQSYNC_NR_CPUS; i++) {
		struct hosted_cpu *c = &hosted_cpus[i];

		atomic_store(&c->pending, 0ULL);
		atomic_store(&c->raised, 0UL);
		atomic_store(&c->coalesced, 0UL);
		atomic_store(&c->signals, 0UL);
		atomic_store(&c->deferred, 0UL);
		atomic_store(&c->delivered, 0UL);
		atomic_store(&c->held, 0UL);
	}
	for (i = 0; i < NR_IRQS; i++) {
		atomic_store(&hosted_route[i], 0U);
		atomic_store(&hosted_line_held[i], 0U);
	}
	atomic_store(&hosted_line_masked, 0ULL);
}

/* ---- line masks (IRQF_ONESHOT) and the in-flight state ----
 *
 * A line's mask is checked where the port takes an interrupt for delivery (hosted_take, from
 * hosted_deliver), not where it is raised: a raise always sets its CPU's pending bit, and a
 * delivery that finds the line masked holds it instead (hosted_line_held) -- on any CPU.  The
 * unmask clears the mask, then takes the held interrupt back and sets it pending again on the
 * CPU it was raised on, which delivers it as any other (at once if that CPU's interrupts are
 * enabled, else at its unmask).  The take announces itself (inflight) before it looks at the
 * mask, and the hold looks at the mask again after it stored the held CPU; the unmask clears
 * the mask before it takes the held one: both sides store and then load (sequentially
 * consistent), so one of them sees the other and the interrupt is delivered exactly once.
 */
#define hosted_cb() atomic_signal_fence(memory_order_seq_cst)	/* a compiler barrier */
#define STAT_MERGE(c) do { STAT_INC(c, coalesced); \
	atomic_fetch_sub_explicit(&(c)->raised, 1UL, memory_order_relaxed); } while (0)

/* Set a held interrupt pending again on @cpu (not a new raise: raised is not counted again; if
 * the line is pending there already, the held one merges with it). */
static void hosted_repend(unsigned int irq, unsigned int cpu)
{
	struct hosted_cpu *c = &hosted_cpus[cpu];
	unsigned long long bit = 1ULL << irq, old;

	if (atomic_load_explicit(&c->attached, memory_order_acquire) != 1)
		return;				/* its CPU went away: dropped, as at a detach */
	old = atomic_fetch_or_explicit(&c->pending, bit, memory_order_release);
	if (old & bit) {
		STAT_MERGE(c);
		return;
	}
	if (old == 0ULL) {
		STAT_INC(c, signals);
		(void)pthread_kill(c->thread, IRQSYNC_HOSTED_SIGNO);
	}
}

/* CPU @c takes @irq for delivery: 1 to deliver it (inflight set), 0 when its line is masked
 * (the interrupt is held; if the mask went away meanwhile, it is pending again). */
static int hosted_take(struct hosted_cpu *c, unsigned int irq)
{
	unsigned long long bit = 1ULL << irq;
	unsigned int cpu = c->id, none = 0U, h;

	atomic_store(&c->inflight, irq + 1U);
	if (!(atomic_load(&hosted_line_masked) & bit))
		return 1;
	atomic_store_explicit(&c->inflight, 0U, memory_order_release);
	STAT_INC(c, held);
	if (!atomic_compare_exchange_strong(&hosted_line_held[irq], &none, cpu + 1U))
		STAT_MERGE(c);			/* one already held: one latch per line */
	/* an unmask between our look at the mask and the store above has not seen this one */
	if (!(atomic_load(&hosted_line_masked) & bit) &&
	    (h = atomic_exchange(&hosted_line_held[irq], 0U)) != 0U)
		hosted_repend(irq, h - 1U);
	return 0;
}

void irqsync_port_line_mask(unsigned int irq)
{
	hosted_cb();
	if (irq < NR_IRQS)
		atomic_fetch_or(&hosted_line_masked, 1ULL << irq);
	hosted_cb();
}

void irqsync_port_line_unmask(unsigned int irq)
{
	unsigned int h;

	hosted_cb();
	if (irq < NR_IRQS) {
		atomic_fetch_and(&hosted_line_masked, ~(1ULL << irq));
		h = atomic_exchange(&hosted_line_held[irq], 0U);
		if (h != 0U)
			hosted_repend(irq, h - 1U);
	}
	hosted_cb();
}

/* 1 while some CPU has taken an interrupt of @irq for delivery and its handle_irq() has not
 * returned: the port knows it exactly (hosted_take .. the end of the call).  Built with
 * IRQSYNC_PORT_NO_ACTIVE_STATE, the port plays a controller that cannot tell (docs/porting.md,
 * "In-flight state"): the test libraries whose own wait is removed use it, so that this wait
 * does not stand in for the one they remove. */
#ifdef IRQSYNC_PORT_NO_ACTIVE_STATE
int irqsync_port_line_inflight(unsigned int irq)
{
	(void)irq;
	return IRQSYNC_PORT_CANNOT_TELL;
}
#else
int irqsync_port_line_inflight(unsigned int irq)
{
	unsigned int i;
	int r = 0;

	hosted_cb();
	for (i = 0; i < IRQSYNC_NR_CPUS && irq < NR_IRQS; i++)
		if (atomic_load(&hosted_cpus[i].inflight) == irq + 1U)
			r = 1;
	hosted_cb();
	return r;
}
#endif

/* ---- threads and waits ----
 *
 * A futex word per channel for its thread (tseq, bumped by every kick that makes a run owed,
 * and by the stop) and one for its waiters (wseq, bumped by every wake).  The classic futex
 * protocol: read the word, test the condition, sleep only if the word is unchanged -- a change
 * made after the read wakes the sleeper or keeps it from sleeping.  Outside Linux the futex
 * wait is a poll of the word (correct, slower).
 */
struct hosted_chan {
	_Atomic unsigned int owed;	/* a run is owed (kicks fold into it) */
	_Atomic unsigned int stop;	/* the stop asks the thread to end */
	_Atomic unsigned int started;
	_Atomic unsigned int tseq;	/* the thread's futex word */
	_Atomic unsigned int wseq;	/* the waiters' futex word */
	_Atomic unsigned int waiters;	/* announced waiters (a wake without any makes no call) */
	void (*fn)(unsigned int chan);
	pthread_t thread;
	unsigned int id;	/* its index in hosted_chans (set at start) */
};
static struct hosted_chan hosted_chans[IRQSYNC_PORT_CHANNELS];
static _Thread_local unsigned int hosted_chan_current;	/* 1 + the channel this thread runs */

static void hosted_futex_wait(_Atomic unsigned int *word, unsigned int seen)
{
#if defined(__linux__) && defined(SYS_futex)
	/* returns at once if *word != seen; EINTR (a signal: an interrupt of this CPU) is fine */
	(void)syscall(SYS_futex, (unsigned int *)word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
#else
	struct timespec ts = { 0, 50000L };
	unsigned int i;

	for (i = 0; i < 200U && atomic_load(word) == seen; i++)
		(void)nanosleep(&ts, NULL);
#endif
}

static void hosted_futex_wake(_Atomic unsigned int *word, int n)
{
#if defined(__linux__) && defined(SYS_futex)
	(void)syscall(SYS_futex, (unsigned int *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
#else
	(void)word;
	(void)n;
#endif
}

/* The channel's thread: every owed run, in turn; then the stop.  No CPU: it takes no
 * interrupt, and its interrupt state (the soft mask) starts enabled, as port.h asks. */
static void *hosted_chan_thread(void *arg)
{
	struct hosted_chan *c = arg;
	unsigned int chan = c->id, seen;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, IRQSYNC_HOSTED_SIGNO);
	(void)pthread_sigmask(SIG_BLOCK, &set, NULL);
	hosted_chan_current = chan + 1U;
	for (;;) {
		seen = atomic_load(&c->tseq);
		if (atomic_exchange(&c->owed, 0U)) {	/* acquire: the kicker's writes */
			c->fn(chan);
			continue;
		}
		if (atomic_load(&c->stop))
			break;				/* an owed run was run first */
		hosted_futex_wait(&c->tseq, seen);
	}
	return NULL;
}

int irqsync_port_thread_start(unsigned int chan, void (*fn)(unsigned int chan))
{
	struct hosted_chan *c;
	int r = 0;

	hosted_cb();
	if (chan >= IRQSYNC_PORT_CHANNELS || !fn) {
		r = -IRQSYNC_EINVAL;
	} else {
		c = &hosted_chans[chan];
		if (atomic_load(&c->started)) {
			r = -IRQSYNC_EBUSY;		/* started twice: a caller's bug */
		} else {
			c->fn = fn;
			c->id = chan;
			atomic_store(&c->stop, 0U);
			if (pthread_create(&c->thread, NULL, hosted_chan_thread, c) != 0)
				r = -IRQSYNC_ENOMEM;
			else
				atomic_store(&c->started, 1U);
		}
	}
	hosted_cb();
	return r;
}

void irqsync_port_thread_kick(unsigned int chan)
{
	struct hosted_chan *c;

	atomic_thread_fence(memory_order_seq_cst);	/* port.h: a full barrier before */
	if (chan < IRQSYNC_PORT_CHANNELS) {
		c = &hosted_chans[chan];
		if (!atomic_exchange(&c->owed, 1U)) {
			atomic_fetch_add(&c->tseq, 1U);
			hosted_futex_wake(&c->tseq, 1);
		}
	}
	hosted_cb();
}

void irqsync_port_thread_stop(unsigned int chan)
{
	struct hosted_chan *c;

	hosted_cb();
	if (chan < IRQSYNC_PORT_CHANNELS && atomic_load(&hosted_chans[chan].started)) {
		c = &hosted_chans[chan];
		atomic_store(&c->stop, 1U);
		atomic_fetch_add(&c->tseq, 1U);
		hosted_futex_wake(&c->tseq, 1);
		(void)pthread_join(c->thread, NULL);	/* the running and the owed run ended */
		atomic_store(&c->started, 0U);
	}
	hosted_cb();
}

unsigned int irqsync_port_thread_current(void)
{
	return hosted_chan_current;
}

void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan))
{
	struct hosted_chan *c;
	unsigned int seen;

	hosted_cb();
	if (chan < IRQSYNC_PORT_CHANNELS) {
		c = &hosted_chans[chan];
		atomic_fetch_add(&c->waiters, 1U);		/* announced ... */
		for (;;) {
			seen = atomic_load(&c->wseq);		/* ... from this value on */
			atomic_thread_fence(memory_order_seq_cst);
			if (ready(chan))
				break;
			hosted_futex_wait(&c->wseq, seen);	/* not if a wake came since */
		}
		atomic_fetch_sub(&c->waiters, 1U);
	}
	hosted_cb();
}

void irqsync_port_wake(unsigned int chan)
{
	struct hosted_chan *c;

	atomic_thread_fence(memory_order_seq_cst);	/* port.h: a full barrier before */
	if (chan < IRQSYNC_PORT_CHANNELS) {
		c = &hosted_chans[chan];
		atomic_fetch_add(&c->wseq, 1U);
		if (atomic_load(&c->waiters) != 0U)
			hosted_futex_wake(&c->wseq, INT_MAX);
	}
	hosted_cb();
}

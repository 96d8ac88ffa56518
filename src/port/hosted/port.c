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
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

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
	_Atomic unsigned long raised, coalesced, signals, deferred, delivered;
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
				STAT_INC(c, delivered);
				(void)handle_irq(irq);
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

int irqsync_hosted_raise_on(unsigned int irq, unsigned int cpu)
{
	struct hosted_cpu *c;
	unsigned long long bit, old;

	if (irq >= NR_IRQS || cpu >= IRQSYNC_NR_CPUS)
		return -IRQSYNC_EINVAL;
	c = &hosted_cpus[cpu];
	if (atomic_load_explicit(&c->attached, memory_order_acquire) != 1)
		return -IRQSYNC_ESRCH;
	bit = 1ULL << irq;
	IRQSYNC_STEP(IRQ_ARRIVE, irq);
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
	}
	for (i = 0; i < NR_IRQS; i++)
		atomic_store(&hosted_route[i], 0U);
}

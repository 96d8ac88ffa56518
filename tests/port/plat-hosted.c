/* plat-hosted.c — the port conformance suite's machine on a POSIX host (plat.h).
 *
 * CPUs are threads attached with irqsync_hosted_cpu_attach(); an interrupt is raised with the
 * hosted port's controller (irqsync_hosted_raise_on). A signal a thread sends to itself is
 * handled before pthread_kill returns (Linux), and a raise on a masked CPU sets its pending
 * bit at once, so a raise on the calling CPU has arrived when plat_raise returns.
 *
 * CPU 0 (the main thread) and CPU 1 are pinned to two distinct host cores when the process
 * may use two: the litmus rounds of the suite need both to run at the same time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <ucontext.h>
#define PLAT_CAN_STEP 1
#endif

#include <irqsync/irqsync.h>
#include "irqsync_hosted.h"
#include "plat.h"

#define PLAT_MAX_THREADS IRQSYNC_NR_CPUS

static _Thread_local unsigned int plat_self;
static _Thread_local unsigned int plat_pauses;
static _Thread_local int plat_raised[PC_NSRC];
static pthread_t plat_threads[PLAT_MAX_THREADS];
static unsigned int plat_nthreads;
static int plat_host_core[2] = { -1, -1 };

struct plat_start {
	unsigned int cpu;
	void (*fn)(void);
};
static struct plat_start plat_starts[PLAT_MAX_THREADS];

static void plat_pin(unsigned int cpu)
{
	cpu_set_t set;

	if (cpu > 1 || plat_host_core[cpu] < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(plat_host_core[cpu], &set);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void plat_init(void)
{
	cpu_set_t avail;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(avail), &avail) == 0) {
		for (c = 0; c < CPU_SETSIZE && n < 2; c++)
			if (CPU_ISSET(c, &avail))
				plat_host_core[n++] = c;
	}
	if (n < 2)
		plat_host_core[0] = plat_host_core[1] = -1;
	printf("# hosted platform: %d host core(s) for CPUs 0 and 1%s\n", n,
	       n < 2 ? " (not pinned: litmus rounds cannot overlap)" : ", pinned");
	plat_pin(0);
	irqsync_hosted_reset();
	if (irqsync_hosted_cpu_attach(0) != 0)
		printf("Bail out! cannot attach the main thread as CPU 0\n");
	plat_self = 0;
}

void plat_puts(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

void plat_putu(unsigned long v)
{
	printf("%lu", v);
	fflush(stdout);
}

unsigned int plat_ncpus(void)
{
	return IRQSYNC_NR_CPUS;
}

unsigned int plat_cpu(void)
{
	return plat_self;
}

static void *plat_thread(void *arg)
{
	struct plat_start *st = arg;

	plat_self = st->cpu;
	plat_pin(st->cpu);
	if (irqsync_hosted_cpu_attach(st->cpu) != 0) {
		printf("# CPU %u: cannot attach\n", st->cpu);
		return NULL;
	}
	st->fn();
	irqsync_hosted_cpu_detach();
	return NULL;
}

int plat_cpu_start(unsigned int cpu, void (*fn)(void))
{
	struct plat_start *st;

	if (cpu == 0 || cpu >= IRQSYNC_NR_CPUS || plat_nthreads >= PLAT_MAX_THREADS)
		return -1;
	st = &plat_starts[plat_nthreads];
	st->cpu = cpu;
	st->fn = fn;
	if (pthread_create(&plat_threads[plat_nthreads], NULL, plat_thread, st) != 0)
		return -1;
	plat_nthreads++;
	return 0;
}

void plat_cpu_join_all(void)
{
	unsigned int i;

	for (i = 0; i < plat_nthreads; i++)
		(void)pthread_join(plat_threads[i], NULL);
	plat_nthreads = 0;
}

void plat_raise(unsigned int n)
{
	plat_raised[n] = irqsync_hosted_raise_on(PC_LINE(n), plat_self) >= 0;
}

int plat_arrived(unsigned int n)
{
	return plat_raised[n];
}

unsigned long plat_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return (unsigned long)__rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000000ul + (unsigned long)ts.tv_nsec;
#endif
}

unsigned long plat_clock_margin(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return 4000;	/* TSC cycles, about 1-2 us */
#else
	return 1500;	/* ns */
#endif
}

unsigned int plat_clock_jitter(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return 64;	/* TSC cycles */
#else
	return 32;	/* ns */
#endif
}

void plat_pause(void)
{
	if ((++plat_pauses & 255U) == 0U) {
		sched_yield();
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * plat_inject: single-stepping with the trap flag (x86-64 Linux). A SIGTRAP handler that sets
 * EFLAGS.TF in the context it returns to gets one more SIGTRAP after each instruction of the
 * interrupted code; the kernel clears TF while a signal handler runs, so the port's own signal
 * handler is not stepped, only the code of fn(). At boundary j the handler raises the source
 * with the port's controller -- its pending bit is set and its signal sent -- while the signal
 * stays blocked (this handler's sa_mask, then the returned-to context's mask); at boundary k
 * it removes the signal from that mask, so the kernel delivers it before the next instruction:
 * a raise at j whose arrival the CPU notices at k, as a raise on another CPU whose signal
 * takes a while.
 */
#ifdef PLAT_CAN_STEP
#define PLAT_TF 0x100L
static volatile sig_atomic_t inj_in_fn, inj_was_in, inj_armed, inj_raised, inj_noticed;
static volatile long inj_b, inj_j, inj_k;
static volatile unsigned int inj_n;
static int inj_installed;

static void inj_notice(ucontext_t *uc)
{
	sigdelset(&uc->uc_sigmask, IRQSYNC_HOSTED_SIGNO);
	uc->uc_mcontext.gregs[REG_EFL] &= ~PLAT_TF;	/* done: stop stepping */
	inj_armed = 0;
}

static void inj_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	long b;

	(void)sig;
	(void)si;
	if (!inj_armed)
		return;
	uc->uc_mcontext.gregs[REG_EFL] |= PLAT_TF;
	if (!inj_in_fn) {
		if (!inj_was_in)
			return;			/* not in fn() yet: keep stepping */
		if (!inj_raised) {		/* j past the end */
			plat_raise(inj_n);
			inj_raised = 1;
		}
		inj_notice(uc);			/* k past the end */
		return;
	}
	inj_was_in = 1;
	b = inj_b++;
	if (b == inj_j) {
		plat_raise(inj_n);		/* its signal stays pending: blocked here */
		inj_raised = 1;
		sigaddset(&uc->uc_sigmask, IRQSYNC_HOSTED_SIGNO);
	}
	if (inj_raised && b >= inj_k) {
		inj_noticed = 1;
		inj_notice(uc);
	}
}

int plat_inject(void (*fn)(void), unsigned int n, long j, long k)
{
	if (!inj_installed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = inj_trap;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaddset(&sa.sa_mask, IRQSYNC_HOSTED_SIGNO);
		if (sigaction(SIGTRAP, &sa, NULL) != 0)
			return -1;
		inj_installed = 1;
	}
	inj_n = n;
	inj_j = j;
	inj_k = k < j ? j : k;
	inj_b = 0;
	inj_was_in = inj_raised = inj_noticed = 0;
	inj_armed = 1;
	raise(SIGTRAP);			/* its handler turns stepping on */
	inj_in_fn = 1;
	fn();
	inj_in_fn = 0;
	/* The trap after the store above ends the stepping; nothing below is stepped. */
	__asm__ __volatile__("" ::: "memory");
	if (!inj_was_in) {		/* no trap came: this kernel or VM does not step */
		inj_armed = 0;
		return -1;
	}
	return inj_noticed ? 1 : 0;
}
#else
int plat_inject(void (*fn)(void), unsigned int n, long j, long k)
{
	(void)fn;
	(void)n;
	(void)j;
	(void)k;
	return -1;
}
#endif

int plat_line_hwirq(unsigned int n)
{
	(void)n;
	return -1;
}

int plat_lines_per_cpu(void)
{
	return 0;
}

static pthread_t plat_ticker;
static void (*plat_tick_fn)(void);
static _Atomic int plat_ticking;

static void *plat_ticker_main(void *arg)
{
	struct timespec ts = { 0, 1000000L };
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, IRQSYNC_HOSTED_SIGNO);
	(void)pthread_sigmask(SIG_BLOCK, &set, NULL);
	while (atomic_load(&plat_ticking)) {
		(void)nanosleep(&ts, NULL);
		plat_tick_fn();
	}
	return NULL;
}

int plat_ticker_start(void (*tick)(void))
{
	plat_tick_fn = tick;
	atomic_store(&plat_ticking, 1);
	if (pthread_create(&plat_ticker, NULL, plat_ticker_main, NULL) != 0) {
		atomic_store(&plat_ticking, 0);
		return -1;
	}
	return 0;
}

void plat_ticker_stop(void)
{
	if (atomic_exchange(&plat_ticking, 0))
		(void)pthread_join(plat_ticker, NULL);
}

void plat_fini(void)
{
}

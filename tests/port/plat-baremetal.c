/* plat-baremetal.c — the port conformance suite's machine on the bare-metal boards of
 * tests/baremetal/ (plat.h over board.h): qemu's mps2-an385 (Cortex-M3, NVIC, CMSDK timers)
 * and qemu's virt (Cortex-A53, GICv2, the Arm generic timers; one CPU or two).
 *
 * An interrupt source is one of the board's two timers used one-shot: plat_raise starts it
 * with a short period and the timer's interrupt entry stops it again, so one raise is one
 * interrupt. Whether it has reached the CPU is read from the timer itself (bm_timer_raised:
 * its interrupt status, which stays set while the CPU holds the interrupt pending) or from
 * the count of interrupts taken — never from the port.
 *
 * Build with -DPC_NCPUS=2 on a board with a second CPU (virt -smp 2).
 */
#include "board.h"
#include "semihost.h"
#include "plat.h"

#ifndef PC_NCPUS
#define PC_NCPUS 1
#endif
#define PLAT_RAISE_US	40u	/* one-shot period of a raise */

int handle_irq(unsigned int irq);	/* the suite's (conformance.c) */

/* Interrupts taken per CPU and source, and the count at the last raise. */
static volatile unsigned long plat_taken[PC_NCPUS][PC_NSRC];
static unsigned long plat_mark[PC_NCPUS][PC_NSRC];
/* Armed by a raise, disarmed by the one interrupt it gives. The timers are periodic: when the
 * host deschedules qemu between the device's acknowledge and the stop below, the timer fires
 * again and the interrupt controller latches a second interrupt (seen on a loaded CI machine
 * as "2 != 1" in irq/masked-interrupt-held-then-delivered-at-unmask). That second entry is the
 * platform's, not a delivery by the port: it is dropped here, as a one-shot device would never
 * raise it. */
static volatile int plat_armed[PC_NCPUS][PC_NSRC];

unsigned int plat_cpu(void)
{
#if defined(__aarch64__) && PC_NCPUS > 1
	unsigned long mpidr;

	__asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
	return (unsigned int)(mpidr & 0xfful);
#else
	return 0U;
#endif
}

/* The board's timer interrupt, after the board acknowledged the timer: stop it (one-shot),
 * count it, and hand it to irqsync's entry point as a port would. */
void bm_timer_event(unsigned int i)
{
	unsigned int c = plat_cpu();

	bm_timer_stop(i);
	if (c >= PC_NCPUS || i >= PC_NSRC || !plat_armed[c][i])
		return;
	plat_armed[c][i] = 0;
	plat_taken[c][i]++;
	(void)handle_irq(PC_LINE(i));
}

void plat_init(void)
{
	bm_board_init();
}

void plat_puts(const char *s)
{
	sh_puts(s);
}

void plat_putu(unsigned long v)
{
	sh_putu(v);
}

unsigned int plat_ncpus(void)
{
	return PC_NCPUS;
}

int plat_cpu_start(unsigned int cpu, void (*fn)(void))
{
	if (cpu == 0 || cpu >= PC_NCPUS)
		return -1;
	return bm_cpu_start(cpu, fn);
}

void plat_cpu_join_all(void)
{
}

void plat_raise(unsigned int n)
{
	unsigned int c = plat_cpu();

	plat_mark[c][n] = plat_taken[c][n];
	plat_armed[c][n] = 1;
	bm_timer_start(n, PLAT_RAISE_US);
}

int plat_arrived(unsigned int n)
{
	unsigned int c = plat_cpu();

	return bm_timer_raised(n) || plat_taken[c][n] != plat_mark[c][n];
}

unsigned long plat_clock(void)
{
#if defined(__aarch64__)
	unsigned long now;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(now) : : "memory");
	return now;
#else
	static volatile unsigned long ticks;	/* one CPU: no litmus round needs a clock */

	return ++ticks;
#endif
}

unsigned long plat_clock_margin(void)
{
	return 400;	/* generic-timer ticks (62.5 MHz on virt): a few microseconds */
}

unsigned int plat_clock_jitter(void)
{
	return 4;	/* 64 ns on virt */
}

void plat_pause(void)
{
}

/* No single-stepping on the boards: the window cases skip (plat.h). */
int plat_inject(void (*fn)(void), unsigned int n, long j, long k)
{
	(void)fn;
	(void)n;
	(void)j;
	(void)k;
	return -1;
}

/* The boards' controller inputs of the two timers (board.c): the NVIC's IRQn 8 and 9 of the
 * CMSDK timers on mps2-an385; on virt the GIC's PPIs 27 (virtual timer) and 30 (physical). */
int plat_line_hwirq(unsigned int n)
{
#if defined(__aarch64__)
	return n == 0 ? 27 : 30;
#else
	return n == 0 ? 8 : 9;
#endif
}

/* virt's timers are PPIs: each CPU has its own, with its own banked enable and active bits. */
int plat_lines_per_cpu(void)
{
#if defined(__aarch64__)
	return 1;
#else
	return 0;
#endif
}

int plat_ticker_start(void (*tick)(void))
{
	(void)tick;
	return -1;
}

void plat_ticker_stop(void)
{
}

void plat_fini(void)
{
	bm_timer_stop(0);
	bm_timer_stop(1);
}

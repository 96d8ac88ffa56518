/* SPDX-License-Identifier: MIT */
/*
 * platform/baremetal.c - the examples' machine on bare metal: qemu's virt
 * board with two Cortex-A53 at EL1 (qemu -smp 2), the baremetal-aarch64 port
 * built for two CPUs (IRQSYNC_NR_CPUS=2, from its irqsync.pc).
 *
 * CPU 0 runs example_main() - the driver. CPU 1 runs its two generic timers
 * (1 ms and 1.3 ms) and idles; each timer interrupt is one period of a
 * simulated device: if the device is started, it sets the device's status
 * register and calls handle_irq() for the device's line, as an interrupt
 * controller's entry code would. The board code (GIC, timers, semihosting,
 * start-up) is the bare-metal test's: tests/baremetal/.
 *
 * Handler threads (request_threaded_irq) need no OS here: the port makes the
 * runs a wake-up owes, to completion, on the stack of whoever calls its
 * worker (<irqsync_baremetal.h>). CPU 1's idle loop is that worker: it runs
 * owed runs with interrupts enabled, and sleeps in `wfe` when there are none.
 * A wake-up ends with `sev`, which ends the `wfe` of the other CPU and sets
 * this CPU's event register (so one made by CPU 1's own interrupt between the
 * look and the `wfe` is not slept through); an interrupt ends it too. A wait
 * of the library on CPU 0 (synchronize_irq, free_irq) also makes owed runs
 * that CPU 1 has not claimed. The lines' masks (IRQF_ONESHOT) act at the GIC
 * input of the line's own number, which these devices do not use: a line
 * masked for its thread here still delivers, and the wake-ups fold.
 *
 * No C library: the console is semihosting, and main()'s return value
 * becomes qemu's exit status.
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include <irqsync_baremetal.h>
#include "board.h"
#include "semihost.h"
#include "devices.h"

#if IRQSYNC_NR_CPUS < 2
#error "the examples need a library for two CPUs (IRQSYNC_NR_CPUS=2)"
#endif

static const unsigned int period_us[EX_NR_DEVICES] = { 1000u, 1300u };

static _Atomic int cpu1_up;

unsigned long ex_time_us(void)
{
	unsigned long now, frq;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(now) : : "memory");
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	return now / (frq / 1000000ul);
}

void ex_delay_us(unsigned long us)
{
	unsigned long t0 = ex_time_us();

	while (ex_time_us() - t0 < us)
		;
}

void ex_relax(void)
{
	__asm__ volatile("yield" : : : "memory");
}

void ex_puts(const char *s)
{
	sh_puts(s);
}

void ex_putu(unsigned long v)
{
	sh_putu(v);
}

/* The line needs no routing: the devices are CPU 1's own timers. */
static void plat_route(unsigned int irq)
{
	(void)irq;
}

/* CPU 1 is in its timer interrupt: it dispatches the device's line as an interrupt
 * controller's entry code would. */
static void plat_raise(unsigned int irq)
{
	(void)handle_irq(irq);
}

/* CPU 1's timer interrupt i (board.c acknowledged the timer). */
void bm_timer_event(unsigned int i)
{
	ex_device_event(i);
}

static void cpu1_main(void)
{
	unsigned int i;

	for (i = 0; i < EX_NR_DEVICES; i++)
		bm_timer_start(i, period_us[i]);
	atomic_store(&cpu1_up, 1);
	for (;;)	/* the idle loop: the handler threads' runs, else sleep until an event */
		if (irqsync_baremetal_run_threads() == 0U)
			__asm__ volatile("wfe" : : : "memory");
}

int main(void)
{
	bm_board_init();
	if (bm_cpu_start(1, cpu1_main) != 0 || !ex_wait_until(atomic_load(&cpu1_up))) {
		ex_puts("FAIL: CPU 1 did not start\n");
		return 2;
	}
	return example_main();
}

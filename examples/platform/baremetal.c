/* SPDX-License-Identifier: MIT */
/*
 * platform/baremetal.c - the examples' machine on bare metal: qemu's virt
 * board with two Cortex-A53 at EL1 (qemu -smp 2), the baremetal-aarch64 port
 * built for two CPUs (IRQSYNC_NR_CPUS=2, from its irqsync.pc).
 *
 * CPU 0 runs example_main() - the driver. CPU 1 runs its two generic timers
 * (1 ms and 1.3 ms) and sleeps; each timer interrupt is one period of a
 * simulated device: if the device is started, it sets the device's status
 * register and calls handle_irq() for the device's line, as an interrupt
 * controller's entry code would. The board code (GIC, timers, semihosting,
 * start-up) is the bare-metal test's: tests/baremetal/.
 *
 * No C library: the console is semihosting, and main()'s return value
 * becomes qemu's exit status.
 */
#include <stdatomic.h>
#include <irqsync/irqsync.h>
#include "board.h"
#include "semihost.h"
#include "../example.h"

#if IRQSYNC_NR_CPUS < 2
#error "the examples need a library for two CPUs (IRQSYNC_NR_CPUS=2)"
#endif

static const unsigned int period_us[EX_NR_DEVICES] = { 1000u, 1300u };

struct device {
	_Atomic unsigned int irq;
	_Atomic int on;
	_Atomic int busy;		/* CPU 1 is in this device's timer event */
	_Atomic unsigned long status;	/* events not yet acknowledged */
	_Atomic unsigned long raised;	/* events ever raised */
};

static struct device devices[EX_NR_DEVICES];
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

void ex_device_start(unsigned int dev, unsigned int irq)
{
	atomic_store(&devices[dev].irq, irq);
	atomic_store(&devices[dev].on, 1);
}

void ex_device_stop(unsigned int dev)
{
	atomic_store(&devices[dev].on, 0);
	while (atomic_load(&devices[dev].busy))
		ex_relax();
}

unsigned long ex_device_ack(unsigned int dev)
{
	return atomic_exchange(&devices[dev].status, 0ul);
}

unsigned long ex_device_raised(unsigned int dev)
{
	return atomic_load(&devices[dev].raised);
}

/* CPU 1's timer interrupt i (board.c acknowledged the timer). */
void bm_timer_event(unsigned int i)
{
	struct device *d = &devices[i];

	atomic_store(&d->busy, 1);
	if (atomic_load(&d->on)) {
		atomic_fetch_add(&d->status, 1ul);
		atomic_fetch_add(&d->raised, 1ul);
		(void)handle_irq(atomic_load(&d->irq));
	}
	atomic_store(&d->busy, 0);
}

static void cpu1_main(void)
{
	unsigned int i;

	for (i = 0; i < EX_NR_DEVICES; i++)
		bm_timer_start(i, period_us[i]);
	atomic_store(&cpu1_up, 1);
	for (;;)
		__asm__ volatile("wfi");
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

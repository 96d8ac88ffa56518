/* startup.c — reset and vector table for an Armv7-M core (Cortex-M3 on qemu's
 * mps2-an385). No OS, no C library start-up: copy .data, clear .bss, run main(), report its
 * result through semihosting. Every fault ends the run with a failure instead of a hang. */
#include <stdint.h>
#include "../semihost.h"
#include "../board.h"
#include "cmsdk.h"

extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[], __stack_top[];

int main(void);
void bm_reset(void);

/* A fault is a test failure with a name, never a silent loop. */
static void bm_fault(void)
{
	uint32_t ipsr;

	__asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
	sh_puts("Bail out! unexpected exception ");
	sh_putu(ipsr);
	sh_puts("\n");
	sh_exit(BM_EXIT_FAULT);
}

void bm_reset(void)
{
	uint32_t *src = __data_load, *dst = __data_start;

	while (dst < __data_end)
		*dst++ = *src++;
	for (dst = __bss_start; dst < __bss_end; dst++)
		*dst = 0;
	sh_exit(main());
}

/* Default device handler: an interrupt nobody wired up is a failure too. */
static void bm_unexpected_irq(void)
{
	bm_fault();
}

void bm_timer0_isr(void) __attribute__((weak, alias("bm_unexpected_irq")));
void bm_timer1_isr(void) __attribute__((weak, alias("bm_unexpected_irq")));

typedef void (*vector_t)(void);

/* Armv7-M exception table: word 0 is the initial main stack pointer, then the exceptions
 * (1 reset, 2 NMI, 3 HardFault, 4-6 MemManage/BusFault/UsageFault, 11 SVC, 14 PendSV,
 * 15 SysTick), then the external interrupts of the board (16 + n). */
__attribute__((section(".vectors"), used))
static const vector_t bm_vectors[16 + BM_NR_EXT_IRQS] = {
	[0] = (vector_t)__stack_top,
	[1] = bm_reset,
	[2 ... 15] = bm_fault,
	[16 ... 16 + BM_IRQN_TIMER0 - 1] = bm_unexpected_irq,
	[16 + BM_IRQN_TIMER0] = bm_timer0_isr,
	[16 + BM_IRQN_TIMER1] = bm_timer1_isr,
	[16 + BM_IRQN_TIMER1 + 1 ... 16 + BM_NR_EXT_IRQS - 1] = bm_unexpected_irq,
};

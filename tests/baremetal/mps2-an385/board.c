/* board.c — mps2-an385 (Arm AN385, Cortex-M3, as qemu emulates it): timers 0 and 1 are the
 * CMSDK APB timers at NVIC interrupts 8 and 9, clocked at 25 MHz. */
#include "../board.h"
#include "cmsdk.h"

const char bm_board_name[] = "mps2-an385 (Cortex-M3), CMSDK APB timers, NVIC";

static const uint32_t timer_base[BM_NR_TIMERS] = { CMSDK_TIMER0, CMSDK_TIMER1 };
static const unsigned int timer_irqn[BM_NR_TIMERS] = { BM_IRQN_TIMER0, BM_IRQN_TIMER1 };

void bm_timer0_isr(void);
void bm_timer1_isr(void);

void bm_board_init(void)
{
	unsigned int i;

	for (i = 0; i < BM_NR_TIMERS; i++) {
		timer_stop(timer_base[i]);
		nvic_enable(timer_irqn[i]);
	}
	__asm__ volatile("cpsie i" : : : "memory");	/* PRIMASK resets to 0; say so anyway */
}

void bm_timer_start(unsigned int i, unsigned int period_us)
{
	timer_start(timer_base[i], period_us * (BM_SYSCLK_HZ / 1000000u));
}

void bm_timer_stop(unsigned int i)
{
	timer_stop(timer_base[i]);
}

int bm_timer_raised(unsigned int i)
{
	return (TIMER_INTCLEAR(timer_base[i]) & 1u) != 0;
}

void bm_timer_clear(unsigned int i)
{
	timer_ack(timer_base[i]);
}

/* The vectors (startup.c): acknowledge at the device, then hand over to the test. */
void bm_timer0_isr(void)
{
	timer_ack(CMSDK_TIMER0);
	bm_timer_event(0);
}

void bm_timer1_isr(void)
{
	timer_ack(CMSDK_TIMER1);
	bm_timer_event(1);
}

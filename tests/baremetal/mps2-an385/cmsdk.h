/* cmsdk.h — the few devices of qemu's mps2-an385 (Arm AN385, Cortex-M3) the test drives:
 * two CMSDK APB timers (real interrupt sources, IRQ 8 and 9) and the NVIC. Register layout
 * from the CMSDK technical reference (DDI 0479) and the Armv7-M ARM (DDI 0403). */
#ifndef IRQSYNC_BM_CMSDK_H
#define IRQSYNC_BM_CMSDK_H

#include <stdint.h>

#define BM_NR_EXT_IRQS		32
#define BM_IRQN_TIMER0		8
#define BM_IRQN_TIMER1		9
#define BM_SYSCLK_HZ		25000000u	/* qemu's mps2 system clock */

#define REG32(a)		(*(volatile uint32_t *)(uintptr_t)(a))

/* CMSDK APB timer */
#define CMSDK_TIMER0		0x40000000u
#define CMSDK_TIMER1		0x40001000u
#define TIMER_CTRL(t)		REG32((t) + 0x00)
#define TIMER_VALUE(t)		REG32((t) + 0x04)
#define TIMER_RELOAD(t)		REG32((t) + 0x08)
#define TIMER_INTCLEAR(t)	REG32((t) + 0x0c)	/* write 1 to clear; reads INTSTATUS */
#define TIMER_CTRL_EN		(1u << 0)
#define TIMER_CTRL_IRQEN	(1u << 3)

/* NVIC */
#define NVIC_ISER(n)		REG32(0xe000e100u + 4u * (n))
#define NVIC_ICER(n)		REG32(0xe000e180u + 4u * (n))
#define NVIC_ICPR(n)		REG32(0xe000e280u + 4u * (n))

static inline void nvic_enable(unsigned irqn)
{
	NVIC_ICPR(irqn / 32u) = 1u << (irqn % 32u);
	NVIC_ISER(irqn / 32u) = 1u << (irqn % 32u);
}

static inline void nvic_disable(unsigned irqn)
{
	NVIC_ICER(irqn / 32u) = 1u << (irqn % 32u);
}

/* Periodic interrupt every `ticks` system clocks. */
static inline void timer_start(uint32_t t, uint32_t ticks)
{
	TIMER_CTRL(t) = 0;
	TIMER_INTCLEAR(t) = 1;
	TIMER_RELOAD(t) = ticks;
	TIMER_VALUE(t) = ticks;
	TIMER_CTRL(t) = TIMER_CTRL_EN | TIMER_CTRL_IRQEN;
}

static inline void timer_stop(uint32_t t)
{
	TIMER_CTRL(t) = 0;
	TIMER_INTCLEAR(t) = 1;
}

static inline void timer_ack(uint32_t t)
{
	TIMER_INTCLEAR(t) = 1;
}

#endif

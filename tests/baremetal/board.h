/* board.h — what the bare-metal test needs of a board: two periodic timers whose interrupts
 * reach the CPU through the board's interrupt controller. One implementation per board:
 * mps2-an385/ (Cortex-M3: CMSDK timers, NVIC) and virt-aarch64/ (Cortex-A53: the Arm generic
 * timers, GICv2). The board's interrupt entry acknowledges the timer and calls
 * bm_timer_event(i), which the test defines (it calls handle_irq for the timer's line). */
#ifndef IRQSYNC_BM_BOARD_H
#define IRQSYNC_BM_BOARD_H

#define BM_NR_TIMERS	2

extern const char bm_board_name[];

/* Interrupt controller on, both timers stopped, their interrupts routed to this CPU, and the
 * CPU's interrupt mask open (the state a driver's code starts in). */
void bm_board_init(void);
/* Start timer i: an interrupt every period_us microseconds (approximately). */
void bm_timer_start(unsigned int i, unsigned int period_us);
void bm_timer_stop(unsigned int i);
/* Has timer i expired since the last bm_timer_clear/ack? Read from the device, so it works
 * while the CPU masks interrupts (the interrupt itself stays pending). */
int bm_timer_raised(unsigned int i);
void bm_timer_clear(unsigned int i);

/* Boards with more than one CPU (virt-aarch64): start CPU `cpu` running fn() with the same
 * memory map, its own part of the interrupt controller set up and its interrupts unmasked.
 * The timers are per CPU there: bm_timer_* act on the calling CPU's timers.
 * Return: 0, or a negative error. */
int bm_cpu_start(unsigned int cpu, void (*fn)(void));

/* Defined by the test: the timer's interrupt, after the board acknowledged it. */
void bm_timer_event(unsigned int i);

/* Exit status of a run that took an unexpected exception (well above any failure count). */
#define BM_EXIT_FAULT	101

#endif

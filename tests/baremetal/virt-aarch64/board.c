/* board.c — qemu `-M virt` (AArch64, one Cortex-A53 at EL1): timer 0 is the EL1 virtual
 * timer (PPI 27), timer 1 the EL1 physical timer (PPI 30), both the Arm generic timer,
 * delivered as IRQs through the GICv2 (distributor 0x08000000, CPU interface 0x08010000). */
#include <stdint.h>
#include "../board.h"
#include "../semihost.h"

const char bm_board_name[] = "virt (Cortex-A53, EL1), generic timers, GICv2";

#define REG32(a)	(*(volatile uint32_t *)(uintptr_t)(a))
#define GICD		0x08000000u
#define GICC		0x08010000u
#define GICD_CTLR	REG32(GICD + 0x000)
#define GICD_ISENABLER0	REG32(GICD + 0x100)
#define GICD_ICPENDR0	REG32(GICD + 0x280)
#define GICC_CTLR	REG32(GICC + 0x000)
#define GICC_PMR	REG32(GICC + 0x004)
#define GICC_IAR	REG32(GICC + 0x00c)
#define GICC_EOIR	REG32(GICC + 0x010)
#define GIC_SPURIOUS	1023u

#define PPI_VTIMER	27u	/* timer 0 */
#define PPI_PTIMER	30u	/* timer 1 */
#define CNT_ENABLE	1ul
#define CNT_ISTATUS	4ul

static unsigned long timer_ticks[BM_NR_TIMERS];

int main(void);
void bm_start(void);
void bm_irq_dispatch(void);
void bm_fault(unsigned long vector, unsigned long esr, unsigned long elr);

#define SYSREG_WRITE(reg, v) __asm__ volatile("msr " #reg ", %0\n\tisb" : : "r"((unsigned long)(v)) : "memory")
#define SYSREG_READ(reg, v) __asm__ volatile("mrs %0, " #reg : "=r"(v) : : "memory")

static void timer_set(unsigned int i, unsigned long tval, unsigned long ctl)
{
	if (i == 0) {
		SYSREG_WRITE(cntv_tval_el0, tval);
		SYSREG_WRITE(cntv_ctl_el0, ctl);
	} else {
		SYSREG_WRITE(cntp_tval_el0, tval);
		SYSREG_WRITE(cntp_ctl_el0, ctl);
	}
}

/* This CPU's part of the GIC (PPIs are per CPU: their enable bits and the CPU interface are
 * banked), its timers stopped, then IRQs unmasked. */
static void bm_cpu_irq_init(void)
{
	timer_set(0, 0, 0);
	timer_set(1, 0, 0);
	GICD_ICPENDR0 = (1u << PPI_VTIMER) | (1u << PPI_PTIMER);
	GICD_ISENABLER0 = (1u << PPI_VTIMER) | (1u << PPI_PTIMER);
	GICC_PMR = 0xf0;	/* above the PPIs' reset priority 0 */
	GICC_CTLR = 1;
	/* The CPU comes out of reset with DAIF all set: the board is ready, take IRQs. */
	__asm__ volatile("msr daifclr, #2\n\tisb" : : : "memory");
}

void bm_board_init(void)
{
	GICD_CTLR = 1;
	bm_cpu_irq_init();
}

void bm_timer_start(unsigned int i, unsigned int period_us)
{
	unsigned long frq;

	SYSREG_READ(cntfrq_el0, frq);
	timer_ticks[i] = frq / 1000000ul * period_us;
	timer_set(i, timer_ticks[i], CNT_ENABLE);
}

void bm_timer_stop(unsigned int i)
{
	timer_set(i, 0, 0);
}

/* ISTATUS: the timer condition holds (it stays set until the timer is reprogrammed). */
int bm_timer_raised(unsigned int i)
{
	unsigned long ctl;

	if (i == 0)
		SYSREG_READ(cntv_ctl_el0, ctl);
	else
		SYSREG_READ(cntp_ctl_el0, ctl);
	return (ctl & CNT_ISTATUS) != 0;
}

/* Reprogramming the down-counter clears the condition: the next period starts now. */
void bm_timer_clear(unsigned int i)
{
	timer_set(i, timer_ticks[i], CNT_ENABLE);
}

/* The IRQ vector (startup.S): take every pending interrupt from the GIC, acknowledge the
 * timer, hand it to the test, end it. */
void bm_irq_dispatch(void)
{
	for (;;) {
		uint32_t iar = GICC_IAR;
		uint32_t id = iar & 0x3ffu;

		if (id == GIC_SPURIOUS)
			return;
		if (id == PPI_VTIMER || id == PPI_PTIMER) {
			unsigned int i = id == PPI_VTIMER ? 0u : 1u;

			bm_timer_clear(i);
			bm_timer_event(i);
		} else {
			sh_puts("Bail out! unexpected interrupt ");
			sh_putu(id);
			sh_puts("\n");
			sh_exit(BM_EXIT_FAULT);
		}
		GICC_EOIR = iar;
	}
}

void bm_fault(unsigned long vector, unsigned long esr, unsigned long elr)
{
	sh_puts("Bail out! unexpected exception, vector ");
	sh_putu(vector);
	sh_puts(" ESR ");
	sh_putu(esr);
	sh_puts(" ELR ");
	sh_putu(elr);
	sh_puts("\n");
	sh_exit(BM_EXIT_FAULT);
}

/*
 * Identity map with the MMU on, so that RAM is Normal write-back memory (what the exclusives
 * and the C11 atomics are specified for) and the devices below 1 GiB are Device-nGnRnE.
 * 4 KiB granule, 32-bit VA (T0SZ = 32: the walk starts at level 1 with 1 GiB blocks).
 * qemu models no caches; on hardware the caches would be invalidated first.
 */
static uint64_t bm_l1_table[512] __attribute__((aligned(4096)));

#define BLOCK_VALID	1ul
#define BLOCK_AF	(1ul << 10)
#define BLOCK_ISH	(3ul << 8)
#define ATTR_DEVICE	(0ul << 2)		/* MAIR attr 0: Device-nGnRnE */
#define ATTR_NORMAL	(1ul << 2)		/* MAIR attr 1: Normal, inner/outer WB RW-allocate */

static void bm_mmu_enable(void)
{
	unsigned long sctlr;

	SYSREG_WRITE(mair_el1, 0x00ul | (0xfful << 8));
	/* T0SZ=32, IRGN0=ORGN0=WB-WA, SH0=inner shareable, TG0=4K, EPD1 (no TTBR1 walks), IPS=4G */
	SYSREG_WRITE(tcr_el1, 32ul | (1ul << 8) | (1ul << 10) | (3ul << 12) | (1ul << 23));
	SYSREG_WRITE(ttbr0_el1, (unsigned long)(uintptr_t)bm_l1_table);
	__asm__ volatile("tlbi vmalle1\n\tdsb ish\n\tisb" : : : "memory");
	SYSREG_READ(sctlr_el1, sctlr);
	sctlr |= 1ul | (1ul << 2) | (1ul << 12);	/* M, C, I */
	SYSREG_WRITE(sctlr_el1, sctlr);
}

static void bm_mmu_on(void)
{
	bm_l1_table[0] = 0x00000000ul | BLOCK_AF | ATTR_DEVICE | BLOCK_VALID;
	bm_l1_table[1] = 0x40000000ul | BLOCK_AF | BLOCK_ISH | ATTR_NORMAL | BLOCK_VALID;
	__asm__ volatile("dsb ish" : : : "memory");
	bm_mmu_enable();
}

void bm_start(void)
{
	bm_mmu_on();
	sh_exit(main());
}

/* ---- a second CPU (tests/baremetal/smp.c) ---- */

void bm_secondary_entry(void);
void bm_secondary_start(void);
extern char __stack1_top[];
static void (*volatile bm_secondary_fn)(void);

#define PSCI_CPU_ON_64	0xc4000003ul

/* qemu's virt implements PSCI itself, called with hvc (its device tree says so). */
static long psci_call(unsigned long fn, unsigned long a1, unsigned long a2, unsigned long a3)
{
	register unsigned long x0 __asm__("x0") = fn;
	register unsigned long x1 __asm__("x1") = a1;
	register unsigned long x2 __asm__("x2") = a2;
	register unsigned long x3 __asm__("x3") = a3;

	__asm__ volatile("hvc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x3) : "memory");
	return (long)x0;
}

int bm_cpu_start(unsigned int cpu, void (*fn)(void))
{
	if (cpu != 1)
		return -1;
	bm_secondary_fn = fn;
	__asm__ volatile("dsb ish" : : : "memory");
	return (int)psci_call(PSCI_CPU_ON_64, cpu, (unsigned long)(uintptr_t)bm_secondary_entry,
			      (unsigned long)(uintptr_t)__stack1_top);
}

/* CPU 1, from startup.S: the same map (the tables are CPU 0's), its GIC part, then fn. */
void bm_secondary_start(void)
{
	bm_mmu_enable();
	bm_cpu_irq_init();
	bm_secondary_fn();
	for (;;)
		__asm__ volatile("wfi");
}

/* startup.S — reset and exception vectors for qemu `-M virt` with one Cortex-A53 at EL1
 * (qemu starts an ELF image at its entry point in EL1 when the board has no EL2/EL3).
 * No OS, no C library: stack, vector base, clear .bss, run the test, exit via semihosting. */
	.section .text.boot, "ax"
	.global _start
_start:
	msr	daifset, #0xf		/* everything masked until the test unmasks IRQs */
	ldr	x0, =__stack_top
	mov	sp, x0
	ldr	x0, =bm_vectors
	msr	vbar_el1, x0
	isb
	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
1:	cmp	x0, x1
	b.hs	2f
	str	xzr, [x0], #8
	b	1b
2:	bl	bm_start		/* board.c: main(), then sh_exit(result) */
3:	wfi
	b	3b

/* A secondary CPU started by PSCI CPU_ON (board.c: bm_cpu_start) enters here at EL1 with the
 * MMU off and x0 = the context argument: the top of its stack. */
	.global bm_secondary_entry
bm_secondary_entry:
	msr	daifset, #0xf
	mov	sp, x0
	ldr	x0, =bm_vectors
	msr	vbar_el1, x0
	isb
	bl	bm_secondary_start	/* board.c, never returns */
4:	wfi
	b	4b

/* Save what the AAPCS64 lets a callee clobber (x0-x18, x29, x30) plus ELR/SPSR, call the C
 * dispatcher, restore, return. 192 bytes keep sp 16-byte aligned. */
	.macro	irq_frame, handler
	sub	sp, sp, #192
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x29, [sp, #144]
	mrs	x0, elr_el1
	stp	x30, x0, [sp, #160]
	mrs	x0, spsr_el1
	str	x0, [sp, #176]
	bl	\handler
	ldr	x0, [sp, #176]
	msr	spsr_el1, x0
	ldp	x30, x0, [sp, #160]
	msr	elr_el1, x0
	ldp	x18, x29, [sp, #144]
	ldp	x16, x17, [sp, #128]
	ldp	x14, x15, [sp, #112]
	ldp	x12, x13, [sp, #96]
	ldp	x10, x11, [sp, #80]
	ldp	x8, x9, [sp, #64]
	ldp	x6, x7, [sp, #48]
	ldp	x4, x5, [sp, #32]
	ldp	x2, x3, [sp, #16]
	ldp	x0, x1, [sp, #0]
	add	sp, sp, #192
	eret
	.endm

/* 16 entries of 0x80 bytes; the table is 2 KiB aligned. Only "current EL with SP_ELx, IRQ"
 * is expected; every other entry reports the exception and ends the run (bm_fault). */
	.balign	2048
	.global	bm_vectors
bm_vectors:
	.irp	n, 0,1,2,3,4
	.balign	0x80
	mov	x0, #\n
	b	bm_fault_entry
	.endr
	.balign	0x80			/* 0x280: current EL, SP_ELx, IRQ */
	b	bm_irq_entry
	.irp	n, 6,7,8,9,10,11,12,13,14,15
	.balign	0x80
	mov	x0, #\n
	b	bm_fault_entry
	.endr

bm_irq_entry:
	irq_frame bm_irq_dispatch

bm_fault_entry:
	mrs	x1, esr_el1
	mrs	x2, elr_el1
	b	bm_fault		/* board.c, never returns */

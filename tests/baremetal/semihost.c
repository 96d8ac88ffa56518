/* semihost.c — the three semihosting calls the bare-metal test needs (see semihost.h). */
#include "semihost.h"

#define SYS_WRITE0		0x04
#define SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* The call number goes in r0/x0, the argument in r1/x1; `bkpt 0xab` (M-profile) or
 * `hlt #0xf000` (AArch64) traps to the host. The "memory" clobber keeps the compiler from
 * sinking stores to the argument block past the trap. */
static long sh_call(unsigned long op, const void *arg)
{
#if defined(__aarch64__)
	register unsigned long r0 __asm__("x0") = op;
	register const void *r1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(r0) : "r"(r1) : "memory");
#else
	register unsigned long r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
#endif
	return (long)r0;
}

void sh_puts(const char *s)
{
	sh_call(SYS_WRITE0, s);
}

void sh_putu(unsigned long v)
{
	char buf[24];
	char *p = buf + sizeof(buf) - 1;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	sh_puts(p);
}

void sh_puti(long v)
{
	if (v < 0) {
		sh_puts("-");
		sh_putu(0ul - (unsigned long)v);
	} else {
		sh_putu((unsigned long)v);
	}
}

/* SYS_EXIT on 32-bit Arm carries no status; SYS_EXIT_EXTENDED (semihosting v2; AArch64's
 * SYS_EXIT has the same form) takes a block {reason, subcode} of pointer-sized words, and qemu
 * exits with the subcode for an application exit. */
_Noreturn void sh_exit(int status)
{
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, (unsigned long)status };

	sh_call(SYS_EXIT_EXTENDED, block);
	for (;;)
		;
}

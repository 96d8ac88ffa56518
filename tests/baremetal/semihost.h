/* semihost.h — Arm semihosting (the debugger/emulator channel: `bkpt 0xab` on M-profile,
 * `hlt #0xf000` on AArch64).
 * qemu serves it with `-semihosting-config enable=on,target=native`; it is how the bare-metal
 * test prints its TAP lines and hands its verdict back to `make cross` as the exit status. */
#ifndef IRQSYNC_BM_SEMIHOST_H
#define IRQSYNC_BM_SEMIHOST_H

void sh_puts(const char *s);              /* SYS_WRITE0: a NUL-terminated string to the host */
void sh_putu(unsigned long v);            /* decimal */
void sh_puti(long v);
_Noreturn void sh_exit(int status);       /* SYS_EXIT_EXTENDED: qemu exits with `status` */

#endif

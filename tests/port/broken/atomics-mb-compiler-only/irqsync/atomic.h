/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD <irqsync/atomic.h> (tests/port/broken/, docs/porting.md): smp_mb() is only a
 * compiler barrier -- the classic porting slip of writing barrier() where smp_mb() is meant.
 * The CPU may then still let a load overtake an earlier store (x86's store buffer, Arm), which
 * is the store->load order the tg3 pattern needs (REQ-MM-4, REQ-SYNC-3). mk/port.mk puts this
 * directory first on the include path, so the port and the suite both get it. The port
 * conformance suite must fail "atomics/sb-smp_mb-is-a-full-fence" (hosted, aarch64-smp), and on
 * AArch64 also the instruction check ("MISSING full in pc_atomics_mb").
 */
#ifndef PC_BROKEN_ATOMIC_H
#define PC_BROKEN_ATOMIC_H
#define irqsync_smp_mb irqsync_smp_mb_shipped
#include_next <irqsync/atomic.h>
#undef irqsync_smp_mb

static inline void irqsync_smp_mb(void)
{
	atomic_signal_fence(memory_order_seq_cst);	/* BUG: no CPU fence */
}
#endif

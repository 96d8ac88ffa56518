/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD <irqsync/atomic.h> (tests/port/broken/, docs/porting.md): the relaxed store
 * writes the word as two 16-bit halves -- as a port for a 16-bit bus, or one that copies the
 * word bytewise, might. A concurrent load can see half of the new value (REQ-MM-4: status
 * accesses are single-copy atomic). The port conformance suite must fail
 * "atomics/single-copy-atomic-32-bit" on qemu virt with two CPUs. Not run on the x86 host: its
 * core commits the two halves back to back while it owns the cache line, and another core
 * practically never reads in between (none in 200,000 split stores while writing this), so
 * no bounded run there could be relied on to fail.
 */
#ifndef PC_BROKEN_ATOMIC_H
#define PC_BROKEN_ATOMIC_H
#define irqsync_atomic_set_relaxed irqsync_atomic_set_relaxed_shipped
#include_next <irqsync/atomic.h>
#undef irqsync_atomic_set_relaxed

static inline void irqsync_atomic_set_relaxed(irqsync_atomic_t *v, unsigned int i)
{
	volatile unsigned short *half = (volatile unsigned short *)(void *)&v->counter;

	half[0] = (unsigned short)(i & 0xffffU);	/* BUG: two stores, */
	half[1] = (unsigned short)(i >> 16);		/* a reader may see one */
}
#endif

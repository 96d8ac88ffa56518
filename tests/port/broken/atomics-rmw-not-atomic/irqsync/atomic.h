/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD <irqsync/atomic.h> (tests/port/broken/, docs/porting.md): the read-modify-write
 * operations are an atomic load and an atomic store, not one atomic step -- as a port for a
 * core without exclusives or atomic instructions might write them. Two CPUs that take a ticket
 * at the same time get the same one (REQ-LOCK-1); statistics lose counts. The port conformance
 * suite must fail "atomics/rmw-is-atomic" (hosted, aarch64-smp).
 */
#ifndef PC_BROKEN_ATOMIC_H
#define PC_BROKEN_ATOMIC_H
#define irqsync_atomic_fetch_add_acquire irqsync_atomic_fetch_add_acquire_shipped
#define irqsync_atomic_inc_relaxed irqsync_atomic_inc_relaxed_shipped
#include_next <irqsync/atomic.h>
#undef irqsync_atomic_fetch_add_acquire
#undef irqsync_atomic_inc_relaxed

static inline unsigned int irqsync_atomic_fetch_add_acquire(irqsync_atomic_t *v, unsigned int i)
{
	unsigned int old = atomic_load_explicit(&v->counter, memory_order_acquire);

	atomic_store_explicit(&v->counter, old + i, memory_order_relaxed);	/* BUG: two steps */
	return old;
}

static inline void irqsync_atomic_inc_relaxed(irqsync_atomic_t *v)
{
	atomic_store_explicit(&v->counter,
			      atomic_load_explicit(&v->counter, memory_order_relaxed) + 1U,
			      memory_order_relaxed);				/* BUG: two steps */
}
#endif

/* SPDX-License-Identifier: MIT */
/*
 * irqsync/atomic.h - the atomic operations the core uses, and nothing more.
 *
 * One shared C11 <stdatomic.h> implementation serves the hosted and the
 * bare-metal ports: each is a tiny inline function with the memory order
 * spelled out, so that the ordering assumptions of the model and the proofs
 * (REQ-MM-4) are visible in one place:
 *
 *   irqsync_atomic_read_relaxed     single-copy-atomic load (status word)
 *   irqsync_atomic_read_acquire     load-acquire (ticket lock: LOCK_WAIT)
 *   irqsync_atomic_set_relaxed      single-copy-atomic store (status word)
 *   irqsync_atomic_set_release      store-release (ticket lock: UNLOCK)
 *   irqsync_atomic_fetch_add_acquire  RMW-acquire (ticket lock: LOCK_TICKET)
 *   irqsync_atomic_inc_relaxed      RMW, no ordering (statistics counters)
 *   irqsync_smp_mb                  full fence
 *
 * The core never names _Atomic itself: under Frama-C (__FRAMAC__) and
 * sparse (__CHECKER__) the type is a plain struct and the operations are
 * plain prototypes, whose ACSL contracts (acsl/) are the trusted base
 * (REQ-TCB-2).
 */
#ifndef _IRQSYNC_ATOMIC_H
#define _IRQSYNC_ATOMIC_H

#define IRQSYNC_ATOMIC_INIT(i) { (i) }

#if defined(__FRAMAC__) || defined(__CHECKER__)

typedef struct irqsync_atomic {
	unsigned int counter;
} irqsync_atomic_t;

unsigned int irqsync_atomic_read_relaxed(const irqsync_atomic_t *v);
unsigned int irqsync_atomic_read_acquire(const irqsync_atomic_t *v);
void irqsync_atomic_set_relaxed(irqsync_atomic_t *v, unsigned int i);
void irqsync_atomic_set_release(irqsync_atomic_t *v, unsigned int i);
unsigned int irqsync_atomic_fetch_add_acquire(irqsync_atomic_t *v, unsigned int i);
void irqsync_atomic_inc_relaxed(irqsync_atomic_t *v);
unsigned int irqsync_atomic_xchg(irqsync_atomic_t *v, unsigned int i);
unsigned int irqsync_atomic_dec_return(irqsync_atomic_t *v);
void irqsync_smp_mb(void);

#else /* C11 */

#include <stdatomic.h>

typedef struct irqsync_atomic {
	_Atomic unsigned int counter;
} irqsync_atomic_t;

static inline unsigned int irqsync_atomic_read_relaxed(const irqsync_atomic_t *v)
{
	return atomic_load_explicit(&v->counter, memory_order_relaxed);
}

static inline unsigned int irqsync_atomic_read_acquire(const irqsync_atomic_t *v)
{
	return atomic_load_explicit(&v->counter, memory_order_acquire);
}

static inline void irqsync_atomic_set_relaxed(irqsync_atomic_t *v, unsigned int i)
{
	atomic_store_explicit(&v->counter, i, memory_order_relaxed);
}

static inline void irqsync_atomic_set_release(irqsync_atomic_t *v, unsigned int i)
{
	atomic_store_explicit(&v->counter, i, memory_order_release);
}

static inline unsigned int irqsync_atomic_fetch_add_acquire(irqsync_atomic_t *v,
							    unsigned int i)
{
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_acquire);
}

static inline void irqsync_atomic_inc_relaxed(irqsync_atomic_t *v)
{
	atomic_fetch_add_explicit(&v->counter, 1U, memory_order_relaxed);
}

/* Exchange, fully ordered (the run-pending flag of a handler thread, spec/threaded.md). */
static inline unsigned int irqsync_atomic_xchg(irqsync_atomic_t *v, unsigned int i)
{
	return atomic_exchange_explicit(&v->counter, i, memory_order_seq_cst);
}

/* Decrement, fully ordered; return the new value (the end of a thread episode). */
static inline unsigned int irqsync_atomic_dec_return(irqsync_atomic_t *v)
{
	return atomic_fetch_sub_explicit(&v->counter, 1U, memory_order_seq_cst) - 1U;
}

static inline void irqsync_smp_mb(void)
{
	atomic_thread_fence(memory_order_seq_cst);
}

#endif

/* smp_mb - full memory barrier (the driver's barrier of REQ-SYNC-3). */
#define smp_mb() irqsync_smp_mb()

#endif /* _IRQSYNC_ATOMIC_H */

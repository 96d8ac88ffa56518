/* SPDX-License-Identifier: MIT */
/*
 * irqsync/spinlock.h - a fair (ticket) spinlock.
 *
 * A CPU takes a ticket (atomic fetch-and-add of @next, acquire) and waits
 * until @owner shows it (acquire loads); unlock publishes owner + 1 with a
 * release store.  Tickets are served in the order they were taken
 * (REQ-LOCK-2), and at most one CPU holds the lock (REQ-LOCK-1).  Both
 * counters are unsigned and wrap, which is well defined; a lock supports up
 * to UINT_MAX waiters.
 *
 * The lock does not disable interrupts: a lock also taken by an interrupt
 * handler must be taken with spin_lock_irqsave() (or spin_lock_irq() where
 * interrupts are known to be enabled) by everyone else, or the handler may
 * spin on a lock its own CPU holds.
 */
#ifndef _IRQSYNC_SPINLOCK_H
#define _IRQSYNC_SPINLOCK_H

#include <irqsync/compiler.h>
#include <irqsync/irqflags.h>
#include <irqsync/atomic.h>

typedef struct spinlock {
	irqsync_atomic_t next;	/* next ticket to hand out (LOCK_TICKET) */
	irqsync_atomic_t owner;	/* ticket now being served (LOCK_WAIT, UNLOCK) */
} spinlock_t;

/* Static initialiser: DEFINE_SPINLOCK(name) or spinlock_t l = SPIN_LOCK_UNLOCKED; */
#define SPIN_LOCK_UNLOCKED { IRQSYNC_ATOMIC_INIT(0), IRQSYNC_ATOMIC_INIT(0) }
#define DEFINE_SPINLOCK(name) spinlock_t name = SPIN_LOCK_UNLOCKED

/**
 * spin_lock_init - initialise @lock to unlocked
 * @lock: the lock; no CPU may hold or wait for it
 */
void spin_lock_init(spinlock_t *lock);

/**
 * spin_lock - take @lock, waiting in ticket order
 * @lock: the lock
 */
void spin_lock(spinlock_t *lock) __acquires(lock);

/**
 * spin_unlock - release @lock
 * @lock: a lock the calling CPU holds
 */
void spin_unlock(spinlock_t *lock) __releases(lock);

/**
 * spin_lock_irq - disable local interrupts, then take @lock
 * @lock: the lock
 *
 * Only for callers that know interrupts are enabled (REQ-LOCK-4): its pair
 * spin_unlock_irq() enables them unconditionally.  Debug builds
 * (IRQSYNC_DEBUG) report a call with interrupts disabled as
 * IRQSYNC_WARN_LOCK_IRQ_DISABLED, then proceed (REQ-ERR-6).
 */
void spin_lock_irq(spinlock_t *lock) __acquires(lock);

/**
 * spin_unlock_irq - release @lock, then enable local interrupts
 * @lock: a lock taken with spin_lock_irq()
 */
void spin_unlock_irq(spinlock_t *lock) __releases(lock);

/**
 * irqsync_spin_lock_irqsave - the function behind spin_lock_irqsave()
 * @lock: the lock
 *
 * Return: the interrupt state before the call.
 */
irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock) __acquires(lock);

/**
 * spin_lock_irqsave - save local interrupt state in @flags, disable, take @lock
 * @lock: the lock
 * @flags: an lvalue of type irq_flags_t (anything else does not compile)
 *
 * Safe whatever the interrupt state (REQ-LOCK-3).
 */
#define spin_lock_irqsave(lock, flags) \
	((flags) = irqsync_spin_lock_irqsave(lock))

/**
 * spin_unlock_irqrestore - release @lock, then restore @flags
 * @lock: a lock taken with spin_lock_irqsave()
 * @flags: the state that spin_lock_irqsave() saved
 */
void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags) __releases(lock);

#endif /* _IRQSYNC_SPINLOCK_H */

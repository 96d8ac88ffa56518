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
 * irqsync_spin_wait - the contended path of spin_lock(): wait until @lock serves @ticket
 * @lock: the lock
 * @ticket: the ticket this CPU took
 *
 * Out of line, so that the inline spin_lock() stays short; not for direct use.
 * Return: @ticket, as read (acquire) from @lock's owner.
 */
__cold unsigned int irqsync_spin_wait(spinlock_t *lock, unsigned int ticket);

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
 * spin_lock_irqsave - save local interrupt state in @flags, disable, take @lock
 * @lock: the lock
 * @flags: an lvalue of type irq_flags_t (anything else does not compile)
 *
 * Safe whatever the interrupt state (REQ-LOCK-3).
 */
#define spin_lock_irqsave(lock, flags) \
	((flags) = irqsync_spin_lock_irqsave(lock))

/*
 * The hot paths, written once in <irqsync/spinlock_body.h>:
 *
 * spin_lock(lock) - take @lock, waiting in ticket order
 * spin_unlock(lock) - release @lock, a lock the calling CPU holds
 * irqsync_spin_lock_irqsave(lock) - the function behind spin_lock_irqsave(): save the local
 *	interrupt state, disable, take @lock; returns the state before the call
 * spin_unlock_irqrestore(lock, flags) - release @lock, then restore @flags, the state that
 *	spin_lock_irqsave() saved
 *
 * Inline, except in the builds that must see every step or lock event as a call -- the
 * step-hook and valgrind test builds, Frama-C and sparse -- which call the same bodies
 * compiled out of line in src/core/spinlock.c.
 *
 * The two differ only by the hooks: here (production) each expands to ((void)0) and the
 * linkage is `static inline`; src/core/spinlock.c gives them the step marks and lock events.
 * Nothing else may be defined here alone.  [22-shipped] checks it on the preprocessor's
 * output (tests/shipped/hooks_check.py): each hook line of the bodies expands to exactly
 * ((void)0); every other line, and every macro a user's TU is left with, the same as in the
 * checked builds.
 */
#if defined(IRQSYNC_STEP_HOOKS) || defined(IRQSYNC_VALGRIND) || defined(__FRAMAC__) || \
    defined(__CHECKER__)
#define IRQSYNC_SPIN_INLINE 0
void spin_lock(spinlock_t *lock) __acquires(lock);
void spin_unlock(spinlock_t *lock) __releases(lock);
irq_flags_t irqsync_spin_lock_irqsave(spinlock_t *lock) __acquires(lock);
void spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags) __releases(lock);
#else
#define IRQSYNC_SPIN_INLINE 1
#define IRQSYNC_SPIN_FN static inline
#define IRQSYNC_SPIN_STEP(name) ((void)0)
#define IRQSYNC_SPIN_ACQUIRED(lock) ((void)0)
#define IRQSYNC_SPIN_RELEASED(lock) ((void)0)
#include <irqsync/spinlock_body.h>
#undef IRQSYNC_SPIN_FN
#undef IRQSYNC_SPIN_STEP
#undef IRQSYNC_SPIN_ACQUIRED
#undef IRQSYNC_SPIN_RELEASED
#endif

#endif /* _IRQSYNC_SPINLOCK_H */

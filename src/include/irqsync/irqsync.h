/* SPDX-License-Identifier: MIT */
/*
 * irqsync/irqsync.h - the whole public API.
 *
 *   config.h     sizes and tunables (NR_IRQS, ...)
 *   errno.h      the error codes
 *   compiler.h   sparse annotations
 *   atomic.h     the atomics behind spinlock_t, smp_mb()
 *   irqflags.h   irq_flags_t, local_irq_*()
 *   spinlock.h   spinlock_t, spin_lock*()
 *   interrupt.h  request_irq() ... synchronize_irq(), handle_irq()
 *   warn.h       irqsync_warn() and its hook and counters
 */
#ifndef _IRQSYNC_IRQSYNC_H
#define _IRQSYNC_IRQSYNC_H

#include <irqsync/config.h>
#include <irqsync/errno.h>
#include <irqsync/compiler.h>
#include <irqsync/atomic.h>
#include <irqsync/irqflags.h>
#include <irqsync/spinlock.h>
#include <irqsync/interrupt.h>
#include <irqsync/warn.h>

#endif /* _IRQSYNC_IRQSYNC_H */

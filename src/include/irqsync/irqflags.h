/* SPDX-License-Identifier: MIT */
/*
 * irqsync/irqflags.h - the calling CPU's local interrupt state.
 *
 * irq_flags_t holds a saved interrupt state.  It is a type of its own
 * (REQ-FLAGS-1): a one-member struct, so that storing a save into an int or
 * an unsigned long, or restoring from one, is a compile error with every C
 * compiler, not a warning.  Its member is the port's business (REQ-FLAGS-2):
 * users only save into it and restore from it.
 *
 * Locking rules: these act on the calling CPU only (REQ-LOCK-6).  While the
 * state is "disabled" no interrupt is dispatched on this CPU; one that
 * arrives meanwhile is held by the port and delivered when the state
 * becomes "enabled" again.
 */
#ifndef _IRQSYNC_IRQFLAGS_H
#define _IRQSYNC_IRQFLAGS_H

typedef struct irq_flags {
	unsigned long arch;	/* port-private encoding; do not touch */
} irq_flags_t;

/**
 * irqsync_local_irq_save - disable local interrupts, return the old state
 *
 * The function behind local_irq_save(); call the macro.
 */
irq_flags_t irqsync_local_irq_save(void);

/**
 * local_irq_save - save the local interrupt state into @flags and disable
 * @flags: an lvalue of type irq_flags_t
 *
 * REQ-LOCK-3.  Pair with local_irq_restore(@flags).
 */
#define local_irq_save(flags) ((flags) = irqsync_local_irq_save())

/**
 * local_irq_restore - restore the local interrupt state saved in @flags
 * @flags: a value saved by local_irq_save() or spin_lock_irqsave() on this CPU
 *
 * Restores exactly the saved state, enabled or disabled (REQ-LOCK-3).  An
 * interrupt held while disabled is delivered here if the state becomes
 * enabled (REQ-LOCK-6).
 */
void local_irq_restore(irq_flags_t flags);

/**
 * local_irq_disable - disable local interrupts unconditionally
 */
void local_irq_disable(void);

/**
 * local_irq_enable - enable local interrupts unconditionally
 *
 * Delivers the interrupts held while disabled.  Never call it inside a
 * region that another function entered with local_irq_save(): that region
 * expects interrupts to stay off (REQ-LOCK-4).
 */
void local_irq_enable(void);

/**
 * irqs_disabled - whether local interrupts are disabled on this CPU
 *
 * Return: 1 when disabled, 0 when enabled (REQ-LOCK-6).
 */
int irqs_disabled(void);

#endif /* _IRQSYNC_IRQFLAGS_H */

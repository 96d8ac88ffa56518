/* SPDX-License-Identifier: MIT */
/*
 * irqsync/warn.h - the one reporting channel for misuse (REQ-ERR-7).
 *
 * Every warning is counted per code and passed to a user hook, if set.
 */
#ifndef _IRQSYNC_WARN_H
#define _IRQSYNC_WARN_H

enum irqsync_warn_code {
	IRQSYNC_WARN_UNBALANCED_ENABLE = 0,	/* enable_irq at depth 0 (REQ-DEPTH-4) */
	IRQSYNC_WARN_FREE_UNKNOWN = 1,		/* free_irq of an unknown dev_id (REQ-ERR-3) */
	IRQSYNC_WARN_NOBODY_CARED = 2,		/* spurious line disabled (REQ-DISPATCH-6) */
	IRQSYNC_WARN_LOCK_IRQ_DISABLED = 3,	/* spin_lock_irq with irqs off, debug (REQ-ERR-6) */
	IRQSYNC_WARN_SELF_DEADLOCK = 4,		/* wait on own line from its handler (REQ-ERR-4) */
	IRQSYNC_WARN_NR_CODES
};

/* The irq argument of warnings that concern no line. */
#define IRQSYNC_NO_IRQ (~0U)

/*
 * A warning hook.  It runs on the CPU that detected the misuse, with no
 * lock of the library held but possibly with local interrupts disabled;
 * it must not wait on an interrupt line.
 */
typedef void (*irqsync_warn_hook_t)(enum irqsync_warn_code code, unsigned int irq);

/**
 * irqsync_warn - report a warning: count it, then call the hook
 * @code: what happened
 * @irq:  the line concerned, or IRQSYNC_NO_IRQ
 */
void irqsync_warn(enum irqsync_warn_code code, unsigned int irq);

/**
 * irqsync_set_warn_hook - install @hook (NULL: none)
 *
 * Set it before CPUs use the library; it is not synchronised.
 * Return: the previous hook.
 */
irqsync_warn_hook_t irqsync_set_warn_hook(irqsync_warn_hook_t hook);

/**
 * irqsync_warn_count - how many warnings of @code since irqsync_init()
 *
 * Return: the count, or -IRQSYNC_EINVAL for an unknown code.
 */
long irqsync_warn_count(int code);

#endif /* _IRQSYNC_WARN_H */

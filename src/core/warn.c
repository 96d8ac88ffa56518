/* SPDX-License-Identifier: MIT */
/*
 * warn.c - the reporting channel (REQ-ERR-7): per-code counters and a hook.
 */
#include "internal.h"

static irqsync_atomic_t warn_count[IRQSYNC_WARN_NR_CODES];
static irqsync_warn_hook_t warn_hook;

/* The one call through the hook pointer.
 * Contract: acsl/warn.h (irqsync_call_warn_hook). */
static void irqsync_call_warn_hook(irqsync_warn_hook_t hook,
				   enum irqsync_warn_code code, unsigned int irq)
{
	hook(code, irq);
}

/* Contract: acsl/warn.h (irqsync_warn). */
void irqsync_warn(enum irqsync_warn_code code, unsigned int irq)
{
	irqsync_warn_hook_t hook = warn_hook;

	if ((unsigned int)code >= (unsigned int)IRQSYNC_WARN_NR_CODES)
		return;
	irqsync_atomic_inc_relaxed(&warn_count[code]);
	if (hook)
		irqsync_call_warn_hook(hook, code, irq);
}

/* Contract: acsl/warn.h (irqsync_set_warn_hook). */
irqsync_warn_hook_t irqsync_set_warn_hook(irqsync_warn_hook_t hook)
{
	irqsync_warn_hook_t old = warn_hook;

	warn_hook = hook;
	return old;
}

/* Contract: acsl/warn.h (irqsync_warn_count). */
long irqsync_warn_count(int code)
{
	if (code < 0 || code >= (int)IRQSYNC_WARN_NR_CODES)
		return -IRQSYNC_EINVAL;
	return (long)irqsync_atomic_read_relaxed(&warn_count[code]);
}

/* Called by irqsync_init() only, while no CPU uses the library.
 * Contract: acsl/warn.h (irqsync_warn_reset). */
void irqsync_warn_reset(void)
{
	unsigned int i;

	/*@ loop invariant 0 <= i <= IRQSYNC_WARN_NR_CODES;
	    loop invariant \forall integer c; 0 <= c < i ==>
	      warn_count[c].counter == 0;
	    loop assigns i, warn_count[..];
	    loop variant IRQSYNC_WARN_NR_CODES - i; */
	for (i = 0; i < (unsigned int)IRQSYNC_WARN_NR_CODES; i++)
		irqsync_atomic_set_relaxed(&warn_count[i], 0U);
}

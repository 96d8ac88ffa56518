/* SPDX-License-Identifier: MIT */
/*
 * steps.c - the step hook of test builds (REQ-IMPL-3).  Empty otherwise:
 * a default build contains no hook symbol.
 */
#include "internal.h"

#ifdef IRQSYNC_STEP_HOOKS
static irqsync_step_hook_t step_hook;

#define IRQSYNC_STEP_NAME_(name) #name,
static const char *const step_names[IRQSYNC_NR_STEPS] = {
	IRQSYNC_FOR_EACH_STEP(IRQSYNC_STEP_NAME_)
};

irqsync_step_hook_t irqsync_set_step_hook(irqsync_step_hook_t hook)
{
	irqsync_step_hook_t old = step_hook;

	step_hook = hook;
	return old;
}

const char *irqsync_step_name(enum irqsync_step step)
{
	if ((unsigned int)step >= (unsigned int)IRQSYNC_NR_STEPS)
		return "?";
	return step_names[step];
}

void irqsync_step(enum irqsync_step step, unsigned int irq)
{
	irqsync_step_hook_t hook = step_hook;

	if (hook)
		hook(step, irq);
}
#else
/* ISO C forbids an empty translation unit. */
typedef int irqsync_steps_unused_t;
#endif

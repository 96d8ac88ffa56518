/*
 * debug.c - the IRQSYNC_DEBUG build reports spin_lock_irq with interrupts
 * off (REQ-ERR-6, REQ-LOCK-4) and then behaves as specified.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "unit_util.h"

#ifndef IRQSYNC_DEBUG
#error "build debug.c against the IRQSYNC_DEBUG library, with -DIRQSYNC_DEBUG"
#endif

static int hook_calls, hook_code;

static void hook(enum irqsync_warn_code code, unsigned int irq)
{
	(void)irq;
	hook_calls++;
	hook_code = (int)code;
}

TEST(lock_irq_with_irqs_enabled_is_silent)
{
	DEFINE_SPINLOCK(lock);

	irqsync_init();
	spin_lock_irq(&lock);
	spin_unlock_irq(&lock);
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_LOCK_IRQ_DISABLED), 0);
	CHECK_EQ(hook_calls, 0);
}

TEST(lock_irq_with_irqs_disabled_is_reported)
{
	DEFINE_SPINLOCK(lock);
	irq_flags_t flags;

	irqsync_init();
	local_irq_save(flags);			/* an irqsave region ... */
	spin_lock_irq(&lock);			/* ... the 2007 hazard */
	CHECK_EQ(irqsync_warn_count(IRQSYNC_WARN_LOCK_IRQ_DISABLED), 1);
	CHECK_EQ(hook_calls, 1);
	CHECK_EQ(hook_code, IRQSYNC_WARN_LOCK_IRQ_DISABLED);
	CHECK_EQ(irqs_disabled(), 1);		/* then behaves as specified */
	spin_unlock_irq(&lock);
	CHECK_EQ(irqs_disabled(), 0);		/* enables unconditionally */
	local_irq_restore(flags);
	CHECK_EQ(irqs_disabled(), 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	(void)irqsync_hosted_cpu_attach(0);
	(void)irqsync_set_warn_hook(hook);
	RUN_REQ(lock_irq_with_irqs_enabled_is_silent, "REQ-ERR-6");
	RUN_REQ(lock_irq_with_irqs_disabled_is_reported, "REQ-ERR-6 REQ-LOCK-4");
	return check_done();
}

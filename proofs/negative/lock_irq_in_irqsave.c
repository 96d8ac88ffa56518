/* SPDX-License-Identifier: MIT */
/*
 * proofs/negative/lock_irq_in_irqsave.c - expected proof failure (REQ-LOCK-4).
 *
 * driver_nested() is the 2007 hazard: inside a spin_lock_irqsave() region it takes another
 * lock with spin_lock_irq(); its spin_unlock_irq() would enable interrupts while the outer
 * lock is held, and an interrupt on this CPU could then spin on that lock.  WP must fail the
 * precondition REQ_LOCK_4 of spin_lock_irq (interrupts are off); the code after that call is
 * then dead for WP (its smoke tests fail, which the test accepts), so spin_unlock_irq's own
 * REQ_LOCK_4 is not reached.  driver_good() is the correct nesting (spin_lock inside
 * the irqsave region) and must prove, so the failure is the nesting's, not the set-up's.
 */
#include "../core.c"

/*@ requires \valid(outer) && \initialized(outer) && lock_not_status(outer);
    requires \valid(inner) && \initialized(inner) && lock_not_status(inner);
    requires \separated(outer, inner);
    requires \separated(outer, &irq_desc[0 .. NR_IRQS - 1]) && \separated(inner, &irq_desc[0 .. NR_IRQS - 1]);
    requires cpu_ready && irqs_on && cpu_holds_no_lock && serving_ok && ACSL_INIT;
    assigns ACSL_API_EFFECTS, outer->next.counter, outer->owner.counter,
            inner->next.counter, inner->owner.counter, g_lock_depth;
    ensures g_irqs_enabled == \old(g_irqs_enabled) && g_lock_depth == \old(g_lock_depth);
*/
void driver_nested(spinlock_t *outer, spinlock_t *inner)
{
	irq_flags_t flags;

	spin_lock_irqsave(outer, flags);
	spin_lock_irq(inner);		/* wrong: interrupts are already off */
	spin_unlock_irq(inner);		/* enables them with outer still held */
	spin_unlock_irqrestore(outer, flags);
}

/*@ requires \valid(outer) && \initialized(outer) && lock_not_status(outer);
    requires \valid(inner) && \initialized(inner) && lock_not_status(inner);
    requires \separated(outer, inner);
    requires \separated(outer, &irq_desc[0 .. NR_IRQS - 1]) && \separated(inner, &irq_desc[0 .. NR_IRQS - 1]);
    requires cpu_ready && irqs_on && cpu_holds_no_lock && serving_ok && ACSL_INIT;
    assigns ACSL_API_EFFECTS, outer->next.counter, outer->owner.counter,
            inner->next.counter, inner->owner.counter, g_lock_depth;
    ensures g_irqs_enabled == \old(g_irqs_enabled) && g_lock_depth == \old(g_lock_depth);
*/
void driver_good(spinlock_t *outer, spinlock_t *inner)
{
	irq_flags_t flags;

	spin_lock_irqsave(outer, flags);
	spin_lock(inner);
	spin_unlock(inner);
	spin_unlock_irqrestore(outer, flags);
}

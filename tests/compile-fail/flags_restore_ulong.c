/* REQ-FLAGS-1: restoring from an unsigned long does not compile.
 * expect: incompatible type for argument 2 of .spin_unlock_irqrestore.
 */
#include <irqsync/irqsync.h>

static DEFINE_SPINLOCK(lock);

void f(unsigned long saved);
void f(unsigned long saved)
{
	irq_flags_t flags;

	spin_lock_irqsave(&lock, flags);
#ifdef CONTROL
	(void)saved;
	spin_unlock_irqrestore(&lock, flags);
#else
	(void)flags;
	spin_unlock_irqrestore(&lock, saved);
#endif
}

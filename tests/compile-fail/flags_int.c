/* REQ-FLAGS-1: an int flags variable for spin_lock_irqsave does not compile.
 * expect: incompatible types when assigning to type .int. from type .irq_flags_t
 */
#include <irqsync/irqsync.h>

static DEFINE_SPINLOCK(lock);

void f(void);
void f(void)
{
#ifdef CONTROL
	irq_flags_t flags;
#else
	int flags;
#endif
	spin_lock_irqsave(&lock, flags);
	spin_unlock_irqrestore(&lock, flags);
}

/* REQ-FLAGS-1: a pointer to unsigned long in place of irq_flags_t does not compile.
 * expect: incompatible types when assigning to type .long unsigned int. from type .irq_flags_t
 */
#include <irqsync/irqsync.h>

static DEFINE_SPINLOCK(lock);

void f(void);
void f(void)
{
#ifdef CONTROL
	irq_flags_t store, *flags = &store;
#else
	unsigned long store, *flags = &store;
#endif
	spin_lock_irqsave(&lock, *flags);
	(void)store;
	spin_unlock(&lock);
}

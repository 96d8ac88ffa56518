/* REQ-FLAGS-1: the traditional unsigned long flags for local_irq_save does not compile.
 * expect: incompatible types when assigning to type .long unsigned int. from type .irq_flags_t
 */
#include <irqsync/irqsync.h>

void f(void);
void f(void)
{
#ifdef CONTROL
	irq_flags_t flags;
#else
	unsigned long flags;
#endif
	local_irq_save(flags);
	local_irq_restore(flags);
}

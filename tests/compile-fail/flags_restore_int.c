/* REQ-FLAGS-1: local_irq_restore from an int does not compile.
 * expect: incompatible type for argument 1 of .local_irq_restore.
 */
#include <irqsync/irqsync.h>

void f(int saved);
void f(int saved)
{
	irq_flags_t flags;

	local_irq_save(flags);
#ifdef CONTROL
	(void)saved;
	local_irq_restore(flags);
#else
	(void)flags;
	local_irq_restore(saved);
#endif
}

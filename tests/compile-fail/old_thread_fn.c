/* REQ-HANDLER-1, REQ-THREAD-2: a thread function with the old (int irq, void *dev_id) prototype does
 * not register either; the control also passes the driver form "cond ? NULL : handler".
 * expect: _Generic. selector of type .irqreturn_t \(\*\)\(int, *void \*\)
 */
#include <stddef.h>
#include <irqsync/irqsync.h>

static irqreturn_t my_primary(void *dev_id)
{
	(void)dev_id;
	return IRQ_WAKE_THREAD;
}

#ifdef CONTROL
static irqreturn_t my_thread(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}
#else
static irqreturn_t my_thread(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_HANDLED;
}
#endif

int f(int level);
int f(int level)
{
	static int dev;

	return request_threaded_irq(3, level ? NULL : my_primary, my_thread,
				    level ? IRQF_ONESHOT : 0UL, "old", &dev);
}

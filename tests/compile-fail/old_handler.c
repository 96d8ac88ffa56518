/* REQ-HANDLER-1: a handler with the old (int irq, void *dev_id) prototype does not register.
 * expect: _Generic. selector of type .irqreturn_t \(\*\)\(int, *void \*\)
 */
#include <irqsync/irqsync.h>

#ifdef CONTROL
static irqreturn_t my_handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}
#else
static irqreturn_t my_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQ_HANDLED;
}
#endif

int f(void);
int f(void)
{
	static int dev;

	return request_irq(3, my_handler, 0, "old", &dev);
}

/* Bad and not compiling: a port in progress. The handler is defined elsewhere;
 * only its old declaration is here, so the request_irq call is reported.
 * [REQ-HANDLER-1] */
#include <irqsync/irqsync.h>

irqreturn_t legacy_timer_interrupt(int irq, void *dev_id);

int legacy_timer_init(void *dev);
int legacy_timer_init(void *dev)
{
	return request_irq(0, legacy_timer_interrupt, 0, "timer", dev);	/* expect: cocci/old-handler */
}

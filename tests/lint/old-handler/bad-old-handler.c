/* Bad: handlers still written for the kernel prototype that took the irq number.
 * Each "expect:" line must be reported by cocci/old-handler. [REQ-HANDLER-1] */
#include <irqsync/irqsync.h>

struct keypad {
	unsigned int irq;
	unsigned int presses;
};

/* Cast to irq_handler_t to "fix" the compile error during a port: it compiles,
 * and the handler then takes its dev_id from the irq slot. */
static irqreturn_t keypad_irq(int irq, void *dev_id)	/* expect: cocci/old-handler */
{
	struct keypad *k = dev_id;

	(void)irq;
	k->presses++;
	return IRQ_HANDLED;
}

/* An unsigned irq parameter is the same mistake. */
static irqreturn_t keypad_wake(unsigned int irq, void *dev_id)	/* expect: cocci/old-handler */
{
	struct keypad *k = dev_id;

	k->presses += irq;
	return IRQ_HANDLED;
}

int keypad_probe(struct keypad *k);
int keypad_probe(struct keypad *k)
{
	int err = request_irq(k->irq, (irq_handler_t)keypad_irq, 0, "keypad", k);

	if (err)
		return err;
	return request_irq(k->irq + 1, (irq_handler_t)(void *)keypad_wake, 0, "keypad-wake", k);
}

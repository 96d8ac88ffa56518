/* Good: handlers with the irqsync prototype; the one that needs its line asks
 * get_irqfunc_irq(). A non-handler function taking (int, void *) is not a
 * handler and is not reported. Nothing here may be reported. [REQ-HANDLER-1] */
#include <irqsync/irqsync.h>

struct keypad {
	unsigned int irq;
	unsigned int presses;
	int last_line;
};

static irqreturn_t keypad_irq(void *dev_id)
{
	struct keypad *k = dev_id;

	k->presses++;
	k->last_line = get_irqfunc_irq();
	return IRQ_HANDLED;
}

/* Same shape as an old handler, but never registered: a helper. */
static int keypad_scan(int row, void *dev_id)
{
	struct keypad *k = dev_id;

	return row + (int)k->presses;
}

int keypad_probe(struct keypad *k);
int keypad_probe(struct keypad *k)
{
	if (keypad_scan(0, k) < 0)
		return -1;
	return request_irq(k->irq, keypad_irq, IRQF_SHARED, "keypad", k);
}

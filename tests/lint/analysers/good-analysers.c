/* Good: the result of request_irq is used, flags are saved before they are
 * restored. Nothing here may be reported. [REQ-IMPL-2] [REQ-LOCK-3] */
#include <irqsync/irqsync.h>

struct led {
	unsigned int irq;
	unsigned int blinks;
};

static irqreturn_t led_handler(void *dev_id)
{
	struct led *l = dev_id;

	l->blinks++;
	return IRQ_HANDLED;
}

int led_probe(struct led *l);
int led_probe(struct led *l)
{
	int err = request_irq(l->irq, led_handler, 0, "led", l);

	if (err)
		return err;
	l->blinks = 0;
	return 0;
}

void led_quiet(struct led *l);
void led_quiet(struct led *l)
{
	irq_flags_t flags;

	local_irq_save(flags);
	l->blinks = 0;
	local_irq_restore(flags);
}

/* Bad: handlers that wait for their own line. Each "expect:" line must be
 * reported by cocci/self-wait. [REQ-ERR-4] */
#include <irqsync/irqsync.h>

#define TIMER_IRQ 5

struct sensor {
	unsigned int irq;
	unsigned int samples;
	int broken;
};

/* the same constant expression as in request_irq */
static irqreturn_t timer_handler(void *dev_id)
{
	struct sensor *s = dev_id;

	s->samples++;
	if (s->samples > 1000)
		(void)disable_irq(TIMER_IRQ);		/* expect: cocci/self-wait */
	return IRQ_HANDLED;
}

/* the line is the irq field of the dev_id object (the tg3 shape) */
static irqreturn_t sensor_handler(void *dev_id)
{
	struct sensor *s = dev_id;

	if (s->broken) {
		(void)synchronize_irq(s->irq);		/* expect: cocci/self-wait */
		(void)free_irq(s->irq, s);		/* expect: cocci/self-wait */
		return IRQ_NONE;
	}
	s->samples++;
	return IRQ_HANDLED;
}

/* the line the handler is serving, asked from the core */
irqreturn_t spare_handler(void *dev_id);
irqreturn_t spare_handler(void *dev_id)
{
	int line = get_irqfunc_irq();
	struct sensor *s = dev_id;

	if (s->broken)
		(void)disable_irq((unsigned int)get_irqfunc_irq());	/* expect: cocci/self-wait */
	if (line >= 0 && s->samples == 0)
		(void)synchronize_irq((unsigned int)line);	/* expect: cocci/self-wait */
	return IRQ_HANDLED;
}

int sensor_probe(struct sensor *sn);
int sensor_probe(struct sensor *sn)
{
	int err;

	err = request_irq(TIMER_IRQ, timer_handler, 0, "timer", sn);
	if (err)
		return err;
	return request_irq(sn->irq, sensor_handler, 0, "sensor", sn);
}

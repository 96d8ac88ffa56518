/* Good: waiting for a line from outside its handler, disable_irq_nosync in the
 * handler, and waiting for a different line from a handler. Nothing here may be
 * reported. [REQ-ERR-4] */
#include <irqsync/irqsync.h>

#define TIMER_IRQ 5
#define WATCHDOG_IRQ 6

struct sensor {
	unsigned int irq;
	unsigned int child_irq;
	unsigned int samples;
	int broken;
};

static irqreturn_t timer_handler(void *dev_id)
{
	struct sensor *s = dev_id;

	/* disable_irq_nosync does not wait: allowed in the line's own handler */
	if (++s->samples > 1000)
		(void)disable_irq_nosync(TIMER_IRQ);
	/* another line: waiting for it from here is allowed */
	if (s->broken)
		(void)disable_irq(WATCHDOG_IRQ);
	return IRQ_HANDLED;
}

static irqreturn_t sensor_handler(void *dev_id)
{
	struct sensor *s = dev_id;

	if (s->broken) {
		(void)disable_irq_nosync(s->irq);
		(void)synchronize_irq(s->child_irq);	/* a different line */
		return IRQ_NONE;
	}
	s->samples++;
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

/* Process context: the usual teardown. */
void sensor_remove(struct sensor *sn);
void sensor_remove(struct sensor *sn)
{
	sn->broken = 1;
	(void)synchronize_irq(sn->irq);
	(void)free_irq(sn->irq, sn);
	(void)disable_irq(TIMER_IRQ);
	(void)free_irq(TIMER_IRQ, sn);
}

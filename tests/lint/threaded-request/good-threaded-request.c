/* Good: threaded requests the core accepts (spec/threaded.md section 1, REQ-THREAD-2),
 * and one whose flags the rule cannot see. Nothing here may be reported. */
#include <stddef.h>
#include <irqsync/irqsync.h>
#include "threaded_api.h"

struct codec {
	struct device *dev;
	unsigned int irq;
	unsigned int jack_irq;
	unsigned int events;
	int level_triggered;
};

static irqreturn_t codec_hard(void *dev_id)
{
	struct codec *c = dev_id;

	c->events++;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t codec_thread(void *dev_id)
{
	struct codec *c = dev_id;

	c->events = 0;
	return IRQ_HANDLED;
}

int codec_probe(struct codec *c);
int codec_probe(struct codec *c)
{
	unsigned long flags = 0;
	int err;

	/* NULL primary with IRQF_ONESHOT: the default primary, the line masked until the thread ran */
	err = request_threaded_irq(c->irq, NULL, codec_thread, IRQF_ONESHOT, "codec", c);
	if (err)
		return err;
	/* a primary that quiets the device: no ONESHOT needed */
	err = request_threaded_irq(c->jack_irq, codec_hard, codec_thread, IRQF_SHARED, "jack", c);
	if (err)
		return err;
	/* a primary and a thread, ONESHOT */
	err = request_threaded_irq(7, codec_hard, codec_thread, IRQF_SHARED | IRQF_ONESHOT, "c7", c);
	if (err)
		return err;
	/* no thread, no ONESHOT: request_irq() spelled out */
	err = request_threaded_irq(8, codec_hard, NULL, 0, "c8", c);
	if (err)
		return err;
	/* flags in a variable: not judged (here they are right) */
	if (c->level_triggered)
		flags |= IRQF_ONESHOT;
	err = request_threaded_irq(9, c->level_triggered ? NULL : codec_hard, codec_thread, flags, "c9", c);
	if (err)
		return err;
	err = request_irq(10, codec_hard, IRQF_SHARED, "c10", c);
	if (err)
		return err;
	/* device-managed, with trigger flags and ONESHOT */
	return devm_request_threaded_irq(c->dev, 11, NULL, codec_thread,
					 IRQF_TRIGGER_LOW | IRQF_ONESHOT, "c11", c);
}

/* Bad: threaded requests the core refuses (spec/threaded.md section 1, REQ-THREAD-2).
 * Each "expect:" line must be reported by cocci/threaded-request: (a) a NULL primary
 * handler without IRQF_ONESHOT, (b) IRQF_ONESHOT without a thread function; the marker
 * says which (tests/suites/60-lint.sh checks the message of each kind). */
#include <stddef.h>
#include <irqsync/irqsync.h>
#include "threaded_api.h"

struct codec {
	struct device *dev;
	unsigned int irq;
	unsigned int jack_irq;
	unsigned int events;
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

/* (a) NULL primary, flags that do not contain IRQF_ONESHOT */
int codec_probe_a(struct codec *c);
int codec_probe_a(struct codec *c)
{
	int err;

	err = request_threaded_irq(c->irq, NULL, codec_thread, 0, "codec", c);	/* expect: cocci/threaded-request (a) */
	if (err)
		return err;
	err = request_threaded_irq(c->jack_irq, NULL, codec_thread, IRQF_SHARED, "jack", c);	/* expect: cocci/threaded-request (a) */
	if (err)
		return err;
	err = request_threaded_irq(7, (irq_handler_t)NULL, codec_thread, (0), "c7", c);	/* expect: cocci/threaded-request (a) */
	if (err)
		return err;
	/* device-managed, with trigger flags, no ONESHOT */
	return devm_request_threaded_irq(c->dev, c->irq, NULL, codec_thread,	/* expect: cocci/threaded-request (a) */
					 IRQF_TRIGGER_LOW | IRQF_SHARED, "codec", c);
}

/* (b) IRQF_ONESHOT, no thread function */
int codec_probe_b(struct codec *c);
int codec_probe_b(struct codec *c)
{
	int err;

	err = request_threaded_irq(c->irq, codec_hard, NULL, IRQF_ONESHOT, "codec", c);	/* expect: cocci/threaded-request (b) */
	if (err)
		return err;
	err = devm_request_threaded_irq(c->dev, c->jack_irq, codec_hard, NULL,	/* expect: cocci/threaded-request (b) */
					(IRQF_SHARED | IRQF_ONESHOT), "jack", c);
	if (err)
		return err;
	/* no handler at all */
	err = request_threaded_irq(8, NULL, NULL, IRQF_ONESHOT, "c8", c);	/* expect: cocci/threaded-request (b) */
	if (err)
		return err;
	/* request_irq is request_threaded_irq with no thread function */
	return request_irq(9, codec_hard, IRQF_ONESHOT | IRQF_SHARED, "c9", c);	/* expect: cocci/threaded-request (b) */
}

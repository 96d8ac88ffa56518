/* Bad: mistakes cppcheck and clang-tidy find with the committed configuration
 * (lint/cppcheck/irqsync.cfg, lint/clang-tidy.yaml). Each "expect:" line must be
 * reported by the tools named. [REQ-IMPL-2] [REQ-LIFECYCLE-1] [REQ-LOCK-3] */
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

/* request_irq is __must_check: ignoring it leaves a dead device unnoticed. */
void led_probe(struct led *l);
void led_probe(struct led *l)
{
	request_irq(l->irq, led_handler, 0, "led", l);	/* expect: cppcheck/ignoredReturnValue clang-tidy/clang-diagnostic-unused-result */
}

/* Restoring a state that was never saved: the flags hold garbage. */
void led_quiet(struct led *l);
void led_quiet(struct led *l)
{
	irq_flags_t flags;

	l->blinks = 0;
	local_irq_restore(flags);	/* expect: cppcheck/uninitvar clang-tidy/clang-analyzer-core.CallAndMessage */
}

/* An assignment used as a condition: kernel style is `err = request_irq(...); if (err)`.
 * clang offers two fix-its, parentheses (keep the assignment) or '==' (compare), and
 * `make lint FORMAT=sarif` carries both as the result's fixes. */
int led_attach(struct led *l);
int led_attach(struct led *l)
{
	int err;

	if (err = request_irq(l->irq, led_handler, 0, "led", l))	/* expect: clang-tidy/clang-diagnostic-parentheses sparse/warning */
		return err;
	return 0;
}

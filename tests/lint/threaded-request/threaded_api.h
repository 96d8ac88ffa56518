/* threaded_api.h - the Linux habits the example drivers of tests/lint/threaded-request/ use
 * beside <irqsync/interrupt.h>'s threaded API, which the rule must know: a device-managed
 * request and trigger flags (names only). */
#ifndef THREADED_API_H
#define THREADED_API_H
#include <stddef.h>
#include <irqsync/irqsync.h>

/* Linux driver habits: a device-managed request and trigger flags (names only) */
#define IRQF_TRIGGER_LOW	0x00000008UL
struct device;
int __must_check devm_request_threaded_irq(struct device *dev, unsigned int irq,
					   irq_handler_t handler, irq_handler_t thread_fn,
					   unsigned long flags, const char *name, void *dev_id);

#endif

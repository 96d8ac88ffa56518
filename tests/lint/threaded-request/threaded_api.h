/* threaded_api.h - the threaded API as the example drivers of tests/lint/threaded-request/ use
 * it: spec/threaded.md section 1's, for as long as <irqsync/interrupt.h> does not declare it yet
 * (issue 25), and the Linux habits the rule must know (a device-managed request, trigger
 * flags). */
#ifndef THREADED_API_H
#define THREADED_API_H
#include <stddef.h>
#include <irqsync/irqsync.h>

#ifndef IRQF_ONESHOT
#define IRQF_ONESHOT	0x00002000UL
#define IRQ_WAKE_THREAD	((irqreturn_t)2)
int __must_check request_threaded_irq(unsigned int irq, irq_handler_t handler,
				      irq_handler_t thread_fn, unsigned long flags,
				      const char *name, void *dev_id);
#endif

/* Linux driver habits: a device-managed request and trigger flags (names only) */
#define IRQF_TRIGGER_LOW	0x00000008UL
struct device;
int __must_check devm_request_threaded_irq(struct device *dev, unsigned int irq,
					   irq_handler_t handler, irq_handler_t thread_fn,
					   unsigned long flags, const char *name, void *dev_id);

#endif

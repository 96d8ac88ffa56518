/* Corpus: free_irq() and synchronize_irq() of the handler's own line, in
 * helpers it calls. [REQ-ERR-4]
 * Source: reduction of the pattern, commit not located. The kernel's own
 * free_irq() comment once said it "may be called from interrupt context";
 * Russell King's note "free_irq" (linux-kernel, 2002-09-29) showed that
 * freeing line n from a handler of line n deadlocks in synchronize_irq(n),
 * and the comment was changed to forbid it. The shapes: a fatal-error path of
 * the handler tears the device down through a helper, with the line reached
 * as a field of the dev_id object, passed on and copied; and a watchdog helper
 * handed the line number from get_irqfunc_irq(). */
#include <irqsync/irqsync.h>

struct wdt_dev {
	unsigned int irq;
	unsigned int status;
	int dead;
};

#define WDT_FATAL 0x1u

static void wdt_quiesce(struct wdt_dev *w)
{
	struct wdt_dev *d = w;

	(void)synchronize_irq(d->irq);		/* expect: cocci/self-wait */
}

static void wdt_teardown(struct wdt_dev *w)
{
	w->dead = 1;
	wdt_quiesce(w);
	(void)free_irq(w->irq, w);		/* expect: cocci/self-wait */
}

static void wdt_mask_line(unsigned int line)
{
	(void)disable_irq(line);		/* expect: cocci/self-wait */
}

static irqreturn_t wdt_interrupt(void *dev_id)
{
	struct wdt_dev *w = dev_id;

	if (w->status & WDT_FATAL) {
		wdt_teardown(w);
		return IRQ_HANDLED;
	}
	if (w->status > 100)
		wdt_mask_line((unsigned int)get_irqfunc_irq());
	return IRQ_HANDLED;
}

int wdt_probe(struct wdt_dev *w);
int wdt_probe(struct wdt_dev *w)
{
	return request_irq(w->irq, wdt_interrupt, 0, "wdt", w);
}

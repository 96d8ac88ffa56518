/* Bad, and not safe to rewrite automatically: the lock is taken in a handler
 * but released on some paths only (an early return leaves it held), so the
 * patch mode must leave it alone; the report stays. sparse sees the leak too.
 * [REQ-LOCK-4] [REQ-LOCK-5] */
#include <irqsync/irqsync.h>

struct dma {
	spinlock_t lock;
	unsigned int busy;
};

irqreturn_t dma_handler(void *dev_id);
irqreturn_t dma_handler(void *dev_id)		/* expect: sparse/context */
{
	struct dma *d = dev_id;

	spin_lock_irq(&d->lock);		/* expect: cocci/spin-lock-irq */
	if (!d->busy)
		return IRQ_NONE;
	d->busy = 0;
	spin_unlock_irq(&d->lock);		/* expect: cocci/spin-lock-irq */
	return IRQ_HANDLED;
}

/* Good: spin_lock_irq where interrupts are known to be enabled (process
 * context, after the irqsave region has ended), spin_lock in a handler, and
 * irqsave nesting. Nothing here may be reported. [REQ-LOCK-4] */
#include <irqsync/irqsync.h>

struct ring {
	spinlock_t lock;
	spinlock_t stats_lock;
	unsigned int head, tail, drops;
	unsigned int irq;
};

/* Process context with interrupts enabled: spin_lock_irq is right here. */
void ring_reset(struct ring *r);
void ring_reset(struct ring *r)
{
	spin_lock_irq(&r->lock);
	r->head = r->tail = 0;
	spin_unlock_irq(&r->lock);
}

/* The irqsave region ends before spin_lock_irq begins. */
void ring_drop(struct ring *r);
void ring_drop(struct ring *r)
{
	irq_flags_t flags;

	spin_lock_irqsave(&r->lock, flags);
	r->tail++;
	spin_unlock_irqrestore(&r->lock, flags);

	spin_lock_irq(&r->stats_lock);
	r->drops++;
	spin_unlock_irq(&r->stats_lock);
}

/* Nested irqsave regions restore exactly what they saved. */
void ring_move(struct ring *r);
void ring_move(struct ring *r)
{
	irq_flags_t outer, inner;

	spin_lock_irqsave(&r->lock, outer);
	spin_lock_irqsave(&r->stats_lock, inner);
	r->drops = r->tail - r->head;
	spin_unlock_irqrestore(&r->stats_lock, inner);
	spin_unlock_irqrestore(&r->lock, outer);
}

/* Two spin_lock_irq sections one after the other, not nested. */
void ring_twice(struct ring *r);
void ring_twice(struct ring *r)
{
	spin_lock_irq(&r->lock);
	r->head++;
	spin_unlock_irq(&r->lock);
	spin_lock_irq(&r->stats_lock);
	r->drops++;
	spin_unlock_irq(&r->stats_lock);
}

/* A handler already runs with interrupts disabled: plain spin_lock. */
static irqreturn_t ring_handler(void *dev_id)
{
	struct ring *r = dev_id;

	spin_lock(&r->lock);
	r->head++;
	spin_unlock(&r->lock);
	return IRQ_HANDLED;
}

int ring_open(struct ring *r);
int ring_open(struct ring *r)
{
	return request_irq(r->irq, ring_handler, 0, "ring", r);
}

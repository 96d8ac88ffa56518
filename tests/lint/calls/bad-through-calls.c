/* Bad: what only calls reach - a helper called inside an irqsave region of
 * process code (and also, harmlessly, after it: one caller with interrupts
 * off is enough), a helper's helper, and local_irq_enable() in a helper of a
 * handler, which has no automatic fix (lint-fix leaves it, reported, with the
 * reason in the message). [REQ-LOCK-4] */
#include <irqsync/irqsync.h>

struct fifo {
	spinlock_t lock, stats_lock;
	unsigned int irq;
	unsigned int head, tail, resets;
};

static void fifo_count_reset(struct fifo *q)
{
	spin_lock_irq(&q->stats_lock);		/* expect: cocci/spin-lock-irq */
	q->resets++;
	spin_unlock_irq(&q->stats_lock);	/* expect: cocci/spin-lock-irq */
}

static void fifo_reset(struct fifo *q)
{
	q->head = q->tail = 0;
	fifo_count_reset(q);
}

void fifo_flush(struct fifo *q);
void fifo_flush(struct fifo *q)
{
	irq_flags_t flags;

	spin_lock_irqsave(&q->lock, flags);
	fifo_reset(q);
	spin_unlock_irqrestore(&q->lock, flags);
	fifo_reset(q);
}

static void fifo_slow_path(struct fifo *q)
{
	local_irq_enable();			/* expect: cocci/spin-lock-irq */
	q->tail++;
}

static irqreturn_t fifo_irq(void *dev_id)
{
	struct fifo *q = dev_id;

	if (q->head == q->tail)
		fifo_slow_path(q);
	return IRQ_HANDLED;
}

int fifo_open(struct fifo *q);
int fifo_open(struct fifo *q)
{
	return request_irq(q->irq, fifo_irq, 0, "fifo", q);
}

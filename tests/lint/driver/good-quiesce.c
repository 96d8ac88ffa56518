/* Good: a small network-style driver written the irqsync way - the tg3 quiesce
 * pattern (flag, barrier, synchronize_irq), a shared line, a handler that takes
 * its lock with spin_lock, process context with spin_lock_irq, a helper that
 * hands a lock over with annotations, teardown in the right order.
 * Nothing here may be reported by any tool.
 * [REQ-SYNC-3] [REQ-LOCK-4] [REQ-LOCK-5] [REQ-FLAGS-1] [REQ-HANDLER-1] [REQ-ERR-4] */
#include <irqsync/irqsync.h>

struct qdev {
	spinlock_t lock;		/* protects rx_pending, stats */
	unsigned int irq;
	volatile int irq_sync;		/* 1: the handler must not touch the rings */
	unsigned int rx_pending;
	unsigned long stats;
};

static irqreturn_t qdev_interrupt(void *dev_id)
{
	struct qdev *q = dev_id;

	if (q->irq_sync)
		return IRQ_NONE;	/* quiescing: leave the work to the caller */
	spin_lock(&q->lock);		/* interrupts are already off in a handler */
	q->rx_pending++;
	q->stats++;
	spin_unlock(&q->lock);
	return IRQ_HANDLED;
}

/* Process context, interrupts enabled: spin_lock_irq is fine here. */
static unsigned int qdev_poll(struct qdev *q)
{
	unsigned int n;

	spin_lock_irq(&q->lock);
	n = q->rx_pending;
	q->rx_pending = 0;
	spin_unlock_irq(&q->lock);
	return n;
}

/* Callable with interrupts on or off: irqsave. */
unsigned long qdev_stats(struct qdev *q);
unsigned long qdev_stats(struct qdev *q)
{
	irq_flags_t flags;
	unsigned long s;

	spin_lock_irqsave(&q->lock, flags);
	s = q->stats;
	spin_unlock_irqrestore(&q->lock, flags);
	return s;
}

/* tg3_irq_quiesce: after it returns, no handler instance sees irq_sync == 0. */
static int qdev_quiesce(struct qdev *q)
{
	q->irq_sync = 1;
	smp_mb();
	return synchronize_irq(q->irq);
}

static void qdev_lock_both(struct qdev *q)
	__acquires(&q->lock)
{
	(void)qdev_quiesce(q);
	spin_lock_irq(&q->lock);
}

static void qdev_unlock_both(struct qdev *q)
	__releases(&q->lock)
{
	spin_unlock_irq(&q->lock);
	q->irq_sync = 0;
}

void qdev_reset(struct qdev *q);
void qdev_reset(struct qdev *q)
{
	qdev_lock_both(q);
	q->rx_pending = 0;
	q->stats = 0;
	qdev_unlock_both(q);
}

int qdev_open(struct qdev *q);
int qdev_open(struct qdev *q)
{
	int err;

	spin_lock_init(&q->lock);
	q->irq_sync = 0;
	err = request_irq(q->irq, qdev_interrupt, IRQF_SHARED, "qdev", q);
	if (err)
		return err;
	(void)qdev_poll(q);
	return 0;
}

int qdev_close(struct qdev *q);
int qdev_close(struct qdev *q)
{
	int err = disable_irq(q->irq);	/* waits for a running handler */

	if (err)
		return err;
	err = free_irq(q->irq, q);
	if (err)
		return err;
	return 0;
}

/* Bad: spin_lock_irq inside regions that already run with interrupts disabled.
 * Each "expect:" line must be reported by cocci/spin-lock-irq; `make lint-fix`
 * rewrites the pairs to irqsave/irqrestore and the result compiles. [REQ-LOCK-4] */
#include <irqsync/irqsync.h>

struct ring {
	spinlock_t lock;
	spinlock_t stats_lock;
	unsigned int head, tail, drops;
};

/* The 2007 hazard: the inner spin_unlock_irq re-enables interrupts while
 * ring->lock is still held with the caller believing they are off. */
void ring_drop(struct ring *r);
void ring_drop(struct ring *r)
{
	irq_flags_t flags;

	spin_lock_irqsave(&r->lock, flags);
	r->tail++;
	spin_lock_irq(&r->stats_lock);		/* expect: cocci/spin-lock-irq */
	r->drops++;
	spin_unlock_irq(&r->stats_lock);	/* expect: cocci/spin-lock-irq */
	spin_unlock_irqrestore(&r->lock, flags);
}

void ring_reset(struct ring *r);
void ring_reset(struct ring *r)
{
	irq_flags_t flags;

	local_irq_save(flags);
	if (r->head != r->tail) {
		spin_lock_irq(&r->lock);	/* expect: cocci/spin-lock-irq */
		r->head = r->tail = 0;
		spin_unlock_irq(&r->lock);	/* expect: cocci/spin-lock-irq */
	}
	local_irq_restore(flags);
}

/* Nested spin_lock_irq: the inner unlock enables interrupts with r->lock held. */
void ring_flush(struct ring *r);
void ring_flush(struct ring *r)
{
	spin_lock_irq(&r->lock);
	spin_lock_irq(&r->stats_lock);		/* expect: cocci/spin-lock-irq */
	r->drops = 0;
	spin_unlock_irq(&r->stats_lock);	/* expect: cocci/spin-lock-irq */
	spin_unlock_irq(&r->lock);
}

/* Inside a local_irq_disable()/local_irq_enable() region. */
void ring_poll_off(struct ring *r);
void ring_poll_off(struct ring *r)
{
	local_irq_disable();
	spin_lock_irq(&r->lock);		/* expect: cocci/spin-lock-irq */
	r->head++;
	spin_unlock_irq(&r->lock);		/* expect: cocci/spin-lock-irq */
	local_irq_enable();
}

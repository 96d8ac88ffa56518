/* Good: atomic words used only through <irqsync/atomic.h>; a `counter` member
 * of a struct of the driver's own is not an atomic word and is not reported
 * by cocci/atomic-opaque.  [REQ-MM-4] [REQ-TCB-2] */
#include <irqsync/irqsync.h>

struct ring {
	spinlock_t lock;
	irqsync_atomic_t head;
	unsigned int counter;		/* plain, under the lock */
};

static irqsync_atomic_t ring_drops;

void ring_reset(struct ring *r);
void ring_reset(struct ring *r)
{
	irqsync_atomic_set_relaxed(&r->head, 0U);
	irqsync_atomic_set_relaxed(&ring_drops, 0U);
	spin_lock(&r->lock);
	r->counter = 0U;
	spin_unlock(&r->lock);
}

void ring_drop(void);
void ring_drop(void)
{
	irqsync_atomic_inc_relaxed(&ring_drops);
}

unsigned int ring_peek(const struct ring *r);
unsigned int ring_peek(const struct ring *r)
{
	return irqsync_atomic_read_acquire(&r->head);
}

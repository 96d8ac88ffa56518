/* Bad: lock context imbalances sparse finds through the __acquires/__releases
 * annotations of the irqsync headers. Each "expect:" line must be reported by
 * sparse (rule sparse/context). [REQ-LOCK-5] */
#include <irqsync/irqsync.h>

struct fifo {
	spinlock_t lock;
	unsigned int len;
	unsigned char buf[64];
};

/* The early return leaves the lock held. sparse names the function. */
int fifo_put(struct fifo *f, unsigned char c);
int fifo_put(struct fifo *f, unsigned char c)	/* expect: sparse/context */
{
	irq_flags_t flags;

	spin_lock_irqsave(&f->lock, flags);
	if (f->len == sizeof(f->buf))
		return -IRQSYNC_EBUSY;
	f->buf[f->len++] = c;
	spin_unlock_irqrestore(&f->lock, flags);
	return 0;
}

/* An unlock of a lock this function never took (sparse names the function). */
void fifo_drain(struct fifo *f);
void fifo_drain(struct fifo *f)			/* expect: sparse/context */
{
	f->len = 0;
	spin_unlock(&f->lock);
}

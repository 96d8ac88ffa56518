/* Good: every path releases what it took, and the helpers that hand a lock
 * over say so with __acquires/__releases. Nothing here may be reported.
 * [REQ-LOCK-5] */
#include <irqsync/irqsync.h>

struct fifo {
	spinlock_t lock;
	unsigned int len;
	unsigned char buf[64];
};

int fifo_put(struct fifo *f, unsigned char c);
int fifo_put(struct fifo *f, unsigned char c)
{
	irq_flags_t flags;
	int ret = 0;

	spin_lock_irqsave(&f->lock, flags);
	if (f->len == sizeof(f->buf))
		ret = -IRQSYNC_EBUSY;
	else
		f->buf[f->len++] = c;
	spin_unlock_irqrestore(&f->lock, flags);
	return ret;
}

/* A lock handed from one function to another, annotated like the core's. */
void fifo_lock(struct fifo *f) __acquires(&f->lock);
void fifo_lock(struct fifo *f)
	__acquires(&f->lock)
{
	spin_lock(&f->lock);
}

void fifo_unlock(struct fifo *f) __releases(&f->lock);
void fifo_unlock(struct fifo *f)
	__releases(&f->lock)
{
	spin_unlock(&f->lock);
}

void fifo_clear(struct fifo *f);
void fifo_clear(struct fifo *f)
{
	fifo_lock(f);
	f->len = 0;
	fifo_unlock(f);
}

/* Good: helpers with spin_lock_irq and waits on the line that no handler and
 * no interrupts-off region reaches through calls: called only from process
 * context, after the irqsave region has ended. Nothing may be reported.
 * [REQ-LOCK-4] [REQ-ERR-4] */
#include <irqsync/irqsync.h>

struct pipe {
	spinlock_t lock;
	unsigned int irq;
	unsigned int fill;
};

static void pipe_drain(struct pipe *p)
{
	spin_lock_irq(&p->lock);
	p->fill = 0;
	spin_unlock_irq(&p->lock);
}

static void pipe_stop(struct pipe *p)
{
	(void)disable_irq(p->irq);
	pipe_drain(p);
}

void pipe_close(struct pipe *p);
void pipe_close(struct pipe *p)
{
	irq_flags_t flags;

	spin_lock_irqsave(&p->lock, flags);
	p->fill++;
	spin_unlock_irqrestore(&p->lock, flags);
	pipe_stop(p);
	(void)free_irq(p->irq, p);
}

static irqreturn_t pipe_irq(void *dev_id)
{
	struct pipe *p = dev_id;

	spin_lock(&p->lock);
	p->fill++;
	spin_unlock(&p->lock);
	return IRQ_HANDLED;
}

int pipe_open(struct pipe *p);
int pipe_open(struct pipe *p)
{
	return request_irq(p->irq, pipe_irq, 0, "pipe", p);
}

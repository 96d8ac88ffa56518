/* Bad: a driver half-way through a port from Linux, with one of each mistake.
 * It does not compile yet (the flags types); the coccinelle rules find everything
 * anyway, each on the marked line.
 * [REQ-FLAGS-1] [REQ-LOCK-4] [REQ-ERR-4] [REQ-HANDLER-1] */
#include <irqsync/irqsync.h>

struct port_dev {
	spinlock_t lock;
	spinlock_t tx_lock;
	unsigned int irq;
	unsigned int events;
	int dead;
};

/* Old prototype, made to "compile" with a cast at request_irq. */
static irqreturn_t port_interrupt(int irq, void *dev_id)	/* expect: cocci/old-handler */
{
	struct port_dev *p = dev_id;

	spin_lock_irq(&p->lock);		/* expect: cocci/spin-lock-irq */
	p->events++;
	spin_unlock_irq(&p->lock);		/* expect: cocci/spin-lock-irq */
	if (p->dead)
		(void)disable_irq((unsigned int)irq);	/* expect: cocci/self-wait */
	return IRQ_HANDLED;
}

static irqreturn_t port_tx_interrupt(void *dev_id)
{
	struct port_dev *p = dev_id;

	if (p->dead)
		(void)free_irq(p->irq, p);		/* expect: cocci/self-wait */
	return IRQ_HANDLED;
}

void port_kick(struct port_dev *p);
void port_kick(struct port_dev *p)
{
	unsigned long flags;

	spin_lock_irqsave(&p->lock, flags);	/* expect: cocci/irqflags-type */
	spin_lock_irq(&p->tx_lock);		/* expect: cocci/spin-lock-irq */
	p->events = 0;
	spin_unlock_irq(&p->tx_lock);		/* expect: cocci/spin-lock-irq */
	spin_unlock_irqrestore(&p->lock, flags);	/* expect: cocci/irqflags-type */
}

int port_open(struct port_dev *dev);
int port_open(struct port_dev *dev)
{
	int err = request_irq(dev->irq, (irq_handler_t)port_interrupt, IRQF_SHARED, "port", dev);

	if (err)
		return err;
	return request_irq(dev->irq, port_tx_interrupt, IRQF_SHARED, "port-tx", dev);
}

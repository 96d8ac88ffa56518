/* Bad: spin_lock_irq in interrupt handlers (they run with interrupts disabled,
 * REQ-DISPATCH-8; spin_unlock_irq would enable them inside the handler).
 * [REQ-LOCK-4] */
#include <irqsync/irqsync.h>

struct nic {
	spinlock_t lock;
	unsigned int irq;
	unsigned int rx, tx;
};

/* Registered with request_irq below; its return type, spelled through a driver
 * typedef, would not tell the rule it is a handler. */
typedef irqreturn_t nic_ret_t;

static nic_ret_t nic_rx_handler(void *dev_id)
{
	struct nic *n = dev_id;

	spin_lock_irq(&n->lock);		/* expect: cocci/spin-lock-irq */
	n->rx++;
	spin_unlock_irq(&n->lock);		/* expect: cocci/spin-lock-irq */
	return IRQ_HANDLED;
}

/* Any irqreturn_t function is taken for a handler, registered here or not.
 * Two pairs: each gets its own flags variable from the patch. */
irqreturn_t nic_tx_handler(void *dev_id);
irqreturn_t nic_tx_handler(void *dev_id)
{
	struct nic *n = dev_id;

	spin_lock_irq(&n->lock);		/* expect: cocci/spin-lock-irq */
	n->tx++;
	spin_unlock_irq(&n->lock);		/* expect: cocci/spin-lock-irq */
	if (n->tx > 100) {
		spin_lock_irq(&n->lock);	/* expect: cocci/spin-lock-irq */
		n->tx = 0;
		spin_unlock_irq(&n->lock);	/* expect: cocci/spin-lock-irq */
	}
	return IRQ_HANDLED;
}

int nic_open(struct nic *n);
int nic_open(struct nic *n)
{
	return request_irq(n->irq, nic_rx_handler, 0, "nic-rx", n);
}

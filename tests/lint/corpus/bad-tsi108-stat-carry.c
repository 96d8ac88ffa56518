/* Corpus: spin_lock_irq in a helper of the interrupt handler. [REQ-LOCK-4]
 * Source: upstream commit 8c25d0887a8bd0e1ca2074ac0c6dff173787a83b
 * "net: tundra: tsi108: use spin_lock_irqsave instead of spin_lock_irq in IRQ context"
 * (seen as "[ Upstream commit ... ]" in its 4.9/4.19/5.2 stable backports).
 * Shape: the statistics-carry helper takes the stats lock with spin_lock_irq;
 * it is called by the interrupt handler when a counter overflows, and by the
 * process-context statistics reader. Our reduction, before the fix. */
#include <irqsync/irqsync.h>

struct tsi_eth {
	spinlock_t misclock;
	unsigned int irq;
	unsigned long rx_bytes, rx_carry;
	unsigned int int_status;
};

#define TSI_INT_CARRY 0x4u

static void tsi_stat_carry(struct tsi_eth *t)
{
	spin_lock_irq(&t->misclock);		/* expect: cocci/spin-lock-irq */
	t->rx_bytes += t->rx_carry;
	t->rx_carry = 0;
	spin_unlock_irq(&t->misclock);		/* expect: cocci/spin-lock-irq */
}

static irqreturn_t tsi_irq(void *dev_id)
{
	struct tsi_eth *t = dev_id;

	if (t->int_status & TSI_INT_CARRY)
		tsi_stat_carry(t);
	return IRQ_HANDLED;
}

/* process context: the same helper is right here, which hides the bug */
unsigned long tsi_get_rx_bytes(struct tsi_eth *t);
unsigned long tsi_get_rx_bytes(struct tsi_eth *t)
{
	tsi_stat_carry(t);
	return t->rx_bytes;
}

int tsi_open(struct tsi_eth *t);
int tsi_open(struct tsi_eth *t)
{
	return request_irq(t->irq, tsi_irq, 0, "tsi108", t);
}

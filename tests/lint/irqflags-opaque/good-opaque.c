/* Good: irq_flags_t used as the opaque value it is - saved into, restored from,
 * kept in a struct, handed over by value and by pointer, copied.  A member named
 * `arch` of the driver's own struct is the driver's business.  Nothing here may
 * be reported. [REQ-FLAGS-2] */
#include <irqsync/irqsync.h>

struct dev {
	spinlock_t lock;
	irq_flags_t saved;
	unsigned long arch;		/* the driver's own field, not irq_flags_t's */
	unsigned int pending;
};

struct board {
	unsigned int arch;
	unsigned int rev;
};

static struct board board0 = { .arch = 7, .rev = 1 };

/* Interrupts on or off: ask irqs_disabled(), never the saved value. */
int dev_irqs_off(void);
int dev_irqs_off(void)
{
	return irqs_disabled();
}

/* Kept in a struct, copied, restored from the copy. */
void dev_kick(struct dev *d);
void dev_kick(struct dev *d)
{
	irq_flags_t copy;

	spin_lock_irqsave(&d->lock, d->saved);
	d->pending++;
	d->arch = board0.arch;
	copy = d->saved;
	spin_unlock_irqrestore(&d->lock, copy);
}

/* Save in one function, restore in another, through a pointer. */
void dev_save(irq_flags_t *fl);
void dev_save(irq_flags_t *fl)
{
	local_irq_save(*fl);
}

void dev_restore(const irq_flags_t *fl);
void dev_restore(const irq_flags_t *fl)
{
	local_irq_restore(*fl);
}

unsigned int dev_board_rev(const struct board *b);
unsigned int dev_board_rev(const struct board *b)
{
	return b->arch + b->rev;
}

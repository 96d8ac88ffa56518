/* Bad: a driver that looks inside irq_flags_t.  Each line marked "expect:" reads,
 * writes or initializes the port's encoding (the `arch` member) outside src/port/
 * and must be reported by cocci/irqflags-opaque.  On the hosted port the member
 * is a soft-mask bit, on Armv7-M PRIMASK, on AArch64 the DAIF I bit: the tests
 * below mean something different on each, or nothing. [REQ-FLAGS-2] */
#include <irqsync/irqsync.h>

typedef irq_flags_t saved_state_t;

struct dev {
	spinlock_t lock;
	irq_flags_t saved;		/* the state the caller had */
	unsigned int pending;
};

struct dev_boot {
	irq_flags_t initial;
	unsigned int id;
};

/* "were interrupts on?" - irqs_disabled() is the question to ask */
int dev_irqs_were_on(struct dev *d);
int dev_irqs_were_on(struct dev *d)
{
	irq_flags_t flags;
	int on;

	spin_lock_irqsave(&d->lock, flags);
	on = flags.arch == 0;				/* expect: cocci/irqflags-opaque */
	spin_unlock_irqrestore(&d->lock, flags);
	return on;
}

/* forging a state to "restore": enables interrupts on one port, not on another */
void dev_force_on(struct dev *d);
void dev_force_on(struct dev *d)
{
	spin_lock_irqsave(&d->lock, d->saved);
	d->pending = 0;
	d->saved.arch = 0;				/* expect: cocci/irqflags-opaque */
	spin_unlock_irqrestore(&d->lock, d->saved);
}

void dev_leave(irq_flags_t *fl);
void dev_leave(irq_flags_t *fl)
{
	fl->arch &= 1UL;				/* expect: cocci/irqflags-opaque */
	local_irq_restore(*fl);
}

unsigned long dev_peek_save(void);
unsigned long dev_peek_save(void)
{
	return irqsync_local_irq_save().arch;		/* expect: cocci/irqflags-opaque */
}

void dev_restore_made_up(void);
void dev_restore_made_up(void)
{
	irq_flags_t on = { .arch = 0 };			/* expect: cocci/irqflags-opaque */
	saved_state_t st;

	local_irq_restore(on);
	local_irq_save(st);
	if (st.arch)					/* expect: cocci/irqflags-opaque */
		local_irq_restore((irq_flags_t){ .arch = 1 });	/* expect: cocci/irqflags-opaque */
}

static struct dev_boot boot0 = { .initial = { .arch = 1 }, .id = 0 };	/* expect: cocci/irqflags-opaque */

unsigned int dev_boot_id(void);
unsigned int dev_boot_id(void)
{
	return boot0.id;
}

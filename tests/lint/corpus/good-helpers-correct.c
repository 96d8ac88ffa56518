/* Corpus, correct driver code of the bugs' shapes: helpers shared by a
 * handler and process context that keep the interrupt state, spin_lock_irq in
 * helpers only process context reaches (also after an irqsave region has
 * ended), waits on another line or from process context. Nothing may be
 * reported. [REQ-LOCK-4] [REQ-ERR-4] */
#include <irqsync/irqsync.h>

struct ctl {
	spinlock_t lock;
	spinlock_t stats_lock;
	unsigned int irq, aux_irq;
	unsigned long events, drops;
	unsigned int status;
};

/* called by the handler and by ctl_read_stats(): irqsave is right in both */
static void ctl_account(struct ctl *c, unsigned long n)
{
	irq_flags_t flags;

	spin_lock_irqsave(&c->stats_lock, flags);
	c->events += n;
	spin_unlock_irqrestore(&c->stats_lock, flags);
}

/* only the handler calls it: a plain spin_lock is enough */
static void ctl_ack(struct ctl *c)
{
	spin_lock(&c->lock);
	c->status = 0;
	spin_unlock(&c->lock);
}

/* a nested save/restore inside a helper of the handler keeps the state */
static void ctl_poke(struct ctl *c)
{
	irq_flags_t flags;

	local_irq_save(flags);
	c->drops++;
	local_irq_restore(flags);
}

/* another device's line, and the nosync form on the own line */
static void ctl_quiet(struct ctl *c)
{
	(void)disable_irq(c->aux_irq);
	(void)disable_irq_nosync(c->irq);
}

static irqreturn_t ctl_interrupt(void *dev_id)
{
	struct ctl *c = dev_id;

	if (!c->status)
		return IRQ_NONE;
	ctl_account(c, 1);
	ctl_ack(c);
	ctl_poke(c);
	if (c->status > 10)
		ctl_quiet(c);
	return IRQ_HANDLED;
}

/* process context only: spin_lock_irq is right here */
static void ctl_reset_stats(struct ctl *c)
{
	spin_lock_irq(&c->stats_lock);
	c->events = c->drops = 0;
	spin_unlock_irq(&c->stats_lock);
}

/* the teardown waits for the handler: right from process context */
static void ctl_teardown(struct ctl *c)
{
	(void)synchronize_irq(c->irq);
	(void)free_irq(c->irq, c);
}

unsigned long ctl_read_stats(struct ctl *c, int reset);
unsigned long ctl_read_stats(struct ctl *c, int reset)
{
	irq_flags_t flags;
	unsigned long n;

	spin_lock_irqsave(&c->lock, flags);
	n = c->events;
	spin_unlock_irqrestore(&c->lock, flags);
	/* the irqsave region has ended: interrupts are on again */
	if (reset)
		ctl_reset_stats(c);
	ctl_account(c, 0);
	return n;
}

void ctl_remove(struct ctl *c);
void ctl_remove(struct ctl *c)
{
	ctl_reset_stats(c);
	ctl_teardown(c);
}

int ctl_probe(struct ctl *c);
int ctl_probe(struct ctl *c)
{
	return request_irq(c->irq, ctl_interrupt, IRQF_SHARED, "ctl", c);
}

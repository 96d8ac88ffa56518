/* Corpus: spin_lock_irq in a helper of the interrupt handler. [REQ-LOCK-4]
 * Source: the patch "rtc: mxc: use spin_lock_irqsave instead of spin_lock_irq
 * in IRQ context" (linux-rtc, 2019-08-07, answered "Applied"): commit not
 * located with the search tools.
 * Shape: the helper that sets or clears an interrupt-enable bit takes the
 * device lock with spin_lock_irq; the RTC interrupt handler calls it to turn
 * the alarm off, the alarm_irq_enable operation calls it from process
 * context. Our reduction, before the fix. */
#include <irqsync/irqsync.h>

struct mxc_rtc {
	spinlock_t rtc_lock;
	unsigned int irq;
	unsigned int ienable;
	unsigned int status;
};

#define MXC_RTC_ALARM_BIT 0x4u

static void mxc_rtc_irq_enable(struct mxc_rtc *r, unsigned int bit, int enabled)
{
	spin_lock_irq(&r->rtc_lock);		/* expect: cocci/spin-lock-irq */
	if (enabled)
		r->ienable |= bit;
	else
		r->ienable &= ~bit;
	spin_unlock_irq(&r->rtc_lock);		/* expect: cocci/spin-lock-irq */
}

static irqreturn_t mxc_rtc_interrupt(void *dev_id)
{
	struct mxc_rtc *r = dev_id;
	unsigned int status;

	spin_lock(&r->rtc_lock);
	status = r->status & r->ienable;
	spin_unlock(&r->rtc_lock);
	if (status & MXC_RTC_ALARM_BIT)
		mxc_rtc_irq_enable(r, MXC_RTC_ALARM_BIT, 0);
	return status ? IRQ_HANDLED : IRQ_NONE;
}

int mxc_rtc_alarm_irq_enable(struct mxc_rtc *r, int enabled);
int mxc_rtc_alarm_irq_enable(struct mxc_rtc *r, int enabled)
{
	mxc_rtc_irq_enable(r, MXC_RTC_ALARM_BIT, enabled);
	return 0;
}

int mxc_rtc_probe(struct mxc_rtc *r);
int mxc_rtc_probe(struct mxc_rtc *r)
{
	return request_irq(r->irq, mxc_rtc_interrupt, 0, "mxc_rtc", r);
}

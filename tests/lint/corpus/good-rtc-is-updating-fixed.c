/* Corpus (fixed): spin_lock_irq two calls below an interrupt handler. [REQ-LOCK-4]
 * Source: the patch "rtc: lockdep fix/workaround" (Peter Zijlstra,
 * linux-kernel 2006-09-19; in the 2.6.18 stable review series as patch 41/67):
 * commit not located with the search tools. Its lockdep report shows
 * _spin_unlock_irq <- rtc_get_rtc_time <- hpet_rtc_interrupt.
 * Shape: the "update in progress" probe takes the RTC lock with spin_lock_irq;
 * the time reader calls it, and the HPET-emulated RTC interrupt calls the time
 * reader. Our reduction, after the fix. */
#include <irqsync/irqsync.h>

struct cmos_rtc {
	spinlock_t rtc_lock;
	unsigned int irq;
	unsigned int freq_select;
	unsigned int seconds, alarm;
};

#define RTC_UIP 0x80u

static unsigned int rtc_is_updating(struct cmos_rtc *c)
{
	irq_flags_t flags;
	unsigned int uip;

	spin_lock_irqsave(&c->rtc_lock, flags);
	uip = c->freq_select & RTC_UIP;
	spin_unlock_irqrestore(&c->rtc_lock, flags);
	return uip;
}

static unsigned int rtc_get_rtc_time(struct cmos_rtc *c)
{
	while (rtc_is_updating(c))
		;
	return c->seconds;
}

static irqreturn_t hpet_rtc_interrupt(void *dev_id)
{
	struct cmos_rtc *c = dev_id;

	if (rtc_get_rtc_time(c) == c->alarm)
		c->alarm = 0;
	return IRQ_HANDLED;
}

int hpet_rtc_setup(struct cmos_rtc *c);
int hpet_rtc_setup(struct cmos_rtc *c)
{
	return request_irq(c->irq, hpet_rtc_interrupt, 0, "rtc", c);
}

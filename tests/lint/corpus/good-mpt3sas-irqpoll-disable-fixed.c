/* Corpus (fixed): disable_irq() of the line on the line's own interrupt path, in a
 * helper. [REQ-ERR-4]
 * Source: upstream commit b614d55b970d08bcac5b0bc15a5526181b3e4459
 * "scsi: mpt3sas: Dont call disable_irq from IRQ poll handler" (seen as
 * "[ Upstream commit ... ]" in its 5.4/5.8 stable backports).
 * Shape: the reply-queue processing path of an MSI-X vector calls
 * disable_irq(reply_q->os_irq) on its own vector, where only
 * disable_irq_nosync() may be called. In the kernel that path ran in the
 * irq_poll softirq scheduled by the handler; irqsync has no softirq, so our
 * reduction runs it in a helper of the handler itself - the same call on the
 * same line from the line's own handling, after the fix: disable_irq_nosync()
 * does not wait for the running handler. */
#include <irqsync/irqsync.h>

struct mpt_reply_queue {
	unsigned int os_irq;
	unsigned int pending;
	int irq_poll_scheduled;
};

#define MPT_POLL_THRESHOLD 64u

static void mpt_process_reply_queue(struct mpt_reply_queue *reply_q)
{
	if (reply_q->pending > MPT_POLL_THRESHOLD) {
		reply_q->irq_poll_scheduled = 1;
		(void)disable_irq_nosync(reply_q->os_irq);
		return;
	}
	reply_q->pending = 0;
}

static irqreturn_t mpt_base_interrupt(void *bus_id)
{
	struct mpt_reply_queue *reply_q = bus_id;

	if (reply_q->irq_poll_scheduled)
		return IRQ_HANDLED;
	mpt_process_reply_queue(reply_q);
	return IRQ_HANDLED;
}

int mpt_request_irq(struct mpt_reply_queue *reply_q);
int mpt_request_irq(struct mpt_reply_queue *reply_q)
{
	return request_irq(reply_q->os_irq, mpt_base_interrupt, IRQF_SHARED, "mpt3sas", reply_q);
}

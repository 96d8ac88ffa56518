/* Corpus (fixed): spin_lock_irq six calls below the interrupt handler. [REQ-LOCK-4]
 * Source: the patch "scsi: lpfc: use spin_lock_irqsave instead of spin_lock_irq
 * in IRQ context" (linux-scsi, 2019-08-12, reviewed by the maintainer): commit
 * not located with the search tools.
 * Shape: the node lookup by RPI takes the host lock with spin_lock_irq; it is
 * reached from the interrupt handler through the fast-path handler, the ring
 * event handler, the unsolicited-IOCB handler, the async event handler and the
 * ABTS error handler. Our reduction, after the fix. */
#include <irqsync/irqsync.h>

struct lpfc_node {
	unsigned int rpi;
	struct lpfc_node *next;
};

struct lpfc_hba {
	spinlock_t host_lock;
	unsigned int irq;
	struct lpfc_node *nodes;
	unsigned int ring_status, event, aborted;
};

static struct lpfc_node *lpfc_findnode_rpi(struct lpfc_hba *h, unsigned int rpi)
{
	struct lpfc_node *n;
	irq_flags_t flags;

	spin_lock_irqsave(&h->host_lock, flags);
	for (n = h->nodes; n && n->rpi != rpi; n = n->next)
		;
	spin_unlock_irqrestore(&h->host_lock, flags);
	return n;
}

static void lpfc_abts_err_handler(struct lpfc_hba *h, unsigned int rpi)
{
	if (lpfc_findnode_rpi(h, rpi))
		h->aborted++;
}

static void lpfc_async_event_handler(struct lpfc_hba *h)
{
	if (h->event == 1)
		lpfc_abts_err_handler(h, h->event >> 8);
}

static void lpfc_process_unsol_iocb(struct lpfc_hba *h)
{
	if (h->event)
		lpfc_async_event_handler(h);
}

static void lpfc_handle_fast_ring_event(struct lpfc_hba *h)
{
	while (h->ring_status--)
		lpfc_process_unsol_iocb(h);
}

static irqreturn_t lpfc_fp_intr_handler(struct lpfc_hba *h)
{
	lpfc_handle_fast_ring_event(h);
	return IRQ_HANDLED;
}

static irqreturn_t lpfc_intr_handler(void *dev_id)
{
	struct lpfc_hba *h = dev_id;

	return lpfc_fp_intr_handler(h);
}

int lpfc_setup_irq(struct lpfc_hba *h);
int lpfc_setup_irq(struct lpfc_hba *h)
{
	return request_irq(h->irq, lpfc_intr_handler, IRQF_SHARED, "lpfc", h);
}

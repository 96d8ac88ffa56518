/* Corpus, the handler's file of a bug in two files: its call chain reaches
 * spin_lock_irq in another file, bad-libata-sff-core.c (before the fix), and
 * irqsave in good-libata-sff-core-fixed.c (after). Nothing in this file is
 * reported: the finding is in the helper's file. [REQ-LOCK-4]
 * Source: the patch "libata-sff: use spin_lock_irqsave instead of
 * spin_lock_irq in IRQ context" (linux-ide, 2019-08-07): commit not located
 * with the search tools.
 * Shape: the SATA controller's handler handles a hotplug event by reading a
 * status register through the port-multiplier layer, which runs an internal
 * command, which flushes the PIO task under spin_lock_irq - five calls and
 * two files away. Our reduction; the fix did not touch this file. The
 * call is resolved to the non-static sata_scr_read() of the other files of the
 * run (both versions, when the corpus is linted at once). */
#include <irqsync/irqsync.h>

struct nv_port {
	spinlock_t lock;
	unsigned int irq;
	unsigned int irq_stat;
	unsigned int sactive;
	unsigned int scr;
	int pio_task_queued;
};

#define NV_IRQ_HOTPLUG 0x8u

int sata_scr_read(struct nv_port *ap, unsigned int reg, unsigned int *val);

static void nv_hotplug(struct nv_port *ap)
{
	unsigned int serror;

	spin_lock(&ap->lock);
	ap->pio_task_queued = 1;
	spin_unlock(&ap->lock);
	if (sata_scr_read(ap, 1, &serror) == 0)
		ap->scr = serror;
}

static irqreturn_t nv_interrupt(void *dev_id)
{
	struct nv_port *ap = dev_id;

	if (ap->sactive && (ap->irq_stat & NV_IRQ_HOTPLUG))
		nv_hotplug(ap);
	return IRQ_HANDLED;
}

int nv_init_one(struct nv_port *ap);
int nv_init_one(struct nv_port *ap)
{
	return request_irq(ap->irq, nv_interrupt, IRQF_SHARED, "sata_nv", ap);
}

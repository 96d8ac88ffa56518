/* Corpus, the helper's file: spin_lock_irq five calls below the handler
 * of good-libata-sff-nv.c. [REQ-LOCK-4]
 * Source: the patch "libata-sff: use spin_lock_irqsave instead of
 * spin_lock_irq in IRQ context" (linux-ide, 2019-08-07): commit not located
 * with the search tools. Our reduction, before the fix. */
#include <irqsync/irqsync.h>

struct nv_port {
	spinlock_t lock;
	unsigned int irq;
	unsigned int irq_stat;
	unsigned int sactive;
	unsigned int scr;
	int pio_task_queued;
};

static void ata_sff_flush_pio_task(struct nv_port *ap)
{
	spin_lock_irq(&ap->lock);		/* expect: cocci/spin-lock-irq */
	ap->pio_task_queued = 0;
	spin_unlock_irq(&ap->lock);		/* expect: cocci/spin-lock-irq */
}

static int ata_exec_internal(struct nv_port *ap, unsigned int reg)
{
	ata_sff_flush_pio_task(ap);
	if (ap->irq == 0 || !ap->sactive)
		return -1;
	return (int)((ap->irq_stat | ap->scr) >> reg) & 1;
}

static int sata_pmp_read(struct nv_port *ap, unsigned int reg, unsigned int *val)
{
	int err = ata_exec_internal(ap, reg);

	*val = ap->scr;
	return err;
}

static int sata_pmp_scr_read(struct nv_port *ap, unsigned int reg, unsigned int *val)
{
	return sata_pmp_read(ap, reg, val);
}

int sata_scr_read(struct nv_port *ap, unsigned int reg, unsigned int *val);
int sata_scr_read(struct nv_port *ap, unsigned int reg, unsigned int *val)
{
	return sata_pmp_scr_read(ap, reg, val);
}

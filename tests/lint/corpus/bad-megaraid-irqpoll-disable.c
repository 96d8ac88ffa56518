/* Corpus: disable_irq() of the line on the line's own interrupt path, two
 * calls below the handler. [REQ-ERR-4]
 * Source: upstream commit d2af39141eea34ef651961e885f49d96781a1016
 * "scsi: megaraid_sas: Dont call disable_irq from process IRQ poll" (seen as
 * "[ Upstream commit ... ]" in its 5.4/5.8 stable backports).
 * Shape: when a reply queue has too much work, the completion path hands it
 * to a poll routine that masks the queue's own vector with disable_irq(), where
 * only disable_irq_nosync() may be called. In the kernel the poll routine ran in
 * the irq_poll softirq the handler scheduled; irqsync has no softirq, so our
 * reduction calls it from the handler's completion helper: the same call on
 * the same line (the dev_id's os_irq, passed down and copied), before the fix. */
#include <irqsync/irqsync.h>

struct mega_irq_ctx {
	unsigned int os_irq;
	unsigned int budget, done;
	int irq_line_enable;
	int irq_poll_scheduled;
};

static void megasas_irqpoll(struct mega_irq_ctx *ctx)
{
	struct mega_irq_ctx *irq_ctx = ctx;

	if (irq_ctx->irq_line_enable) {
		(void)disable_irq(irq_ctx->os_irq);	/* expect: cocci/self-wait */
		irq_ctx->irq_line_enable = 0;
	}
	irq_ctx->done = 0;
}

static int complete_cmd_fusion(struct mega_irq_ctx *irq_ctx)
{
	if (++irq_ctx->done < irq_ctx->budget)
		return 0;
	irq_ctx->irq_poll_scheduled = 1;
	megasas_irqpoll(irq_ctx);
	return 1;
}

static irqreturn_t megasas_isr_fusion(void *devp)
{
	struct mega_irq_ctx *irq_ctx = devp;

	if (irq_ctx->irq_poll_scheduled)
		return IRQ_HANDLED;
	return complete_cmd_fusion(irq_ctx) >= 0 ? IRQ_HANDLED : IRQ_NONE;
}

int megasas_setup_irqs(struct mega_irq_ctx *irq_ctx);
int megasas_setup_irqs(struct mega_irq_ctx *irq_ctx)
{
	irq_ctx->irq_line_enable = 1;
	return request_irq(irq_ctx->os_irq, megasas_isr_fusion, 0, "megasas", irq_ctx);
}

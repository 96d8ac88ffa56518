/* Good: every flags argument is an irq_flags_t (local, member, through a pointer).
 * Nothing here may be reported. [REQ-FLAGS-1] */
#include <irqsync/irqsync.h>

struct uart {
	spinlock_t lock;
	irq_flags_t saved;
	unsigned int tx_count;
};

void uart_tx_kick(struct uart *u);
void uart_tx_kick(struct uart *u)
{
	irq_flags_t flags;

	spin_lock_irqsave(&u->lock, flags);
	u->tx_count++;
	spin_unlock_irqrestore(&u->lock, flags);
}

void uart_member_flags(struct uart *u);
void uart_member_flags(struct uart *u)
{
	spin_lock_irqsave(&u->lock, u->saved);
	u->tx_count = 1;
	spin_unlock_irqrestore(&u->lock, u->saved);
}

/* Save in one function, restore in another: the caller owns the flags. */
void uart_enter(irq_flags_t *fl);
void uart_enter(irq_flags_t *fl)
{
	local_irq_save(*fl);
}

void uart_leave(irq_flags_t *fl);
void uart_leave(irq_flags_t *fl)
{
	local_irq_restore(*fl);
}

/* Qualified, and under a driver's own typedef name: still irq_flags_t. */
void uart_restore_const(const irq_flags_t fl);
void uart_restore_const(const irq_flags_t fl)
{
	local_irq_restore(fl);
}

typedef irq_flags_t uart_flags_t;

void uart_own_name(struct uart *u);
void uart_own_name(struct uart *u)
{
	uart_flags_t f;

	spin_lock_irqsave(&u->lock, f);
	u->tx_count = 2;
	spin_unlock_irqrestore(&u->lock, f);
}

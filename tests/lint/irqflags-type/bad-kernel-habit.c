/* Bad: flags variables of the kernel's old types, as left by a half-done port.
 * Every call marked "expect:" must be reported on that line by cocci/irqflags-type
 * (which needs no compiling code) and by sparse, which sees irq_flags_t as the
 * distinct type it is (sparse/type, "incorrect type"). [REQ-FLAGS-1] */
#include <irqsync/irqsync.h>

struct uart {
	spinlock_t lock;
	unsigned long saved;		/* was the kernel's flags word */
	unsigned int tx_count;
};

static struct uart port0;

void uart_tx_kick(struct uart *u);
void uart_tx_kick(struct uart *u)
{
	unsigned long flags;

	spin_lock_irqsave(&u->lock, flags);	/* expect: cocci/irqflags-type sparse/type */
	u->tx_count++;
	spin_unlock_irqrestore(&u->lock, flags);	/* expect: cocci/irqflags-type sparse/type */
}

void uart_poll(void);
void uart_poll(void)
{
	int flags;

	local_irq_save(flags);			/* expect: cocci/irqflags-type sparse/type */
	port0.tx_count = 0;
	local_irq_restore(flags);		/* expect: cocci/irqflags-type sparse/type */
}

void uart_member_flags(struct uart *u);
void uart_member_flags(struct uart *u)
{
	spin_lock_irqsave(&u->lock, u->saved);	/* expect: cocci/irqflags-type sparse/type */
	u->tx_count = 1;
	spin_unlock_irqrestore(&u->lock, u->saved);	/* expect: cocci/irqflags-type sparse/type */
}

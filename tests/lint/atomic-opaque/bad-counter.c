/* Bad: a driver that reads and writes an atomic word's member directly.  Each
 * line marked "expect:" names the `counter` member of an irqsync_atomic_t
 * outside <irqsync/atomic.h> and must be reported by cocci/atomic-opaque: a
 * plain C access to an _Atomic is a seq_cst access in the C11 build and an
 * ordinary one under Frama-C, with none of the orders the primitives state.
 * [REQ-MM-4] [REQ-TCB-2] */
#include <irqsync/irqsync.h>

struct ring {
	spinlock_t lock;
	irqsync_atomic_t head;		/* read without the lock by the consumer */
	unsigned int slots[16];
};

static irqsync_atomic_t ring_drops;

/* "it is atomic anyway": a store with no stated order */
void ring_reset(struct ring *r);
void ring_reset(struct ring *r)
{
	r->head.counter = 0U;				/* expect: cocci/atomic-opaque */
	ring_drops.counter = 0U;			/* expect: cocci/atomic-opaque */
}

/* an increment that is an RMW only by accident of the C11 build */
void ring_drop(void);
void ring_drop(void)
{
	ring_drops.counter++;				/* expect: cocci/atomic-opaque */
}

/* a read through a pointer to the word */
unsigned int ring_peek(const irqsync_atomic_t *w);
unsigned int ring_peek(const irqsync_atomic_t *w)
{
	return w->counter;				/* expect: cocci/atomic-opaque */
}

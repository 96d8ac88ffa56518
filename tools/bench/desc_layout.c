/* desc_layout.c - prints the layout of struct irq_desc for tools/bench/drd_classify.py. */
#include <stddef.h>
#include <stdio.h>
#include "internal.h"

int main(void)
{
	printf("size %zu\n", sizeof(struct irq_desc));
	printf("lock.next %zu 4 atomic\n", offsetof(struct irq_desc, lock.next));
	printf("lock.owner %zu 4 atomic\n", offsetof(struct irq_desc, lock.owner));
	printf("status %zu 4 atomic\n", offsetof(struct irq_desc, status));
	printf("depth %zu 4 plain\n", offsetof(struct irq_desc, depth));
	printf("nr_actions %zu 4 plain\n", offsetof(struct irq_desc, nr_actions));
	printf("action %zu %zu plain\n", offsetof(struct irq_desc, action),
	       sizeof(((struct irq_desc *)0)->action));
	printf("handled %zu %zu plain\n", offsetof(struct irq_desc, handled), sizeof(unsigned long) * 2 + 8);
	return 0;
}

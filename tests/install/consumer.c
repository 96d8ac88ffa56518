/* consumer.c — the smallest real user of an installed irqsync (tests/suites/26-examples.sh).
 *
 * Built in a scratch directory with nothing but `pkg-config --cflags --libs irqsync`, so it
 * compiles and links only if the install is complete. It uses the hosted port as an
 * application would: this thread becomes CPU 0, a line is routed to it, raised, handled,
 * synchronized and freed. Prints "consumer: ok" and exits 0 when every step did its job.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <irqsync/irqsync.h>
#include <irqsync_hosted.h>

#define LINE 2

static volatile sig_atomic_t calls;

static irqreturn_t on_irq(void *dev_id)
{
	(void)dev_id;
	calls++;
	return IRQ_HANDLED;
}

int main(void)
{
	static int dev;
	struct irq_stats st;
	struct timespec ms = { 0, 1000000 };
	int i;

	irqsync_init();
	if (irqsync_hosted_cpu_attach(0) != 0 || irqsync_hosted_route(LINE, 0) != 0 ||
	    request_irq(LINE, on_irq, 0, "consumer", &dev) != 0) {
		puts("consumer: setup failed");
		return 1;
	}
	if (irqsync_hosted_raise(LINE) < 0) {
		puts("consumer: raise failed");
		return 1;
	}
	for (i = 0; i < 1000 && !calls; i++)	/* the signal arrives asynchronously */
		nanosleep(&ms, NULL);
	if (synchronize_irq(LINE) != 0 || irq_stats(LINE, &st) != 0 || free_irq(LINE, &dev) != 0) {
		puts("consumer: synchronize/stats/free failed");
		return 1;
	}
	if (calls != 1 || st.handled != 1 || st.nr_actions != 1) {
		printf("consumer: handler calls %d, handled %lu, actions %u (expected 1, 1, 1)\n",
		       (int)calls, st.handled, st.nr_actions);
		return 1;
	}
	printf("consumer: ok (NR_IRQS %d, %d CPUs)\n", NR_IRQS, IRQSYNC_NR_CPUS);
	return 0;
}

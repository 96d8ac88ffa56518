/* barrier_probe.c — the program whose disassembly tools/cross/barrier_check.py reads.
 *
 * It links the library's lock, unlock, synchronize_irq and handle_irq (out-of-line
 * functions of the core) and gives the header-only smp_mb() a body of its own, so that
 * every primitive of REQ-MM-4 exists as a symbol in one binary per target. It is never run
 * for its result; main() only keeps the linker from dropping what we want to inspect.
 */
#include <irqsync/irqsync.h>

void xprobe_smp_mb(void);
int main(void);

/* smp_mb() is a static inline of <irqsync/atomic.h>: this is the code a driver gets. */
__attribute__((noinline)) void xprobe_smp_mb(void)
{
	smp_mb();
}

int main(void)
{
	static DEFINE_SPINLOCK(lock);

	irqsync_init();
	spin_lock(&lock);
	spin_unlock(&lock);
	xprobe_smp_mb();
	return synchronize_irq(0) + handle_irq(0);
}

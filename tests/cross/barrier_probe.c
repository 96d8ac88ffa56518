/* barrier_probe.c — the program whose disassembly tools/cross/barrier_check.py reads.
 *
 * It links the library's synchronize_irq and handle_irq (out-of-line functions of the core)
 * and gives each header-inline primitive -- spin_lock(), spin_unlock() and smp_mb() -- a
 * body of its own, compiled with the probe's flags as a driver's code would be, so that
 * every primitive of REQ-MM-4 exists as a symbol in one binary per target. It is never run
 * for its result; main() only keeps the linker from dropping what we want to inspect.
 */
#include <irqsync/irqsync.h>

void xprobe_smp_mb(void);
void xprobe_spin_lock(spinlock_t *lock);
void xprobe_spin_unlock(spinlock_t *lock);
int main(void);

/* spin_lock() and spin_unlock() are inline in <irqsync/spinlock.h> (spinlock_body.h). */
__attribute__((noinline)) void xprobe_spin_lock(spinlock_t *lock)
{
	spin_lock(lock);
}

__attribute__((noinline)) void xprobe_spin_unlock(spinlock_t *lock)
{
	spin_unlock(lock);
}

/* smp_mb() is a static inline of <irqsync/atomic.h>: this is the code a driver gets. */
__attribute__((noinline)) void xprobe_smp_mb(void)
{
	smp_mb();
}

int main(void)
{
	static DEFINE_SPINLOCK(lock);

	irqsync_init();
	xprobe_spin_lock(&lock);
	xprobe_spin_unlock(&lock);
	xprobe_smp_mb();
	return synchronize_irq(0) + handle_irq(0);
}

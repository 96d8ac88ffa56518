/* barrier_probe.c — the program whose disassembly tools/cross/barrier_check.py reads.
 *
 * It links the library's synchronize_irq and handle_irq (out-of-line functions of the core)
 * and gives each header-inline primitive -- spin_lock(), spin_unlock(), the
 * spin_lock_irqsave()/spin_unlock_irqrestore() pair and smp_mb() -- a body of its own,
 * compiled with the probe's flags as a driver's code would be, so that every primitive of
 * REQ-MM-4 exists as a symbol in one binary per target. It is never run for its result;
 * main() only keeps the linker from dropping what we want to inspect.
 *
 * The probe is the production configuration (the bodies of <irqsync/spinlock_body.h> inline,
 * with production's hooks): the build stops otherwise. The check's roles publish and
 * wait_acquire find the lock's words at the offsets asserted below (its --layout default).
 */
#include <stddef.h>
#include <irqsync/irqsync.h>

#if !IRQSYNC_SPIN_INLINE
#error "the barrier probe must see the lock as production compiles it (inline bodies)"
#endif
_Static_assert(offsetof(spinlock_t, next) == 0 && offsetof(spinlock_t, owner) == 4,
	       "tools/cross/barrier_check.py --layout next=0,owner=4");

void xprobe_smp_mb(void);
void xprobe_spin_lock(spinlock_t *lock);
void xprobe_spin_unlock(spinlock_t *lock);
irq_flags_t xprobe_spin_lock_irqsave(spinlock_t *lock);
void xprobe_spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags);
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

/* The same bodies inlined once more, around the port's interrupt save and restore calls. */
__attribute__((noinline)) irq_flags_t xprobe_spin_lock_irqsave(spinlock_t *lock)
{
	irq_flags_t flags;

	spin_lock_irqsave(lock, flags);
	return flags;
}

__attribute__((noinline)) void xprobe_spin_unlock_irqrestore(spinlock_t *lock, irq_flags_t flags)
{
	spin_unlock_irqrestore(lock, flags);
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
	xprobe_spin_unlock_irqrestore(&lock, xprobe_spin_lock_irqsave(&lock));
	xprobe_smp_mb();
	return synchronize_irq(0) + handle_irq(0);
}

/* probes.c — code the port conformance suite inspects instead of running (mk/port.mk compiles
 * it in the same translation unit as the port's sources and conformance.c; never called).
 *
 * 1. Compiler-barrier probes (barrier_probe.py reads them from the object file).
 *    port.h: "each function is also a compiler barrier". With the port's body visible to the
 *    compiler (this translation unit, or any build with -flto), a function that is not one
 *    lets the compiler move memory accesses across it. Each probe puts a call between two
 *    accesses to one global:
 *        store probe   pc_probe_marker = 1; CALL; pc_probe_marker = 2;
 *        load probe    a = pc_probe_marker; CALL; b = pc_probe_marker; (a - b)
 *    Moving either access across CALL makes the two adjacent and one of them redundant (a dead
 *    store, a repeated load), and GCC and Clang remove redundant accesses they can prove
 *    redundant. Each probe therefore has a twin ("C", the control) with an explicit compiler
 *    barrier on both sides of CALL, where nothing can move; the port function is a compiler
 *    barrier in this build if the probe ("P") keeps as many memory accesses as its control.
 *    Two controls calibrate the method on the same compiler and flags: an asm statement
 *    without a "memory" clobber must be found NOT to be a barrier, one with it must be found
 *    to be one.
 *
 * 2. Atomics probes for tools/cross/barrier_check.py (the instructions the model assumes): the
 *    ticket lock's ticket and wait, its release, smp_mb -- written with <irqsync/atomic.h> as the
 *    core writes them, so a port build with other atomics (or other flags) is checked as built.
 */

#define PC_CB() __asm__ __volatile__("" : : : "memory")

/* The marker, alone on its cache line, so that no access to a neighbour can pair with its
 * accesses (ldrd, ldp) and change the count. */
extern int pc_probe_line[16];
int pc_probe_line[16] __attribute__((aligned(64)));
#define pc_probe_marker pc_probe_line[0]

static inline void pc_ctl_asm_no_clobber(void)
{
	__asm__ __volatile__("" : : :);
}

static inline void pc_ctl_asm_memory_clobber(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/* PC_PROBE_VOID(name, call): a void call. */
#define PC_PROBE_VOID(name, call) \
void pc_probe_st_P_##name(void); void pc_probe_st_C_##name(void); \
int pc_probe_ld_P_##name(void); int pc_probe_ld_C_##name(void); \
__attribute__((noinline, used)) void pc_probe_st_P_##name(void) \
{ pc_probe_marker = 1; call; pc_probe_marker = 2; } \
__attribute__((noinline, used)) void pc_probe_st_C_##name(void) \
{ pc_probe_marker = 1; PC_CB(); call; PC_CB(); pc_probe_marker = 2; } \
__attribute__((noinline, used)) int pc_probe_ld_P_##name(void) \
{ int a = pc_probe_marker; call; return a - pc_probe_marker; } \
__attribute__((noinline, used)) int pc_probe_ld_C_##name(void) \
{ int a = pc_probe_marker; PC_CB(); call; PC_CB(); return a - pc_probe_marker; }

/* PC_PROBE_RET(name, type, call): a call whose result the probe returns (as the core uses it).
 * The load probe hands the difference out through a pointer written after both loads. */
#define PC_PROBE_RET(name, type, call) \
type pc_probe_st_P_##name(void); type pc_probe_st_C_##name(void); \
type pc_probe_ld_P_##name(int *d); type pc_probe_ld_C_##name(int *d); \
__attribute__((noinline, used)) type pc_probe_st_P_##name(void) \
{ type r; pc_probe_marker = 1; r = call; pc_probe_marker = 2; return r; } \
__attribute__((noinline, used)) type pc_probe_st_C_##name(void) \
{ type r; pc_probe_marker = 1; PC_CB(); r = call; PC_CB(); pc_probe_marker = 2; return r; } \
__attribute__((noinline, used)) type pc_probe_ld_P_##name(int *d) \
{ type r; int a = pc_probe_marker; r = call; *d = a - pc_probe_marker; return r; } \
__attribute__((noinline, used)) type pc_probe_ld_C_##name(int *d) \
{ type r; int a = pc_probe_marker; PC_CB(); r = call; PC_CB(); *d = a - pc_probe_marker; return r; }

/* PC_PROBE_ARG(name, type, call): a call that takes one argument `x` of the probe. */
#define PC_PROBE_ARG(name, type, call) \
void pc_probe_st_P_##name(type x); void pc_probe_st_C_##name(type x); \
int pc_probe_ld_P_##name(type x); int pc_probe_ld_C_##name(type x); \
__attribute__((noinline, used)) void pc_probe_st_P_##name(type x) \
{ pc_probe_marker = 1; call; pc_probe_marker = 2; } \
__attribute__((noinline, used)) void pc_probe_st_C_##name(type x) \
{ pc_probe_marker = 1; PC_CB(); call; PC_CB(); pc_probe_marker = 2; } \
__attribute__((noinline, used)) int pc_probe_ld_P_##name(type x) \
{ int a = pc_probe_marker; call; return a - pc_probe_marker; } \
__attribute__((noinline, used)) int pc_probe_ld_C_##name(type x) \
{ int a = pc_probe_marker; PC_CB(); call; PC_CB(); return a - pc_probe_marker; }

PC_PROBE_RET(cpu_id, unsigned int, irqsync_port_cpu_id())
PC_PROBE_RET(irq_save, irq_flags_t, irqsync_port_irq_save())
PC_PROBE_ARG(irq_restore, irq_flags_t, irqsync_port_irq_restore(x))
PC_PROBE_VOID(irq_disable, irqsync_port_irq_disable())
PC_PROBE_VOID(irq_enable, irqsync_port_irq_enable())
PC_PROBE_RET(irqs_disabled, int, irqsync_port_irqs_disabled())
PC_PROBE_VOID(cpu_relax, irqsync_port_cpu_relax())
/* The threads, waits and line masks (port.h, "Threaded handlers"), with a thread function and
 * a ready() the compiler sees (ready() is true at once: a wait that is no barrier then has
 * nothing left to hide behind). */
static void pc_probe_fn(unsigned int chan)
{
	(void)chan;
}

static int pc_probe_ready(unsigned int chan)
{
	(void)chan;
	return 1;
}

PC_PROBE_RET(thread_start, int, irqsync_port_thread_start(3U, pc_probe_fn))
PC_PROBE_VOID(thread_kick, irqsync_port_thread_kick(3U))
PC_PROBE_VOID(thread_stop, irqsync_port_thread_stop(3U))
PC_PROBE_VOID(wait, irqsync_port_wait(3U, pc_probe_ready))
PC_PROBE_VOID(wake, irqsync_port_wake(3U))
PC_PROBE_VOID(line_mask, irqsync_port_line_mask(3U))
PC_PROBE_VOID(line_unmask, irqsync_port_line_unmask(3U))
PC_PROBE_RET(line_inflight, int, irqsync_port_line_inflight(3U))
PC_PROBE_VOID(control_no_clobber, pc_ctl_asm_no_clobber())
PC_PROBE_VOID(control_memory_clobber, pc_ctl_asm_memory_clobber())

/* ---- 2. the atomics as the core's ticket lock and smp_mb use them ---- */

void pc_atomics_lock(irqsync_atomic_t *next, irqsync_atomic_t *owner);
void pc_atomics_unlock(irqsync_atomic_t *owner);
void pc_atomics_mb(void);

__attribute__((noinline, used)) void pc_atomics_lock(irqsync_atomic_t *next,
						     irqsync_atomic_t *owner)
{
	unsigned int ticket = irqsync_atomic_fetch_add_acquire(next, 1U);

	while (irqsync_atomic_read_acquire(owner) != ticket)
		irqsync_port_cpu_relax();
}

__attribute__((noinline, used)) void pc_atomics_unlock(irqsync_atomic_t *owner)
{
	irqsync_atomic_set_release(owner, irqsync_atomic_read_relaxed(owner) + 1U);
}

__attribute__((noinline, used)) void pc_atomics_mb(void)
{
	irqsync_smp_mb();
}

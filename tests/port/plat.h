/* plat.h — what the port conformance suite (conformance.c) needs of the machine it runs on,
 * beside the port under test.
 *
 * The suite checks the port's functions (src/port/port.h) against what the machine really
 * does: whether an interrupt raised while the port says "disabled" is held, whether it comes
 * at the unmask, which CPU it comes on. It therefore needs a second, independent way to raise
 * interrupts and to tell CPUs apart, and that is this interface. Two implementations:
 *
 *   plat-hosted.c     POSIX threads as CPUs, the hosted port's own interrupt controller
 *                     (irqsync_hosted_raise_on), printf
 *   plat-baremetal.c  the boards of tests/baremetal/ (board.h): two timers as one-shot
 *                     interrupt sources, a second CPU where the board has one, semihosting
 *
 * A new board for a bare-metal port implements tests/baremetal/board.h; a new kind of host
 * implements this file (docs/porting.md, "Running the suite on a new machine").
 *
 * Nothing here may call the port: a platform that used the port to raise or observe
 * interrupts would check the port against itself.
 */
#ifndef IRQSYNC_PORT_PLAT_H
#define IRQSYNC_PORT_PLAT_H

/* The two interrupt sources and the irqsync lines they arrive as (handle_irq(line)). */
#define PC_NSRC		2
#define PC_LINE(n)	((n) == 0 ? 3U : 5U)

/* Set up the interrupt sources, route them to the CPU that raises them, and leave the calling
 * CPU (CPU 0) with its interrupts enabled. Called once, first. */
void plat_init(void);

/* Output (TAP lines). */
void plat_puts(const char *s);
void plat_putu(unsigned long v);

/* How many CPUs this run can use (1 = no second CPU), and which one is calling, as the
 * platform numbers them: 0 .. plat_ncpus()-1. Independent of irqsync_port_cpu_id(). */
unsigned int plat_ncpus(void);
unsigned int plat_cpu(void);

/* Run fn on CPU cpu (1 .. plat_ncpus()-1) with its interrupts enabled. On the hosted
 * platform fn may return (the thread ends); on bare metal it must not. Return: 0 or < 0. */
int plat_cpu_start(unsigned int cpu, void (*fn)(void));
/* Hosted: wait for the threads started whose fn returned. Bare metal: nothing. */
void plat_cpu_join_all(void);

/* Raise source n (0 or 1) once, for the calling CPU: it arrives as one call of
 * handle_irq(PC_LINE(n)) on this CPU, now if the CPU takes interrupts, else when it next does.
 * Raising a source that is already pending adds no second interrupt. */
void plat_raise(unsigned int n);
/* Has source n's last raise reached the calling CPU (pending at its controller, or already
 * taken)? Read from the controller or device, never from the port. */
int plat_arrived(unsigned int n);
/* A free-running counter all CPUs read alike, and how many of its ticks a second CPU needs
 * to see a round posted in memory (litmus rounds start both CPUs at a common deadline). */
unsigned long plat_clock(void);
unsigned long plat_clock_margin(void);
/* Each side then starts 0 .. plat_clock_jitter()-1 ticks late, at random: a few tens of
 * nanoseconds, so that the two sides' accesses interleave in every possible way. */
unsigned int plat_clock_jitter(void);

/* Inside a wait loop: let the other CPU thread run (hosted), or nothing (bare metal). */
void plat_pause(void);

/* Instruction-boundary injection, to drive the windows INSIDE the port's own functions (an
 * interrupt raised between an unmask's look for pending work and its clearing of the mask; one
 * that comes during a nested restore). Run fn() one instruction at a time; at its j-th
 * instruction boundary raise source n (as plat_raise, on the calling CPU) but keep the CPU
 * from noticing it; let the CPU notice it at the k-th boundary (k >= j). A j or k past the
 * end of fn() means: at its end. Boundary 0 is just before fn() is called.
 * Return: 1 if the CPU was let notice it inside fn(), 0 if fn() ended first, -1 if this
 * platform cannot single-step (hosted: x86-64 Linux only; bare metal: none), and then the
 * callers skip. Like plat_raise, it never calls the port's interrupt-state functions. */
int plat_inject(void (*fn)(void), unsigned int n, long j, long k);

/* For the line-mask cases (port.h: irqsync_port_line_mask): the interrupt-controller input
 * that source n arrives on (a bare-metal port masks lines there and must be told which input
 * carries a line), or -1 where there is none (hosted: the port is the controller). */
int plat_line_hwirq(unsigned int n);
/* 1 if the sources are per-CPU interrupts (qemu virt: GIC PPIs, whose enable and active bits
 * are banked per CPU, so a line mask or an in-flight report acts on the calling CPU's own),
 * 0 if a line is one for all CPUs (hosted). */
int plat_lines_per_cpu(void);

/* A watchdog's clock for the thread and wait cases: call tick() about every millisecond from
 * a context of its own (hosted: a thread that is no CPU and takes no interrupt) until
 * plat_ticker_stop(). A broken port's wait may sleep for good; the suite's tick wakes it so
 * that the case fails instead of hanging. Return: 0, or -1 where the platform has none (bare
 * metal: there the ports' waits spin, calling ready() again and again, which the suite
 * bounds by counting the calls). */
int plat_ticker_start(void (*tick)(void));
void plat_ticker_stop(void);

/* Quiet the interrupt sources at the end of the run. */
void plat_fini(void);

#endif

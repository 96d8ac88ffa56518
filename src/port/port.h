/* SPDX-License-Identifier: MIT */
/*
 * port.h - what every port of irqsync provides (the trusted base, REQ-TCB-2).
 *
 * A port lives in src/port/<name>/ and implements the functions below in
 * C files of that directory (mk/lib.mk compiles the core sources together with
 * the .c files of src/port/$(PORT)/).  The atomics come from <irqsync/atomic.h> (C11),
 * shared by every port.  The core calls nothing else of the platform.
 *
 * Requirements on an implementation (REQ-MM-4, REQ-LOCK-6):
 *  - irqsync_port_cpu_id() is stable for the calling context and below
 *    IRQSYNC_NR_CPUS;
 *  - the interrupt-state functions act on the calling CPU only; while its
 *    state is "disabled" the port must not call handle_irq() on it, and it
 *    must deliver (call handle_irq() for) every interrupt held meanwhile
 *    when the state becomes "enabled" (irq_restore of an enabled state, or
 *    irq_enable);
 *  - the irq_flags_t returned by irqsync_port_irq_save() is opaque to the
 *    core (its .arch encoding is the port's, REQ-FLAGS-2): the core only
 *    hands it back to irqsync_port_irq_restore() and never reads a field;
 *  - each function is also a compiler barrier (the core relies on no
 *    access moving across a change of interrupt state).
 *
 * The port calls handle_irq(irq) when an interrupt of line irq arrives on
 * a CPU whose interrupts are enabled.
 *
 * Under Frama-C (__FRAMAC__) these are plain prototypes; their contracts
 * in acsl/ are assumed, not proved.
 */
#ifndef _IRQSYNC_PORT_H
#define _IRQSYNC_PORT_H

#include <irqsync/atomic.h>
#include <irqsync/config.h>
#include <irqsync/irqflags.h>

/* The calling CPU's id, 0 .. IRQSYNC_NR_CPUS-1. */
unsigned int irqsync_port_cpu_id(void);

/* Disable local interrupts; return the previous state (opaque). */
irq_flags_t irqsync_port_irq_save(void);

/* Restore a state returned by irqsync_port_irq_save() on this CPU. */
void irqsync_port_irq_restore(irq_flags_t flags);

/* Disable local interrupts. */
void irqsync_port_irq_disable(void);

/* Enable local interrupts (delivering held ones). */
void irqsync_port_irq_enable(void);

/* 1 if local interrupts are disabled, else 0. */
int irqsync_port_irqs_disabled(void);

/* Pause briefly inside a spin loop (x86 pause, Arm yield, ...). */
void irqsync_port_cpu_relax(void);

/*
 * Threaded handlers (spec/threaded.md; obligations in docs/porting.md, "Threads").
 *
 * The core names what it runs and what it waits for by a *channel*, a number below
 * IRQSYNC_PORT_CHANNELS (config.h): a handler thread's, and a line's waiters'.  The port needs
 * no other knowledge of lines or actions for them.
 *
 * A handler thread is a function of the core, fn(chan), that the port runs in task context
 * (local interrupts enabled; it may wait): after irqsync_port_thread_start(chan, fn) the port
 * runs fn(chan) at least once after every irqsync_port_thread_kick(chan) (a kick while it runs
 * owes one more run; kicks may fold into one run), never two runs of one channel at once, and
 * none after irqsync_port_thread_stop(chan) has returned.  A hosted port gives each channel a
 * thread of its own; a bare-metal port may run the owed runs to completion from a per-CPU
 * worker, and from irqsync_port_wait() while a waiter waits (then owed runs happen only when
 * something calls the worker: the application's idle loop, or a waiter).  A handler thread is
 * not a CPU: irqsync_port_cpu_id() in it says nothing about which thread runs.
 */

/* Prepare channel @chan to run @fn (once per start; a stopped channel may be started again).
 * 0; -IRQSYNC_EINVAL for a channel out of range or a NULL @fn; -IRQSYNC_EBUSY when @chan is
 * started already; -IRQSYNC_ENOMEM when the port cannot run one more thread. */
int irqsync_port_thread_start(unsigned int chan, void (*fn)(unsigned int chan));

/* Owe channel @chan a run of its fn; may be called with interrupts disabled (from a
 * handler).  A full barrier before: what the caller wrote before the kick is visible to the run. */
void irqsync_port_thread_kick(unsigned int chan);

/* Let the owed run, if any, and the running one end, then run no more; return then.  Never
 * called from that channel's fn itself. */
void irqsync_port_thread_stop(unsigned int chan);

/* 1 + the channel whose fn the calling context runs (the innermost run, where runs nest), or 0
 * outside every run.  The core's refusal of a wait on a thread's own line (REQ-THREAD-5) asks it:
 * a handler thread is not a CPU, so the per-CPU state of the hard handlers cannot tell. */
unsigned int irqsync_port_thread_current(void);

/* Return once ready(@chan) is non-zero.  The port calls ready() only after the caller is
 * announced as a waiter of @chan, and again after every wake-up, so an irqsync_port_wake(@chan)
 * made after a change ready() reads is never lost.  Called in task context; the port may
 * sleep, or spin with irqsync_port_cpu_relax() (a bare-metal port runs owed thread runs
 * meanwhile). */
void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan));

/* Wake every waiter of @chan to test its ready() again.  A full barrier before. */
void irqsync_port_wake(unsigned int chan);

/* Mask / unmask line @irq at the interrupt controller (IRQF_ONESHOT): while it is masked the
 * port delivers no interrupt of @irq on any CPU; one raised meanwhile is held and delivered
 * after the unmask.  Masks do not nest: the core masks and unmasks in turn.  For a line that is
 * per CPU at the controller (an Arm PPI or SGI) mask, unmask and in-flight act on the calling
 * CPU only. */
void irqsync_port_line_mask(unsigned int irq);
void irqsync_port_line_unmask(unsigned int irq);

/* Whether an interrupt of @irq is in flight at the controller: taken for delivery to a CPU and
 * its handle_irq() call not yet returned (Linux's IRQCHIP_STATE_ACTIVE).  1 or 0; or
 * IRQSYNC_PORT_CANNOT_TELL, which synchronize_irq() then does not wait for. */
#define IRQSYNC_PORT_CANNOT_TELL (-1)
int irqsync_port_line_inflight(unsigned int irq);

#endif /* _IRQSYNC_PORT_H */

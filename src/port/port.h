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

#endif /* _IRQSYNC_PORT_H */

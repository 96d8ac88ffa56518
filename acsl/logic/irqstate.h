/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/irqstate.h - this CPU's local interrupt state (REQ-LOCK-3, REQ-LOCK-4,
 * REQ-LOCK-6; part of logic/model.h).
 *
 *   g_irqs_enabled   1 while local interrupts are enabled on this CPU, 0 while disabled
 *
 * A saved state (irq_flags_t) is known only through port_state_enabled (logic/ghost.h): its
 * encoding is the port's (REQ-FLAGS-2).
 */
#ifndef _IRQSYNC_ACSL_LOGIC_IRQSTATE_H
#define _IRQSYNC_ACSL_LOGIC_IRQSTATE_H

#include "ghost.h"

/*@ predicate irq_state_ok = g_irqs_enabled == 0 || g_irqs_enabled == 1;
    predicate irqs_on = g_irqs_enabled == 1;
    predicate irqs_off = g_irqs_enabled == 0;

    predicate saved_enabled(irq_flags_t f) = port_state_enabled(f) == \true;
    predicate saves_state(irq_flags_t f, integer enabled) =
      (saved_enabled(f) <==> enabled == 1);
    logic integer restored_state(irq_flags_t f) = port_state_enabled(f) ? 1 : 0;
*/

#endif /* _IRQSYNC_ACSL_LOGIC_IRQSTATE_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/logic/lib.h - what every function of the library may rely on when it is called, and
 * restores; and the state a handler is called in (part of logic/model.h).
 */
#ifndef _IRQSYNC_ACSL_LOGIC_LIB_H
#define _IRQSYNC_ACSL_LOGIC_LIB_H

#include "instances.h"
#include "lockrely.h"

/*@ // Everything a function of the library may rely on when it is called, and restores.
    predicate lib_ok = serving_ok && irq_state_ok && lock_stack_room && instances_ok;
    // This CPU serves a line and runs that line's instance: the state a handler is called in.
    predicate serving_instance =
      irqsync_serving[this_ctx] != 0 && instance_running(irqsync_serving[this_ctx] - 1);
*/

#endif /* _IRQSYNC_ACSL_LOGIC_LIB_H */

/* SPDX-License-Identifier: MIT */
/*
 * acsl/warn.h - contracts of the warning counters and hook.
 * Proved by WP against the bodies in src/core/warn.c; included by proofs/core.c only (spec/proof.md).
 * A clause that covers a requirement is named after it (REQ_SYNC_1 covers REQ-SYNC-1).
 */
#ifndef _IRQSYNC_ACSL_WARN_H
#define _IRQSYNC_ACSL_WARN_H

#include "logic/api.h"

/*@ assigns warn_count[..]; */
void irqsync_warn(enum irqsync_warn_code code, unsigned int irq);

/* The user's warning hook (trusted: a call through a pointer). It must leave the library alone. */
/*@ assigns \nothing; */
static void irqsync_call_warn_hook(irqsync_warn_hook_t hook, enum irqsync_warn_code code,
				   unsigned int irq);

/*@ assigns warn_hook;
    ensures \result == \old(warn_hook) && warn_hook == hook;
*/
irqsync_warn_hook_t irqsync_set_warn_hook(irqsync_warn_hook_t hook);

/*@ assigns ACSL_SREAD;
    ensures sread_unchanged{Pre, Post};
    behavior bad_code:
      assumes code < 0 || code >= IRQSYNC_WARN_NR_CODES;
      ensures REQ_ERR_7: \result == -IRQSYNC_EINVAL;
    behavior count:
      assumes 0 <= code < IRQSYNC_WARN_NR_CODES;
      ensures REQ_ERR_7: \result == warn_count[code].counter;
    complete behaviors;
    disjoint behaviors;
*/
long irqsync_warn_count(int code);

/*@ assigns warn_count[..];
    ensures \forall integer c; 0 <= c < IRQSYNC_WARN_NR_CODES ==> warn_count[c].counter == 0;
*/
void irqsync_warn_reset(void);

#endif /* _IRQSYNC_ACSL_WARN_H */

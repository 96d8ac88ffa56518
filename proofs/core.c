/* SPDX-License-Identifier: MIT */
/*
 * proofs/core.c - the unit WP proves: the core's sources in one translation unit, after the
 * logic model (acsl/logic/), the trusted contracts of the port (acsl/port.h) and the
 * contracts of the core, one file per module of src/core (acsl/<module>.h).  One unit lets
 * the contracts of the static helpers sit outside the sources.  Built only by Frama-C (mk/prove.mk), never by a compiler.
 */
#ifndef __FRAMAC__
#error "proofs/core.c is for Frama-C only"
#endif
#include <limits.h>
#include "../acsl/logic/model.h"
#include "../src/core/warn.c"
#include "../acsl/warn.h"
#include "../acsl/desc.h"
#include "../acsl/spinlock.h"
#include "../acsl/irqflags.h"
#include "../acsl/handle.h"
#include "../acsl/manage.h"
#include "../acsl/sync.h"
#include "../acsl/thread.h"
#include "../src/core/spinlock.c"
#include "../src/core/irqflags.c"
#include "../src/core/handle.c"
#include "../src/core/manage.c"
#include "../src/core/thread.c"
/* The wait of synchronize_irq: the shipped one; with -DPROVE_SYNC_V0 (mk/prove.mk's expected
 * failure prove-neg-sync-v0 only) the 2007 original of twins/variants/ in its place. */
#ifdef PROVE_SYNC_V0
#include "../twins/variants/sync-v0.c"
#else
#include "../src/core/sync.c"
#endif

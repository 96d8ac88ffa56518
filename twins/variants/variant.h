/* SPDX-License-Identifier: MIT */
/*
 * twins/variants/variant.h - what every test-only synchronize_irq variant
 * needs (REQ-SYNC-6).  A variant file replaces src/core/sync.c in a test
 * library (mk/lib.mk, IRQSYNC_LIB_RULES' <sync source>); the shipped tree
 * has no way to build one.
 */
#ifndef _IRQSYNC_TESTS_VARIANT_H
#define _IRQSYNC_TESTS_VARIANT_H

#ifndef IRQSYNC_TESTING
#error "twins/variants/ are for test builds only (define IRQSYNC_TESTING): a default build ships src/core/sync.c (REQ-SYNC-6)"
#endif

#include "../../src/core/desc.h"

#endif /* _IRQSYNC_TESTS_VARIANT_H */

/* SPDX-License-Identifier: MIT */
/*
 * tests/variants/spin.h - the unlocked spin of v0 and v1: the shipped one
 * (src/core/spin.h), behind the test-build guard of variant.h; its contract in
 * acsl/sync.h applies in the v0 proof (mk/prove.mk prove-neg-sync-v0).
 */
#ifndef _IRQSYNC_TESTS_VARIANT_SPIN_H
#define _IRQSYNC_TESTS_VARIANT_SPIN_H

#include "variant.h"

#include "../../src/core/spin.h"

#endif /* _IRQSYNC_TESTS_VARIANT_SPIN_H */

#!/usr/bin/env bash
# 50-proof — Frama-C WP: the gate proves everything it claims, and fails where it must.
# Budget in make check: 5 minutes on a loaded 2-core machine (prover results are cached in
# build/proofs/cache; the expected failures show that a cached run still fails on a goal).
cd "$(dirname "$0")/../.." || exit 1
source tests/lib.sh

if ! command -v frama-c >/dev/null || ! command -v why3 >/dev/null; then
  t_fail "proof/tools" "frama-c or why3 missing: run make deps"
  exit 0
fi

t_run "proof/why3-config [REQ-TCB-2]" make -s prove-config
t_run "proof/trial-gate [REQ-SYNC-1] [REQ-LOCK-3]" make -s prove-trial
t_run_fail "proof/trial-v0-fails-sync [REQ-SYNC-1]" \
  "expected-failure: matched \['synchronize:synchronize_ensures_REQ_SYNC_1_sync_locked_recheck'\]" \
  make -s prove-neg-trial-v0

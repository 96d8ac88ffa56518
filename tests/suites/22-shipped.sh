#!/usr/bin/env bash
# Proved is shipped (issue 23): the lock's bodies, inline in production and out of line in the
# builds that check them (step hooks, valgrind, Frama-C, sparse), differ only by hooks that
# expand to ((void)0) in production; shown on the preprocessor's output
# (tests/shipped/hooks_check.py). Each seeded production-only divergence of
# tests/shipped/mutants.py must fail it by name. The compiled side (the release store is the
# store that publishes) is the barrier check of [70-cross]. [REQ-LOCK-1 REQ-MM-4]
. tests/lib.sh
B=${BUILD:-build}/shipped; mkdir -p "$B"

t_run "shipped/lock bodies: production hooks expand to ((void)0), nothing else differs from the checked builds [REQ-LOCK-1 REQ-MM-4]" \
  python3 -m tests.shipped.hooks_check

# The seeded production-only divergences (twins/catalog.yml, kind shipped-mutant): each is one
# edit of one header (tests/shipped/mutants.py writes it), compiled in place of the real one
# through an include directory searched first; the check must reject it by name.
for id in $(t_twins shipped-mutant); do
  m=${id#shipped-}
  rm -rf "$B/$m"
  t_twin "$id" bash -c 'python3 -m tests.shipped.mutants "$1" "$2" >/dev/null &&
                        python3 -m tests.shipped.hooks_check -I "$2"' _ "$m" "$B/$m"
done

# A mutant that is the same in every build is not this check's to find (the barrier check and
# the refinement check find it): the check must not reject it, or it would reject anything.
t_run "shipped/accepts a bug that is the same in every build (relaxed-first-look) [REQ-MM-4]" \
  bash -c 'python3 -m tests.shipped.mutants relaxed-first-look "$1" >/dev/null &&
           python3 -m tests.shipped.hooks_check -I "$1"' _ "$B/relaxed-first-look"

# The compiled side's order roles (tools/cross/barrier_check.py publish, wait_acquire), clause
# by clause on listings of each target's probe and their one-access mutations, without the
# cross toolchains: each clause accepts the real listing and rejects its mutation by name.
# [70-cross] runs the roles on the real probes of all seven targets. [REQ-MM-4 REQ-TCB-1]
t_tap "shipped/barrier-order" python3 -m tests.cross.order_cases

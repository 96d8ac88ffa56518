#!/usr/bin/env bash
# 40-stress — the library under real (signal) interrupts on 4 CPU threads, the stress
# detectors shown able to fail, sanitizer builds of the stress test, and the hardware race
# demonstration (tests/race/race.c).  Budget: <= 4 min.
# `make test` runs the long stress (>= 10^6 interrupts); this suite a shorter one.
source tests/lib.sh

t_run "stress/build" make -s -j2 stress-tests
((T_LAST_RC == 0)) || exit 0   # the build failed (recorded above): never run an older binary

SREQ="REQ-SYNC-1 REQ-SYNC-2 REQ-SYNC-3 REQ-SYNC-4 REQ-DEPTH-1 REQ-LIFECYCLE-5 REQ-DISPATCH-2 REQ-DISPATCH-3 REQ-DISPATCH-8 REQ-LOCK-1"
t_run "stress/v2-300k-interrupts-zero-violations [$SREQ]" build/tests/stress 300000 120
# The detectors can fail: a library whose synchronize_irq does not wait must be caught.
t_run_fail "stress/mutant-nowait-detected [REQ-SYNC-1]" \
  'sync_running \[REQ-SYNC-1\] +[1-9]' build/tests/stress-mutant-nowait 300000 120

# Sanitizer builds of the stress test (REQ-IMPL-2).  TSan wants a non-randomised layout.
tsan() { if setarch "$(uname -m)" -R true 2>/dev/null; then setarch "$(uname -m)" -R "$@"; else "$@"; fi; }
t_run "stress/asan+ubsan-50k [REQ-IMPL-2]" build/tests/stress-asan 50000 120
t_run "stress/tsan-30k [REQ-IMPL-2]" tsan build/tests/stress-tsan 30000 120
t_run_fail "stress/tsan-sees-mutant-race [REQ-IMPL-2 REQ-SYNC-2]" \
  'ThreadSanitizer: data race' tsan build/tests/stress-tsan-mutant 30000 120

# Hardware race rounds: v0 and v1 must show the race within the cap; v2 must not (REQ-SYNC-3/4).
# The first violation usually comes within milliseconds, but on a machine whose other core is
# busy the two sides rarely overlap (a clean-clone run under load saw v1 miss a 10 s cap after
# 206,848 rounds), so the cap is 30 s (and three attempts, below): it costs nothing when the race shows.
if ! build/tests/race-v2 --probe >"$LOGDIR/race-probe.log" 2>&1; then
  t_skip "race/hardware [REQ-SYNC-3 REQ-SYNC-4]" "$(tail -1 "$LOGDIR/race-probe.log")"
  exit 0
fi
VRE='VIOLATION: round [0-9]+ .*synchronize_irq returned'
# "v0/v1 can show the race" is an existence claim: up to three capped attempts (a session's
# clean-clone run beside a full `make` saw v1 miss one 30 s cap after 148,480 rounds). The
# "v2 shows none" runs below get one attempt each: no retry could hide a violation.
observe() { local a; for a in 1 2 3; do echo "attempt $a"; "$@" || return; done; }
t_run_fail "race/v0-no-barrier-observes-race [REQ-SYNC-4]" "$VRE" observe build/tests/race-v0 --cap 30
t_run_fail "race/v1-observes-race [REQ-SYNC-3]" "$VRE" observe build/tests/race-v1 --cap 30
t_run "race/v2-no-barrier-no-violation [REQ-SYNC-4]" build/tests/race-v2 --cap 5
t_run "race/v2-barrier-no-violation [REQ-SYNC-3]" build/tests/race-v2 --barrier --cap 5

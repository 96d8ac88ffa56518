#!/usr/bin/env bash
# 85-mutants — a fixed sample of the mutation campaign (tests/mutants/catalog.json,
# tools/mutants/campaign.py; the whole campaign is `make mutants`).  Each mutant is applied to a
# copy of the tree under build/mutants/ and the named technique runs on that copy; the case
# passes only if the technique fails with the specific killing failure.  The unmutated copy is
# the control: every technique must pass on it.  One mutant per technique.  Budget: <= 3 min.
source tests/lib.sh

C="python3 -m tools.mutants.campaign --one"
t_run "mutants/build [REQ-TCB-1]" make -s -j2 conformance-bins

# control: no mutation, nothing killed (so a kill below is the mutation's doing)
for t in tests conformance spin; do
  t_run "mutants/control-unmutated-survives-$t [REQ-TCB-1]" $C null --technique "$t"
done

# killed ID BY REQS REGEX: mutant ID must be killed by technique BY (spin-litmus: spin, by one of
# its litmus tests), with a killing failure that matches REGEX.
killed() {
  t_run_fail "mutants/$1-killed-by-$2 [$3]" "killed by ${2%%-*}: $4" $C "$1" --technique "${2%%-*}"
}
# the conformance harness (C): the locked re-check dropped
killed c-recheck-dropped conformance "REQ-SYNC-3 REQ-SYNC-4 REQ-IMPL-3" \
  ".*diverged: step [0-9]+: model cpu0 S_LOCK, C cpu0 S_RETURN"
# the tests: the unbalanced-enable check removed; a ticket lock that does not wait
killed c-unbalanced-enable-check-removed tests "REQ-DEPTH-4 REQ-ERR-5" \
  "unit: not ok [0-9]+ - unbalanced_enable_reported"
# (the unit test of mutual exclusion catches it when the threads overlap; lockcheck always does)
killed c-ticket-no-wait tests "REQ-LOCK-1 REQ-LOCK-2" \
  "(lockcheck: not ok 1 - a second CPU spins while the lock is held|unit: not ok [0-9]+ - ticket_lock_mutual_exclusion)"
# SPIN: the model's locked re-check dropped
killed m-recheck-dropped spin "REQ-SYNC-1 REQ-SYNC-3" \
  "MM_TSO VARIANT=2 SCEN=SCEN_SYNC .*expected hold, got violation: .*assertion violated \(before==0\)"
# SPIN's litmus tests (memory model): a TSO locked RMW that does not drain the store buffer
# (survived the protocol runs; killed only by the unlock-lock litmus test)
killed m-tso-lock-no-drain spin-litmus "REQ-MM-2 REQ-MM-5" \
  "litmus sb\+unlock-lock.pml MM_TSO: expected forbidden"
# the conformance harness (model): an arrival on a busy line dropped by the model
killed m-pending-not-set conformance "REQ-DISPATCH-2 REQ-IMPL-3" \
  ".*D_SET_PENDING writes status: model 1, C 3"
# WP: `make mutants` runs WP on every C mutant (an unmutated control first, whose unit results
# seed every copy, so a mutant reproves only the units whose key it changed). Even so one mutant
# takes minutes, beyond this group's budget; WP's kills in `make check` are the expected failures
# of [50-proof]. Checked here: how the campaign reads a WP run. A kill is a failure of the gate
# named by its goal; a tool failure, a missing result or the time limit is an error, never a kill.
t_run "mutants/wp-verdict: a kill names its goal, a tool failure is an error [REQ-TCB-1]" \
  python3 tests/mutants/check_wp_verdict.py
# ... and that check can fail: the old rule (any failing `make prove` kills) is caught.
t_run_fail "mutants/wp-verdict: the rule 'any failing prove is a kill' is caught" \
  "BAD tool-crash: killed \(prove: FAILED\) \(want error" \
  python3 tests/mutants/check_wp_verdict.py --classifier exit-status

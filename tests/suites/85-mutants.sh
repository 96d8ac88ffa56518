#!/usr/bin/env bash
# 85-mutants — a fixed sample of the mutation campaign (twins/catalog.yml,
# tools/mutants/campaign.py; the whole campaign is `make mutants`).  Each mutant is applied to a
# copy of the tree under build/mutants/ and the named technique runs on that copy; the case
# passes only if the technique fails with the specific killing failure.  The unmutated copy is
# the control: every technique must pass on it.  One mutant per technique.  Budget: <= 3 min.
# check-uses: lib model   (tools/runtests.py: builds the replay binaries, runs SPIN)
source tests/lib.sh

C="python3 -m tools.mutants.campaign --one"
t_run "mutants/build [REQ-TCB-1]" make -s -j2 conformance-bins

# control: no mutation, nothing killed (so a kill below is the mutation's doing)
for t in tests conformance spin; do
  t_run "mutants/control-unmutated-survives-$t [REQ-TCB-1]" $C null --technique "$t"
done

# The sample (twins/catalog.yml: the campaign mutants with a killer in this group): each must be
# killed by its killer's technique, with the killing failure the catalog gives. One technique each:
# the conformance harness (C: the locked re-check dropped; model: an arrival on a busy line
# dropped), the tests (the unbalanced-enable check removed; a ticket lock that does not wait),
# SPIN (the model's re-check dropped) and SPIN's litmus tests (a TSO locked RMW that does not drain
# the store buffer: it survived the protocol runs, and only the unlock-lock litmus test kills it).
for id in $(t_twins campaign-mutant); do
  t_twin "$id" $C "$id" --technique "$(python3 -m tools.twins killers "$id" --suite "$SUITE" --field technique)"
done
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

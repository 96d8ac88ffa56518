#!/usr/bin/env bash
# 85-mutants — a fixed sample of the mutation campaign (tests/mutants/catalog.json,
# tools/mutants/campaign.py; the whole campaign is `make mutants`).  Each mutant is applied to a
# copy of the tree under build/mutants/ and the named technique runs on that copy; the case
# passes only if the technique fails with the specific killing failure.  The unmutated copy is
# the control: every technique must pass on it.  One mutant per technique.  Budget: <= 3 min.
source tests/lib.sh

C="python3 tools/mutants/campaign.py --one"
t_run "mutants/build [REQ-TCB-1]" make -s -j2 conformance-bins

# control: no mutation, nothing killed (so a kill below is the mutation's doing)
t_run "mutants/control-unmutated-survives-tests [REQ-TCB-1]" $C null --technique tests
t_run "mutants/control-unmutated-survives-conformance [REQ-TCB-1]" $C null --technique conformance
t_run "mutants/control-unmutated-survives-spin [REQ-TCB-1]" $C null --technique spin

# the conformance harness (C): the locked re-check dropped
t_run_fail "mutants/c-recheck-dropped-killed-by-conformance [REQ-SYNC-3 REQ-SYNC-4 REQ-IMPL-3]" \
  "killed by conformance: .*diverged: step [0-9]+: model cpu0 S_LOCK, C cpu0 S_RETURN" \
  $C c-recheck-dropped --technique conformance
# the tests: the unbalanced-enable check removed; a ticket lock that does not wait
t_run_fail "mutants/c-unbalanced-enable-check-removed-killed-by-tests [REQ-DEPTH-4 REQ-ERR-5]" \
  "killed by tests: unit: not ok [0-9]+ - unbalanced_enable_reported" \
  $C c-unbalanced-enable-check-removed --technique tests
# (the unit test of mutual exclusion catches it when the threads overlap; lockcheck always does)
t_run_fail "mutants/c-ticket-no-wait-killed-by-tests [REQ-LOCK-1 REQ-LOCK-2]" \
  "killed by tests: (lockcheck: not ok 1 - a second CPU spins while the lock is held|unit: not ok [0-9]+ - ticket_lock_mutual_exclusion)" \
  $C c-ticket-no-wait --technique tests
# SPIN: the model's locked re-check dropped
t_run_fail "mutants/m-recheck-dropped-killed-by-spin [REQ-SYNC-1 REQ-SYNC-3]" \
  "killed by spin: MM_TSO VARIANT=2 SCEN=SCEN_SYNC .*expected hold, got violation: .*assertion violated \(before==0\)" \
  $C m-recheck-dropped --technique spin
# SPIN's litmus tests (memory model): a TSO locked RMW that does not drain the store buffer
# (survived the protocol runs; killed only by the unlock-lock litmus test)
t_run_fail "mutants/m-tso-lock-no-drain-killed-by-spin-litmus [REQ-MM-2 REQ-MM-5]" \
  "killed by spin: litmus sb\+unlock-lock.pml MM_TSO: expected forbidden" \
  $C m-tso-lock-no-drain --technique spin
# the conformance harness (model): an arrival on a busy line dropped by the model
t_run_fail "mutants/m-pending-not-set-killed-by-conformance [REQ-DISPATCH-2 REQ-IMPL-3]" \
  "killed by conformance: .*D_SET_PENDING writes status: model 1, C 3" \
  $C m-pending-not-set --technique conformance
# WP: a full `make prove` on a mutated copy takes minutes even from the cache, beyond this
# group's budget. WP's kills in `make check` are the expected failures of [50-proof] (the v0
# re-check, an unlocked status write, spin_lock_irq in an irqsave region); the WP column of every
# mutant the catalog expects WP to kill runs in `make mutants`.

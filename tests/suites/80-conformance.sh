#!/usr/bin/env bash
# 80-conformance — model ↔ code conformance (tests/conformance/, REQ-IMPL-3, REQ-TCB-1).
# The real C core replays SPIN's schedules (random simulations + every counterexample trail of
# the known-bad variants) under a deterministic scheduler; hand-written schedules show that the
# harness can fail, and that a difference is excused only by a documented gap, at most a fixed
# number per run (spec/conformance.md); the shipped library carries no step hook.  Budget: <= 3 min.
source tests/lib.sh

t_run "conformance/build [REQ-IMPL-3]" make -s -j2 conformance-bins lib
((T_LAST_RC == 0)) || exit 0   # the build failed (recorded above): never run an older binary

R=build/conformance
sched=tests/conformance/schedules
# Hand-written schedules: one that conforms, the v0 race under emulated TSO, and the ways a
# replay must fail (wrong step order, wrong end state, no emulation, v2 on v0's counterexample).
t_run "conformance/hand-sync-v2-sc [REQ-IMPL-3 REQ-SYNC-1]" $R/replay-v2 $sched/sync-v2-sc.sched
t_run_fail "conformance/hand-bad-order-diverges [REQ-IMPL-3 REQ-TCB-1]" \
  "diverged: step 2: model cpu1 D_SET_INPROGRESS, C cpu1 D_CHECK" $R/replay-v2 $sched/bad-order.sched
t_run_fail "conformance/hand-bad-end-state-mismatch [REQ-IMPL-3 REQ-TCB-1]" \
  "end state: chain passes: model 2, C 1" $R/replay-v2 $sched/bad-end-state.sched
reproduce() { $R/replay-v0 $sched/race-v0-tso.sched | tee /dev/stderr | grep -q "same violation: sync1"; }
t_run "conformance/hand-v0-tso-race-reproduced [REQ-SYNC-1 REQ-SYNC-4 REQ-IMPL-3]" reproduce
t_run_fail "conformance/hand-v0-race-needs-store-buffers [REQ-TCB-1]" \
  "cpu0 S_SPIN_READ reads status: model 0, C 1" $R/replay-v0 $sched/race-v0-no-emulation.sched
t_run "conformance/hand-v2-cannot-follow-v0-race (diverges by step name: not evidence for REQ-SYNC-*, issue 16)" $R/replay-v2 $sched/race-v0-tso-on-v2.sched
t_run_fail "conformance/hand-v0-does-reproduce (control) [REQ-TCB-1]" \
  "this build reproduces the counterexample \(sync1\)" $R/replay-v0 $sched/race-v0-tso-on-v2.sched

# Replay without loopholes (issue 16; spec/conformance.md: "The `before` window", "Documented gaps").
# The ghost bug: an instance that ended left the early end of the model's `before` window in the
# harness, so a new instance on the same CPU gave a false sync1, filed as a gap.  SPIN's
# schedule that showed it, and one that pins the early end, must replay with no violation and
# no gap; the harness rebuilt with the bug put back must fail the pinned one (control).
no_false_sync1() {
  local out; out=$($R/replay-v0 "$sched/$1.sched" 2>&1); echo "$out"
  grep -q '^ok hand/' <<<"$out" && ! grep -Eq 'VIOLATION|^gap |^FAIL' <<<"$out"
}
t_run "conformance/ghost-new-instance-same-cpu-no-sync1 [REQ-SYNC-1 REQ-TCB-1]" \
  no_false_sync1 ghost-new-instance-same-cpu
t_run "conformance/ghost-instance-ends-then-begins-again-no-sync1 [REQ-SYNC-1 REQ-TCB-1]" \
  no_false_sync1 ghost-instance-ends-then-begins-again
ghost_bug_put_back() {   # the harness with the one line of the fix removed (exact-once edit)
  local fix='before_early &= ~(1 << c);' dir=$R/ghost-bug cmd
  [[ $(grep -cF "$fix" tests/conformance/replay.c) == 1 ]] || { echo "the fix is not one line of replay.c: control stale"; return 3; }
  mkdir -p "$dir" && grep -vF "$fix" tests/conformance/replay.c >"$dir/replay.c"
  # the compile command of replay-v0 as mk/ has it (make -n), pointed at the copy
  cmd=$(make -n -W tests/conformance/replay.c $R/replay-v0 | sed -e :a -e '/\\$/N; s/\\\n//; ta' |
        grep -F -- "-o $R/replay-v0")
  [[ -n $cmd ]] || { echo "make -n shows no compile command for $R/replay-v0"; return 3; }
  cmd=${cmd//tests\/conformance\/replay.c/$dir/replay.c}
  eval "${cmd//-o $R\/replay-v0/-o $dir/replay-v0}" || return 3
  $dir/replay-v0 $sched/ghost-instance-ends-then-begins-again.sched
}
t_run_fail "conformance/ghost-bug-put-back-fails (control) [REQ-TCB-1]" \
  "FAIL hand/ghost-instance-ends-then-begins-again .*harness ghost: .before. at the early end" ghost_bug_put_back

# Ambiguity of `before` excuses nothing but the one ghost gap (the model's verdict is the late
# end's, same steps, same end state): a divergence, another violation or another end state on
# an ambiguous schedule fails.  The documented gap itself is named, not failed.
ghost_gap_named() { $R/replay-v0 $sched/ghost-window-late-v0-tso.sched | tee /dev/stderr |
  grep -q '^gap hand/ghost-window-late-v0-tso .*violation: model sync1, C sync3-return (gap-ghost-before'; }
t_run "conformance/ghost-window-late-is-the-gap [REQ-SYNC-1 REQ-SYNC-4 REQ-TCB-1]" ghost_gap_named
t_run_fail "conformance/ambiguous-and-diverges-fails [REQ-IMPL-3 REQ-TCB-1]" \
  "FAIL hand/ambiguous-diverges .*diverged: step 11: model cpu1 D_CHECK_PENDING, C cpu1 D_RELOCK" \
  $R/replay-v0 $sched/ambiguous-diverges.sched
t_run_fail "conformance/ambiguous-other-violation-fails [REQ-IMPL-3 REQ-TCB-1]" \
  "FAIL hand/ambiguous-wrong-violation .*violation: model none, C sync3-return; the late end .* gives sync1" \
  $R/replay-v0 $sched/ambiguous-wrong-violation.sched
t_run_fail "conformance/ambiguous-other-end-state-fails [REQ-IMPL-3 REQ-TCB-1]" \
  "FAIL hand/ambiguous-wrong-end-state .*end state: chain passes: model 1, C 0" \
  $R/replay-v0 $sched/ambiguous-wrong-end-state.sched

# The gap cap: the number spec/conformance.md states is the harness's; that many gaps in one run
# pass (each named), one more fails.
spec_cap() { sed -nE 's/.*Gap cap: ([0-9]+) per replay run.*/\1/p' spec/conformance.md | head -n 1; }
gap_copies() { local i; for ((i = 0; i < $1; i++)); do cat $sched/chain-snapshot-gap-v2.sched; done; }
cap_holds() {
  local cap out; cap=$(spec_cap)
  [[ -n $cap ]] || { echo "spec/conformance.md states no 'Gap cap: N per replay run'"; return 1; }
  out=$(gap_copies "$cap" | $R/replay-v2); echo "$out"
  [[ $(grep -c '^gap hand/chain-snapshot-gap-v2 .*(gap-chain-snapshot, refinement.md)$' <<<"$out") == "$cap" ]] &&
    grep -q "gap $cap, cannot 0, failed 0 (v2 build, gap cap $cap)" <<<"$out"
}
t_run "conformance/gap-cap-is-the-spec's-and-that-many-gaps-pass [REQ-TCB-1]" cap_holds
cap_exceeded() { gap_copies $(($(spec_cap) + 1)) | $R/replay-v2; }
t_run_fail "conformance/gap-cap-exceeded-fails [REQ-TCB-1]" \
  "FAIL hand/chain-snapshot-gap-v2 .*: gap $(($(spec_cap) + 1)) of this run, more than the cap of $(spec_cap) " cap_exceeded

# The ticket lock through the hooks: the one thing the replay cannot contend (REQ-LOCK-1/2).
t_tap "conformance/lockcheck" $R/lockcheck

# SPIN's schedules: >= 1000 replayed (CONF_SEEDS random simulations per configuration).
# This group writes its own summary under build/conformance/: build/evidence/conformance.json
# belongs to the stamped producer (`make conformance`, run by `make`); a file written there
# by a test would be shown by the report as unstamped.
CONF_JSON=$R/conformance.json
ev_sum() { { stat -c %y build/evidence/conformance.json && sha256sum build/evidence/conformance.json; } 2>/dev/null ||
  echo "no evidence/conformance.json"; }
ev_before=$(ev_sum)
rm -f "$CONF_JSON"
t_run "conformance/spin-schedules-replayed [REQ-IMPL-3 REQ-TCB-1]" \
  python3 tests/conformance/run.py --seeds "${CONF_SEEDS:-20}" --trails 10 --min 1000 \
  --out "$CONF_JSON"
ev_same() { local now; now=$(ev_sum); echo "before: $ev_before"; echo "after:  $now"; [[ $now == "$ev_before" ]]; }
t_run "conformance/group-leaves-the-stamped-evidence-alone (writes $CONF_JSON)" ev_same
if [[ -f $CONF_JSON ]]; then
  trails() { python3 - "$1" "$CONF_JSON" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["variants"]
v = sys.argv[1]
if v == "v2":
    print("v2 cannot reproduce", r["v2"]["cannot"], "counterexample trails")
    sys.exit(0 if r["v2"]["cannot"] > 0 else 1)
print(v, "reproduced", r[v]["trails_reproduced"], "of", r[v]["trails"])
sys.exit(0 if r[v]["trails"] > 0 and r[v]["trails_reproduced"] == r[v]["trails"] else 1)
PY
  }
  t_run "conformance/v0-trails-reproduced-in-C [REQ-SYNC-4 REQ-IMPL-3]" trails v0
  t_run "conformance/v1-trails-reproduced-in-C [REQ-SYNC-3 REQ-IMPL-3]" trails v1
  # Not a mapped replay: v2 diverges at the first step name that differs (S_LOCK where v0
  # returns, S_SPIN_READ where v1 fences) and runs free; spec/conformance.md, "What it does not
  # cover".  Issue 16's mapped v2 replay of these trails is still to come.
  t_run "conformance/v2-cannot-reproduce-them (diverges by step name: not evidence for REQ-SYNC-*, issue 16)" trails v2
fi

# REQ-IMPL-3: the production library's object code has no hook — no irqsync_step symbol defined
# or referenced, no call to it in the disassembly — while the hook build does (not blind).
no_hook() {
  local prod=build/lib/libirqsync.a hooks=build/conformance/lib-v2/libirqsync.a
  nm "$hooks" | grep -q ' U irqsync_step$' || { echo "hook build references no irqsync_step: blind check"; return 1; }
  objdump -dr "$hooks" | grep -Eq 'R_[A-Z0-9_]+[[:space:]]+irqsync_step' || { echo "no call in the hook build: blind check"; return 1; }
  if nm "$prod" | grep -E 'irqsync_step|irqsync_set_step_hook'; then echo "production library has a hook symbol"; return 1; fi
  if objdump -dr "$prod" | grep -E 'irqsync_step'; then echo "production code calls the hook"; return 1; fi
  echo "production: $(nm "$prod" | grep -c ' T ') functions, no step hook; hook build: $(objdump -dr "$hooks" | grep -Ec 'R_[A-Z0-9_]+[[:space:]]+irqsync_step') hook call sites"
}
t_run "conformance/production-build-has-no-hook [REQ-IMPL-3]" no_hook

#!/usr/bin/env bash
# The SPIN model (promela/): the quick matrix -- every litmus test under sc/tso/weak against the
# x86 and Armv8 verdicts [REQ-MM-1 REQ-MM-2 REQ-MM-3 REQ-MM-5], synchronize_irq v0/v1/v2 x
# sc/tso/weak at 2 CPUs [REQ-SYNC-1 REQ-SYNC-3 REQ-SYNC-4], free/depth/hazard scenarios, the
# non-vacuity probes, the store-buffer depth pitfall [REQ-MM-6], bad arguments; the chain walk on
# a shared line with its seeded bugs [REQ-DISPATCH-4], the ticket lock's FIFO order against the
# test-and-set lock [REQ-LOCK-2], concurrent request_irq with its seeded bugs [REQ-LIFECYCLE-2]
# (rows of the quick matrix).
# Every expected violation passes only when pan reports that specific assertion or claim.
. tests/lib.sh
B=build/model-check
mkdir -p "$B"
R1="python3 tools/model/run1.py"

# --- the quick matrix: one case per pan run, read back from its JSON ---
t0=$EPOCHREALTIME
python3 tools/model/matrix.py --set quick --jobs "${JOBS:-2}" --build "$B" \
  --out "$B/model-quick.json" >"$LOGDIR/matrix.log" 2>&1
rc=$?
if [[ ! -s $B/model-quick.json ]]; then
  t_fail "model/quick matrix ran" "exit $rc, no JSON (log: $LOGDIR/matrix.log)"
else
  while IFS=$'\t' read -r st name detail; do
    t_record "$st" "$name" 0 "$detail"
  done < <(python3 - "$B/model-quick.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    c = r["config"]
    cfg = f" c{c['cpus']}" if r["kind"] == "protocol" else ""
    name = (f"model/{r['kind']}/{r['name']} {r['variant'] + ' ' if r['variant'] else ''}"
            f"{r['memory_model']}{cfg} expect {r['expected']} [{' '.join(r['requirements'])}]")
    ok = (r["result"] == r["expected"]
          and not r.get("detail", "").startswith("a different violation"))
    det = (f"{r['result']}: {r.get('detail', '')} states={r['states']}"
           + (f" trail={r['trail']}" if r.get("trail") else ""))
    print(("pass" if ok else "fail") + "\t" + name + "\t" + det.replace("\t", " "))
PY
)
  t_ok "model/quick matrix complete [REQ-MM-5]" "$(tail -1 "$LOGDIR/matrix.log") ($(_t_dt "$t0")s)"
fi

# --- direct runs: expected violations must name the specific assertion ---
t_run_fail "model/direct v1 tso tg3+mb: SPIN finds the stale-flag handler [REQ-SYNC-3 REQ-MM-2]" \
  'assertion violated (\(stale==0\)|\s*!\(returned\))' $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 CALLER_MB=1
t_run_fail "model/direct v0 weak tg3 no mb: stale-flag handler [REQ-SYNC-4 REQ-MM-3]" \
  'assertion violated (\(stale==0\)|\s*!\(returned\))' $R1 MM_WEAK VARIANT=0 CHECK_SYNC1=0 CALLER_MB=0
t_run_fail "model/direct v0 tso: an instance begun before the call still runs [REQ-SYNC-1]" \
  'assertion violated \(before==0\)' $R1 MM_TSO VARIANT=0 CHECK_FLAG=0
t_run "model/direct v2 weak 3 CPUs 2 arrivals holds [REQ-SYNC-1 REQ-SYNC-3 REQ-MM-3]" \
  $R1 MM_WEAK VARIANT=2 NCPU=3 ARRIVALS=2
t_run_fail "model/direct hazard: interrupt spins on the lock its CPU holds [REQ-LOCK-4]" \
  'assertion violated \(lk_owner\[[0-9]+\]!=\(0\+1\)\)' $R1 MM_TSO SCEN=SCEN_HAZARD HAZARD_FIX=0

t_run_fail "model/direct v1 weak: the handler's last write is not visible after the return [REQ-SYNC-2]" \
  'assertion violated\s+\(?\s*!\(must_see\)' $R1 MM_WEAK VARIANT=1 CHECK_SYNC1=0 CHECK_FLAG=0 CHECK_SYNC2=1 ARRIVALS=2
t_run "model/direct v2 weak: the handler's last write is visible after the return [REQ-SYNC-2]" \
  $R1 MM_WEAK VARIANT=2 CHECK_SYNC1=0 CHECK_FLAG=0 CHECK_SYNC2=1 ARRIVALS=2

# --- the LTL form of SYNC, checked with the assertions compiled out ---
t_run_fail "model/ltl sync v1 tso: claim violated [REQ-SYNC-3]" 'returned&&\(stale>0\)' \
  $R1 --ltl MM_TSO VARIANT=1 CHECK_SYNC1=0 CHECK_FLAG=0 LTL_SYNC
t_run "model/ltl sync v2 weak holds [REQ-SYNC-3 REQ-MM-3]" \
  $R1 --ltl MM_WEAK VARIANT=2 CHECK_SYNC1=0 CHECK_FLAG=0 LTL_SYNC

# --- store-buffer depth: one entry hides v1's race under TSO; two show it [REQ-MM-6] ---
t_run "model/depth: TSO with a 1-entry buffer wrongly makes v1 look safe [REQ-MM-6]" \
  $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 SBD=1
t_run_fail "model/depth: TSO with a 2-entry buffer finds v1's race [REQ-MM-6 REQ-SYNC-3]" \
  'assertion violated' $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 SBD=2
# --- WEAK's early loads are needed: without them IRIW is wrongly forbidden [REQ-MM-3] ---
t_run "model/weak without early loads (HIST=1) wrongly forbids IRIW [REQ-MM-3 REQ-MM-6]" \
  $R1 --model promela/litmus/iriw.pml MM_WEAK HIST=1
t_run_fail "model/weak with early loads allows IRIW [REQ-MM-3 REQ-MM-5]" \
  'assertion violated' $R1 --model promela/litmus/iriw.pml MM_WEAK

# --- a saved trail replays with its one command ---
tr=$(ls "$B"/evidence/trails/protocol-sync-flag-mb-v1-tso-*.replay.sh 2>/dev/null | head -1)
if [[ -n $tr ]]; then
  t_run_fail "model/trail of v1 tso replays to the same assertion [REQ-SYNC-3]" \
    'assertion violated' bash -c "$tr && exit 1"
else
  t_fail "model/trail of v1 tso replays to the same assertion [REQ-SYNC-3]" "no replay script under $B/evidence/trails"
fi

# --- bad arguments: a clear error naming the valid range, non-zero exit, nothing run ---
t_run_fail "model/bad CPUS=0 names the range [REQ-ERR-7]" 'CPUS=0 is out of range: valid values are 2\.\.5' \
  make -s model CPUS=0
t_run_fail "model/bad MM=foo names the models [REQ-ERR-7]" 'MM=foo is not a memory model: valid values are sc, tso, weak' \
  make -s model MM=foo
t_run_fail "model/bad ARRIVALS=9 names the range [REQ-ERR-7]" 'ARRIVALS=9 is out of range: valid values are 1\.\.4' \
  make -s model ARRIVALS=9

# --- progress (REQ-SYNC-5): synchronize_irq returns under weak fairness; without fairness, or on
# WEAK without eventual visibility, SPIN shows the non-terminating spin (so the check can fail) ---
t_run "model/ltl term v2 weak, weak fairness: synchronize_irq returns [REQ-SYNC-5]" \
  $R1 --fair MM_WEAK VARIANT=2 LTL_TERM MM_EVENTUAL CHECK_SYNC1=0 CHECK_FLAG=0
t_run_fail "model/ltl term without fairness: the spinner starves the handler [REQ-SYNC-5]" \
  'acceptance cycle' $R1 --ltl MM_TSO VARIANT=2 LTL_TERM CHECK_SYNC1=0 CHECK_FLAG=0

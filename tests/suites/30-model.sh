#!/usr/bin/env bash
# The SPIN model (promela/): the quick matrix -- every litmus test under sc/tso/weak against the
# x86 and Armv8 verdicts [REQ-MM-1 REQ-MM-2 REQ-MM-3 REQ-MM-5], synchronize_irq v0/v1/v2 x
# sc/tso/weak at 2 CPUs [REQ-SYNC-1 REQ-SYNC-3 REQ-SYNC-4], free/depth/hazard scenarios, the
# non-vacuity probes, the store-buffer depth pitfall [REQ-MM-6], bad arguments; the chain walk on
# a shared line with its seeded bugs [REQ-DISPATCH-4], the ticket lock's FIFO order against the
# test-and-set lock [REQ-LOCK-2], concurrent request_irq with its seeded bugs [REQ-LIFECYCLE-2]
# (rows of the quick matrix); the quick matrix as 2 shards + merge equals the unsharded run, and
# the merge refuses missing, duplicated, foreign or incomplete shards [REQ-MM-5]; the symmetry
# reduction R14 (its cutoff, a known-bad twin, its premise monitor) and a swarm smoke run
# [REQ-MM-6] (the frontier and the real swarm are `make model-scale` / `make model-swarm`).
# Every expected violation passes only when pan reports that specific assertion or claim.
# check-uses: model   (tools/runtests.py: SPIN's work files and pan cache under $BUILD/model)
. tests/lib.sh
B=${BUILD:-build}/model-check
mkdir -p "$B"
R1="python3 -m tools.model.run1"

# --- the quick matrix: one case per pan run, read back from its JSON ---
t0=$EPOCHREALTIME
rm -f "$B/model-quick.json"   # a run that dies must not leave an older result to be read back
python3 -m tools.model.matrix --set quick --jobs "${JOBS:-2}" --build "$B" \
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

# --- the evidence names files relative to the repository: pan's messages and spin's replays
# name the model as promela/…, never by this checkout's path ---
no_checkout_path() {
  python3 - "$B/model-quick.json" "$PWD/" <<'PY'
import glob, json, sys
path, checkout = sys.argv[1], sys.argv[2]
rows = json.load(open(path))
files = [path] + [f for r in rows if r.get("trail") for f in glob.glob(r["trail"][:-len(".txt")] + ".*")]
assert any(f.endswith(".full.txt") for f in files), "no trail rendering to check"
bad = [f for f in files if checkout in open(f, errors="replace").read()]
print(f"{len(files)} files checked; naming {checkout}: {bad or 'none'}")
sys.exit(1 if bad else 0)
PY
}
t_run "model/quick matrix evidence holds no path of this checkout (model JSON, its trails)" \
  no_checkout_path

# --- sharding: `make model SHARD=i/N` + `make model-merge` give the unsharded result (same rows,
# verdicts, state counts; only pan's elapsed seconds differ). The two shards run side by side,
# one job each, reusing the pan binaries the run above compiled (build/.../pan-cache) ---
t0=$EPOCHREALTIME
SH=$B/model/shards
rm -rf "$SH" "$B/shard-bad"
mkdir -p "$B/shard-bad"
(make -s --no-print-directory model SET=quick SHARD=1/2 JOBS=1 BUILD="$B" >"$LOGDIR/shard-1.log" 2>&1
 echo $? >"$B/shard-1.rc") &
make -s --no-print-directory model SET=quick SHARD=2/2 JOBS=1 BUILD="$B" >"$LOGDIR/shard-2.log" 2>&1
echo $? >"$B/shard-2.rc"
wait
for i in 1 2; do
  if [[ $(cat "$B/shard-$i.rc") == 0 && -s $SH/quick-$i-of-2.json ]]; then
    t_ok "model/shard $i/2 of the quick matrix ran, every row as expected [REQ-MM-5]" "$(tail -1 "$LOGDIR/shard-$i.log")"
  else
    t_fail "model/shard $i/2 of the quick matrix ran, every row as expected [REQ-MM-5]" "exit $(cat "$B/shard-$i.rc") (log: $LOGDIR/shard-$i.log)"
  fi
done
t_run "model/shard: merge of 2 shards equals the unsharded quick matrix (rows, verdicts, states) [REQ-MM-5 REQ-MM-6]" \
  bash -c "make -s --no-print-directory model-merge SET=quick BUILD='$B' && python3 -m tools.model.merge --compare '$B/model-quick.json' '$B/evidence/model.json'"
t_ok "model/shard: two shards + merge took $(_t_dt "$t0")s"
# the merge refuses an incomplete or inconsistent set of shards, and keeps the verdict rule
t_run_fail "model/shard: a merge with a missing shard fails, naming it [REQ-ERR-7]" \
  'missing shard 2/2 of the quick matrix' \
  make -s --no-print-directory model-merge SET=quick SHARDS="$SH/quick-1-of-2.json" BUILD="$B"
t_run_fail "model/shard: a shard given twice fails [REQ-ERR-7]" 'shard 1/2 given twice' \
  python3 -m tools.model.merge --build "$B/shard-bad" --shards "$SH/quick-1-of-2.json" "$SH/quick-1-of-2.json"
python3 - "$SH" "$B/shard-bad" <<'PY'
import json, sys
sh, bad = sys.argv[1], sys.argv[2]
s = json.load(open(f"{sh}/quick-2-of-2.json"))
s["inputs"]["sha256"] = "0" * 64                     # made from other model sources
json.dump(s, open(f"{bad}/other-sources-2.json", "w"))
s = json.load(open(f"{sh}/quick-2-of-2.json"))
s["runs"] = s["runs"][1:]                            # a row lost
json.dump(s, open(f"{bad}/lost-row-2.json", "w"))
s = json.load(open(f"{sh}/quick-2-of-2.json"))
r = next(x["row"] for x in s["runs"] if x["row"]["expected"] == "violate")
r["result"], r["trail"] = "hold", None                # an expected violation not found
json.dump(s, open(f"{bad}/not-expected-2.json", "w"))
PY
t_run_fail "model/shard: shards made from different model sources fail [REQ-ERR-7]" \
  'shards made from different model sources' \
  python3 -m tools.model.merge --build "$B/shard-bad" --shards "$SH/quick-1-of-2.json" "$B/shard-bad/other-sources-2.json"
t_run_fail "model/shard: a row missing from every shard fails [REQ-ERR-7]" 'row\(s\) of the matrix in no shard' \
  python3 -m tools.model.merge --build "$B/shard-bad" --shards "$SH/quick-1-of-2.json" "$B/shard-bad/lost-row-2.json"
t_run_fail "model/shard: the merge applies the verdict rule (a missed violation fails) [REQ-MM-5]" \
  'model-merge: FAIL .*hold \(expected violate\)' \
  python3 -m tools.model.merge --build "$B/shard-bad" --shards "$SH/quick-1-of-2.json" "$B/shard-bad/not-expected-2.json"

# --- the symmetry reduction R14 (-DSYMM=1, model-scale / model-swarm only; spec/memory-models.md)
# [REQ-MM-6]: its cutoff is visible (1 line x 2 arrivals: the same states at 3 and 5 CPUs, the
# plain 5-CPU model has more), the reduced model still finds v1's race, and its premise (two
# clean CPUs differ only in their index) holds in every state of a run without POR ---
cnt() { grep -o 'states=[0-9]*' | head -1 | cut -d= -f2; }
s3=$($R1 --dfs MM_WEAK VARIANT=2 ARRIVALS=2 NCPU=3 SYMM=1 2>&1 | cnt)
s5=$($R1 --dfs MM_WEAK VARIANT=2 ARRIVALS=2 NCPU=5 SYMM=1 2>&1 | cnt)
p5=$($R1 --dfs MM_WEAK VARIANT=2 ARRIVALS=2 NCPU=5 2>&1 | cnt)
if [[ -n $s3 && $s3 == "$s5" && ${p5:-0} -gt ${s5:-0} ]]; then
  t_ok "model/symmetry R14: cutoff, v2 weak 1 line x 2 arrivals: 3 CPUs = 5 CPUs < plain 5 CPUs [REQ-MM-6]" "states $s3 = $s5 < $p5"
else
  t_fail "model/symmetry R14: cutoff, v2 weak 1 line x 2 arrivals: 3 CPUs = 5 CPUs < plain 5 CPUs [REQ-MM-6]" "states 3 CPUs '$s3', 5 CPUs '$s5', plain 5 CPUs '$p5'"
fi
T_TWIN_ONLY='model/symmetry R14: v1 weak 4 CPUs x 2 arrivals, reduced: SPIN still finds the stale flag' \
  t_twin model-v1 $R1 MM_WEAK VARIANT=1 NCPU=4 ARRIVALS=2 CHECK_SYNC1=0 SYMM=1
t_run "model/symmetry R14: premise monitor holds in every state (weak, 3 CPUs x 2 lines, no POR) [REQ-MM-6]" \
  $R1 --noreduce MM_WEAK VARIANT=2 NCPU=3 NLINES=2 SHARERS=2 SYMM=1 SYMM_CHECK
t_run "model/symmetry R14: premise monitor holds in every state (tso, DEPTH, 3 CPUs x 3 arrivals, no POR) [REQ-MM-6]" \
  $R1 --noreduce MM_TSO VARIANT=2 NCPU=3 ARRIVALS=3 SCEN=SCEN_DEPTH CHECK_SYNC1=0 SYMM=1 SYMM_CHECK

# --- swarm (bitstate) runs: coverage, never "hold"; a tiny smoke plan, whole and as 2 shards ---
t_run "model/swarm smoke: v2 jobs report coverage (no error, never hold), the v1 job its violation [REQ-MM-6]" \
  bash -c "python3 -m tools.model.swarm --smoke --jobs-per-config 2 --minutes 1 --build '$B' --out '$B/swarm-smoke.json' && python3 - '$B/swarm-smoke.json' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d['jobs']
assert jobs and all(j['exhaustive'] is False and j['result'] != 'hold' for j in jobs), 'a bitstate job claims hold'
assert all(j['result'] == ('violate' if j['variant'] == 'v1' else 'no error') for j in jobs)
assert all(0 <= j['p_omit'] < 1 and j['hash_factor'] for j in jobs)
assert all('not exhaustive' in s['verdict'] or 'as expected' in s['verdict'] for s in d['summary'])
PY"
rm -rf "$B/model/swarm-shards"
t_run "model/swarm smoke as 2 shards + merge: every job once [REQ-MM-6]" \
  bash -c "for i in 1 2; do python3 -m tools.model.swarm --smoke --jobs-per-config 2 --minutes 1 --build '$B' --shard \$i/2 || exit 1; done && python3 -m tools.model.swarm --merge --build '$B' --out '$B/swarm-merged.json' && python3 -c \"import json,sys; a=json.load(open('$B/swarm-smoke.json')); b=json.load(open('$B/swarm-merged.json')); assert [(j['id'], j['result']) for j in a['jobs']] == [(j['id'], j['result']) for j in b['jobs']]\""
t_run_fail "model/swarm: a merge with a missing shard fails [REQ-ERR-7]" 'missing 2/2' \
  python3 -m tools.model.swarm --merge --build "$B" --shards "$B/model/swarm-shards/swarm-1-of-2.json" --out "$B/swarm-bad.json"

# --- direct runs: expected violations must name the specific assertion ---
T_TWIN_ONLY='model/direct v1 tso tg3+mb: SPIN finds the stale-flag handler' \
  t_twin model-v1 $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 CALLER_MB=1
T_TWIN_ONLY='model/direct v0 weak tg3 no mb: stale-flag handler' \
  t_twin model-v0 $R1 MM_WEAK VARIANT=0 CHECK_SYNC1=0 CALLER_MB=0
T_TWIN_ONLY='model/direct v0 tso: an instance begun before the call still runs' \
  t_twin model-v0 $R1 MM_TSO VARIANT=0 CHECK_FLAG=0
t_run "model/direct v2 weak 3 CPUs 2 arrivals holds [REQ-SYNC-1 REQ-SYNC-3 REQ-MM-3]" \
  $R1 MM_WEAK VARIANT=2 NCPU=3 ARRIVALS=2
T_TWIN_ONLY='model/direct hazard: interrupt spins on the lock its CPU holds' \
  t_twin model-hazard $R1 MM_TSO SCEN=SCEN_HAZARD HAZARD_FIX=0

# REQ-SYNC-2 with distinct values: the n-th completion of CPU c stores n in WORK(c), and the
# driver checks every CPU's word against the last covered instance's value (promela/irq.pml)
S2="CHECK_SYNC1=0 CHECK_FLAG=0 CHECK_SYNC2=1"
T_TWIN_ONLY='model/direct v1 weak: the handler'"'"'s last write is not visible after the return' \
  t_twin model-v1 $R1 MM_WEAK VARIANT=1 $S2 ARRIVALS=2
t_run "model/direct v2 weak: the handler's last write is visible after the return [REQ-SYNC-2]" \
  $R1 MM_WEAK VARIANT=2 $S2 ARRIVALS=2
t_run "model/direct v2 weak 3 CPUs: each CPU's last covered write is visible [REQ-SYNC-2]" \
  $R1 MM_WEAK VARIANT=2 $S2 NCPU=3 ARRIVALS=2
# A late write hidden by an earlier visible one: the driver starts after reading CPU 1's first
# completion (SYNC2_AFTER_FIRST), so a stale read returns that value, never 0.  The distinct
# values catch v1's invisible second write; with one constant value (SYNC2_CONST, the old check)
# the same search finds nothing -- the weakness of issue 16.
T_TWIN_ONLY='model/direct v1 weak: a late write hidden behind an earlier visible one is caught' \
  t_twin model-v1 $R1 MM_WEAK VARIANT=1 $S2 ARRIVALS=2 SYNC2_AFTER_FIRST=1
t_run "model/direct v1 weak, constant value (the old check): the hidden write goes unseen [REQ-SYNC-2]" \
  $R1 MM_WEAK VARIANT=1 $S2 ARRIVALS=2 SYNC2_AFTER_FIRST=1 SYNC2_CONST=1
t_run "model/direct v2 weak, driver after a first completion: holds [REQ-SYNC-2]" \
  $R1 MM_WEAK VARIANT=2 $S2 ARRIVALS=2 SYNC2_AFTER_FIRST=1

# --- the LTL form of SYNC, checked with the assertions compiled out ---
T_TWIN_ONLY='model/ltl sync v1 tso: claim violated' \
  t_twin model-v1 $R1 --ltl MM_TSO VARIANT=1 CHECK_SYNC1=0 CHECK_FLAG=0 LTL_SYNC
t_run "model/ltl sync v2 weak holds [REQ-SYNC-3 REQ-MM-3]" \
  $R1 --ltl MM_WEAK VARIANT=2 CHECK_SYNC1=0 CHECK_FLAG=0 LTL_SYNC

# --- store-buffer depth: one entry hides v1's race under TSO; two show it [REQ-MM-6] ---
t_run "model/depth: TSO with a 1-entry buffer wrongly makes v1 look safe [REQ-MM-6]" \
  $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 SBD=1
T_TWIN_ONLY='model/depth: TSO with a 2-entry buffer finds v1'"'"'s race' \
  t_twin model-v1 $R1 MM_TSO VARIANT=1 CHECK_SYNC1=0 SBD=2
# --- bounds by monitor (spec/memory-models.md, B1/B2): v2 with unbounded buffers and history ---
UB="VARIANT=2 CALLER_MB=1 CHECK_SYNC2=1 ARRIVALS=2"
t_run "model/unbounded: v2 SYNC holds under TSO, no store finds a 4-entry buffer full [REQ-MM-6 REQ-SYNC-1 REQ-SYNC-2]" \
  $R1 --dfs MM_TSO $UB SPIN_HAVOC=1 MM_SB_CHECK SBD=4
t_run "model/unbounded: v2 SYNC holds under WEAK, no buffer full, no load past a 4-deep history [REQ-MM-6 REQ-SYNC-1 REQ-SYNC-2]" \
  $R1 --dfs MM_WEAK $UB SPIN_HAVOC=1 MM_SB_CHECK SBD=4 MM_VIEW_CHECK HIST=4
t_run "model/unbounded: v2 SYNC holds under WEAK with replays (3 CPUs), no 5-entry buffer full [REQ-MM-6 REQ-SYNC-1 REQ-SYNC-2 REQ-DISPATCH-2]" \
  $R1 --dfs MM_WEAK $UB NCPU=3 SPIN_HAVOC=1 MM_SB_CHECK SBD=5 MM_VIEW_CHECK HIST=4
t_run_fail "model/unbounded: on a WEAK replay pass a 4-entry buffer fills (the default 3 is not exact there) [REQ-MM-6]" \
  'assertion violated \(sb_n\[' $R1 --dfs MM_WEAK $UB NCPU=3 SPIN_HAVOC=1 MM_SB_CHECK SBD=4
t_run_fail "model/unbounded: a 3-entry TSO buffer does fill (depth 2 is not exact) [REQ-MM-6]" \
  'assertion violated \(sb_n\[' $R1 --dfs MM_TSO $UB SPIN_HAVOC=1 MM_SB_CHECK SBD=3
t_run_fail "model/unbounded: the completion loads read 2 versions back (history 2 is not exact) [REQ-MM-6]" \
  'assertion violated .*view\[' $R1 --dfs MM_WEAK $UB SPIN_HAVOC=1 MM_VIEW_CHECK HIST=3
t_run_fail "model/unbounded: the unlocked spin reads past a 4-deep history [REQ-MM-6]" \
  'assertion violated .*view\[' $R1 --dfs MM_WEAK $UB SPIN_HAVOC=0 MM_VIEW_CHECK HIST=4
T_TWIN_ONLY='model/unbounded: v1 with the spin over-approximated violates (the over-approximation is not vacuous)' \
  t_twin model-v1 $R1 --dfs MM_WEAK VARIANT=1 CALLER_MB=1 ARRIVALS=2 SPIN_HAVOC=1 MM_SB_CHECK SBD=4 MM_VIEW_CHECK HIST=4
# --- R2's promise (mm_viewdead: the next shared access is an acquire) is asserted at every plain
# load and store (MM_VIEWS_LIVE, promela/mm/weak.pml); made one access early, it is reported ---
T_TWIN_ONLY='model/weak R2: a promise of dead views made before the last unlock is caught' \
  t_twin model-weak-viewdead-early $R1 MM_WEAK VARIANT=2 VIEWDEAD_EARLY=1
# --- WEAK's early loads are needed: without them IRIW is wrongly forbidden [REQ-MM-3] ---
t_run "model/weak without early loads (HIST=1) wrongly forbids IRIW [REQ-MM-3 REQ-MM-6]" \
  $R1 --model promela/litmus/iriw.pml MM_WEAK HIST=1
t_run_fail "model/weak with early loads allows IRIW [REQ-MM-3 REQ-MM-5]" \
  'assertion violated' $R1 --model promela/litmus/iriw.pml MM_WEAK
# --- WEAK's acquire RMW (the ticket, LOCK_TICKET): known-bad forms of mm_fetch_add_acq; the
# matrix's litmus rows give the right verdicts (sb+acqrmw+mb allowed, mp+rel+acqrmw forbidden) ---
t_run "model/weak acquire RMW that drains (MM_ACQ_RMW_BUG=1) wrongly forbids SB+acqrmw+mb [REQ-MM-3 REQ-MM-5]" \
  $R1 --model promela/litmus/sb+acqrmw+mb.pml MM_WEAK MM_ACQ_RMW_BUG=1
T_TWIN_ONLY='model/weak acquire RMW without acquire (MM_ACQ_RMW_BUG=2) allows MP+rel+acqrmw' \
  t_twin model-weak-acq-rmw-no-acquire $R1 --model promela/litmus/mp+rel+acqrmw.pml MM_WEAK MM_ACQ_RMW_BUG=2

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
t_run_fail "model/bad SHARD=3/2 says how to write a shard [REQ-ERR-7]" 'SHARD=3/2 is not a shard: write i/N' \
  make -s model SHARD=3/2

# --- progress (REQ-SYNC-5): synchronize_irq returns under weak fairness; without fairness, or on
# WEAK without eventual visibility, SPIN shows the non-terminating spin (so the check can fail) ---
t_run "model/ltl term v2 weak, weak fairness: synchronize_irq returns [REQ-SYNC-5]" \
  $R1 --fair MM_WEAK VARIANT=2 LTL_TERM MM_EVENTUAL CHECK_SYNC1=0 CHECK_FLAG=0
t_run_fail "model/ltl term without fairness: the spinner starves the handler [REQ-SYNC-5]" \
  'acceptance cycle' $R1 --ltl MM_TSO VARIANT=2 LTL_TERM CHECK_SYNC1=0 CHECK_FLAG=0

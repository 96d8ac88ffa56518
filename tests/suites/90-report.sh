#!/bin/bash
# 90-report: the evidence report (tools/report/, tools/stamp.py, spec/report.md).
# The generator runs on fixture results (tests/report/fixtures/) stamped in a throw-away git tree,
# so every rule is checked against known answers; then `make report` runs on this tree's real
# results and the page is opened in headless chromium. Budget: well under 2 minutes.
# check-last   (tools/runtests.py: reads this run's results of every other group)
source tests/lib.sh

top=$PWD
bd=${BUILD:-build}; [[ $bd == /* ]] || bd=$top/$bd   # the build directory (tools/runtests.py passes BUILD)
out=$bd/report-test
fx=$out/tree                          # fixture tree (a git repository of its own)
ev=$fx/build/evidence
chk="python3 tests/report/check_report.py"
gen() { python3 -m tools.report.report --root "$fx" --build "$fx/build" "$@"; }
mkdir -p "$out"

t_run "report/fixture-setup (results stamped by tools/stamp.py run)" tests/report/mkfixture.sh "$fx"
t_run "report/generate on fixtures" gen
t_run "report/fixture verdict follows the rules of spec/report.md" $chk fixture "$ev/evidence.json"
t_run "report/page numbers equal evidence.json (written file)" $chk page "$ev/evidence.json" "$ev/index.html"
t_run "report/junit.xml has a case per run, function, test, target, requirement" \
  $chk junit "$ev/evidence.json" "$ev/junit.xml"
# The number check itself must be able to fail: a page with one number changed is caught.
sed 's#<span id="v-goals-num">19</span>#<span id="v-goals-num">20</span>#' "$ev/index.html" >"$out/tampered.html"
t_run_fail "report/page check catches a wrong number" "BAD v-goals-num: page '20', evidence.json '19'" \
  $chk page "$ev/evidence.json" "$out/tampered.html"

# Timelines: inferred from the memory-model primitive (real spin 6.5.2 output of the fixture
# store-buffering test) and from explicit SB_ENTER/FLUSH markers.
t_run "report/timeline SB under TSO: both stores buffered, both loads, then the flushes" \
  $chk timeline "$ev/evidence.json" sb-tso \
  "1:W_Y/enter 1:R_X/load 0:W_X/enter 0:R_Y/load 1:W_Y [1]=1/flush 0:W_X [0]=1/flush ERROR"
t_run "report/timeline from explicit buffer markers" \
  $chk timeline "$ev/evidence.json" markers \
  "0:DRV_STORE_FLAG/store 0:flag=1/enter 1:D_SET_INPROGRESS/other 1:status=INPROGRESS/enter 0:S_SPIN_READ/load 1:H_READ_FLAG/other 0:S_RETURN/other 0:flag=1/flush 1:status=INPROGRESS/flush ERROR"
if command -v spin >/dev/null && command -v gcc >/dev/null; then
  # today's spin, today's output format: regenerate the SB trail and parse it again
  respin() {
    local d=$out/spin; rm -rf "$d"; cp -r "$fx/promela" "$d" && cd "$d" &&
      spin -a sb.pml && gcc -DBFS -o pan pan.c && ./pan >pan.out &&
      grep -q "errors: 1" pan.out && spin -t -p sb.pml >sb-tso.txt && cd "$top" &&
      BUILD=$fx/build IRQSYNC_ROOT=$fx python3 -m tools.stamp run model -- \
        cp "$d/sb-tso.txt" "$ev/trails/sb-tso.txt" >/dev/null &&
      gen >/dev/null && $chk timeline "$ev/evidence.json" sb-tso \
        "1:W_Y/enter 1:R_X/load 0:W_X/enter 0:R_Y/load 1:W_Y [1]=1/flush 0:W_X [0]=1/flush ERROR"
  }
  t_run "report/timeline of a trail spin writes now" respin
  tests/report/mkfixture.sh "$fx" >/dev/null 2>&1
else
  t_skip "report/timeline of a trail spin writes now" "spin or gcc not installed"
fi

# The real model's WEAK memory: in 2+2W a store overtakes an older one of the same CPU; the
# timeline must show it (the flusher's walk is followed, not assumed FIFO).
if command -v spin >/dev/null && [[ -f promela/litmus/2+2w.pml ]]; then
  weak22() {
    local d=$out/w22; rm -rf "$d"; mkdir -p "$d" && cp -r promela "$d/" && cd "$d/promela/litmus" &&
      spin -a -DMM_WEAK 2+2w.pml && gcc -DBFS -o pan pan.c && ./pan >pan.out &&
      grep -q "errors: 1" pan.out && spin -t -p -DMM_WEAK 2+2w.pml >"$d/trail.txt" && cd "$top" &&
      python3 -m tools.report.trail "$d/trail.txt" weak >"$d/timeline.txt" &&
      cat "$d/timeline.txt" && grep -q "reaches memory (overtaking 1 older entry)" "$d/timeline.txt"
  }
  t_run "report/timeline of the model's WEAK 2+2W: a store overtakes an older one" weak22
else
  t_skip "report/timeline of the model's WEAK 2+2W" "spin or promela/litmus/2+2w.pml absent"
fi

# Expected failures are never support, whatever the method (spec/report.md §2): a case recorded
# by t_run_fail (tests/lib.sh marks its detail "xfail: "), an old-style "failed as expected" lint
# case, and the fixture's SB run expected to violate each cite a requirement nothing else supports:
# the method stays "none", the item is counted as shown able to fail. The old rule credited all three.
xfail_cases() {
  rm -f "$out/xf-test.tsv" && (
    RESULTS=$out/xf-test.tsv LOGDIR=$out/xf-logs
    source tests/lib.sh
    t_run_fail "stress/broken-variant-observes-race [FIX-ERR-1]" "race observed" \
      bash -c 'echo "race observed"; exit 1'
  ) >/dev/null &&
    printf 'pass\tlint/unbalanced-lock-flagged [FIX-LOCK-1]\t0\tfailed as expected: context imbalance\n' \
      >"$out/xf-lint.tsv" &&
    $xchk add tests/report/fixtures/results/summary.json 40-stress "$out/xf-test.tsv" "$out/xf1.json" &&
    $xchk add "$out/xf1.json" 60-lint-broken "$out/xf-lint.tsv" "$out/xf.json"
}
xchk="python3 tests/report/check_xfail.py"
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1
t_run "report/xfail: expected-failure cases recorded by tests/lib.sh t_run_fail" xfail_cases
IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run tests -- \
  cp "$out/xf.json" "$fx/build/results/summary.json" >/dev/null && gen >/dev/null
t_run "report/xfail: an expected failure is shown able to fail, never support (test, lint, model)" \
  $xchk verdict "$ev/evidence.json" "$ev/index.html"
# the check itself can fail: the same cases with their marks removed count as support
$xchk strip "$out/xf.json" "$out/xf-unmarked.json" &&
  IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run tests -- \
    cp "$out/xf-unmarked.json" "$fx/build/results/summary.json" >/dev/null && gen >/dev/null
t_run_fail "report/xfail: an unmarked expected failure counted as support is caught" \
  "BAD FIX-ERR-1: test pass, requirement partial" $xchk verdict "$ev/evidence.json" "$ev/index.html"
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1

# Proof credit only through spec/proof-goals.md (spec/report.md §2): the fixture's goal
# handle_irq_ensures_FIX_DISPATCH_1_locked cites FIX-DISPATCH-1 but no row lists it, so it gives
# no credit and is flagged; FIX-SYNC-2's `no:` row shows its goal as cited, not support.
relist() { # relist ROW: the fixture's goal list with ROW added (trace reads the whole tree: restamp it)
  printf '%s\n' "$1" >>"$fx/spec/proof-goals.md" &&
    IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run trace -- \
      cp "$top/tests/report/fixtures/results/trace.json" "$ev/" >/dev/null && gen >/dev/null
}
gen >/dev/null
t_run "report/proof credit: a goal citing a requirement but not listed gives none, and is flagged" \
  $chk credit "$ev/evidence.json"
# the check can fail: the same goal listed for FIX-DISPATCH-1 is credited
relist '| FIX-DISPATCH-1 | `handle_irq:handle_irq_ensures_FIX_DISPATCH_1_locked` | proof |'
t_run_fail "report/proof credit: the check catches a credited goal" \
  "BAD FIX-DISPATCH-1: proof pass" $chk credit "$ev/evidence.json"
# A stale row (its clause renamed or removed) fails its requirement, and `make`'s summary.
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1
relist '| FIX-TCB-1 | `handle_irq:handle_irq_ensures_FIX_TCB_1_renamed` | proof |'
t_run "report/proof credit: a row matching no goal is stale and fails its requirement" \
  $chk stale "$ev/evidence.json" FIX-TCB-1 'handle_irq:handle_irq_ensures_FIX_TCB_1_renamed'
t_run_fail "report/proof credit: the summary names the stale row and exits 1" \
  "stale goal list row matches no goal: FIX-TCB-1 handle_irq:handle_irq_ensures_FIX_TCB_1_renamed" \
  python3 -m tools.summary "$ev"
# A passing case of the proof group citing FIX-ERR-1 is not a test item of it ...
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1 && gen >/dev/null
t_run "report/test column: a proof-group case is not a test item" $chk groups "$ev/evidence.json"
# ... and the check can fail: the same case recorded by the unit group counts
sed 's#"suite": "50-proof"#"suite": "20-unit"#' tests/report/fixtures/results/summary.json >"$out/unit-case.json" &&
  IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run tests -- \
    cp "$out/unit-case.json" "$fx/build/results/summary.json" >/dev/null && gen >/dev/null
t_run_fail "report/test column: the check catches a proof-group case counted as a test" \
  "BAD FIX-ERR-1: test pass" $chk groups "$ev/evidence.json"
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1

# The page is rendered by Jinja2 templates that autoescape (tools/report/templates/): a failing
# case whose name and detail hold markup (a <script>, elements with ids, an entity, a bare &, a
# comment closing the table; check_report.py HOSTILE_*) is shown verbatim, as text, in the
# failed list, the list of all cases and the matrix, and none of its elements exists.
$chk hostile tests/report/fixtures/results/summary.json "$out/hostile.json" >/dev/null &&
  IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run tests -- \
    cp "$out/hostile.json" "$fx/build/results/summary.json" >/dev/null && gen >/dev/null &&
  cp "$ev/evidence.json" "$out/hostile-evidence.json" && cp "$ev/index.html" "$out/hostile.html"
t_run "report/autoescape: markup in a test's name and detail is shown as text, no element injected" \
  $chk escaped "$out/hostile-evidence.json" "$out/hostile.html"
# the check can fail: the same page with its escapes undone has the elements
sed 's/&lt;/</g; s/&gt;/>/g' "$out/hostile.html" >"$out/hostile-unescaped.html"
t_run_fail "report/autoescape: the check catches an injected element" \
  "BAD <script> elements on the page: [1-9]" $chk escaped "$out/hostile-evidence.json" "$out/hostile-unescaped.html"
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1

# A Verify field names its methods outside parentheses (tools/trace.py): what a parenthesis says
# about another method's expected failures names none (REQ-ERR-6's field reads so).
verify_methods() { # verify_methods TEXT WANT: the methods tools/trace.py reads from a Verify field
  local id=REQ""-FIXTURE-6  # (spelt so that the tree's trace check does not read it as a citation)
  printf '### %s — t\n**Statement.** s\n**Rationale.** r\n**Verify.** %s\n' "$id" "$1" >"$out/req.md" &&
    python3 -c 'import sys; from tools import trace
r, p = trace.parse_requirements(sys.argv[1]); got = " ".join(r[sys.argv[3]]["methods"])
print(f"methods: {got!r}, want {sys.argv[2]!r}"); sys.exit(got != sys.argv[2])' "$out/req.md" "$2" "$id"
}
t_run "report/trace: methods named in parentheses are not methods of the requirement" \
  verify_methods "test (debug build). (Shown by expected failures: the model's hazard run, a proof failure.)" "test"
t_run_fail "report/trace: the same words outside parentheses are methods (the check can fail)" \
  "methods: 'model proof test', want 'test'" \
  verify_methods "test (debug build), model (hazard run), proof (failure)." "test"

# Two runs on unchanged inputs: the same evidence.json apart from times.
gen >/dev/null && cp "$ev/evidence.json" "$out/run1.json" && sleep 1 && gen >/dev/null
t_run "report/deterministic: two runs give the same evidence.json apart from times" \
  $chk same "$out/run1.json" "$ev/evidence.json"

# Freshness: a changed source makes the result stale; it is not counted.
echo "/* edited */" >>"$fx/promela/sb.pml"
gen >/dev/null
t_run "report/stale: editing promela/ makes model.json stale" $chk status "$ev/evidence.json" model stale
t_run "report/stale result shown as stale, not counted" bash -c \
  "grep -q 'id=\"prod-model\".*stale' '$ev/index.html' && grep -q 'id=\"v-model-state\">stale<' '$ev/index.html'"
t_run "report/stale: proofs do not depend on promela/ and stay fresh" $chk status "$ev/evidence.json" proofs fresh
t_run_fail "report/freshness check exits 1 and names the changed file" "stale .*promela/sb.pml" \
  env IRQSYNC_ROOT="$fx" BUILD="$fx/build" python3 -m tools.stamp check model
# a direct run (`make model`) after a begin-stamp is accepted
dr() {
  IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp begin model &&
    echo >>"$ev/model.json" && gen >/dev/null && $chk status "$ev/evidence.json" model fresh
}
t_run "report/direct run after a begin-stamp counts as fresh" dr
# another run's trail next to ours changes nothing; rewriting a trail model.json cites does
echo "other run" >"$ev/trails/other-run.txt"; gen >/dev/null
t_run "report/an unrelated trail in trails/ leaves model.json fresh" $chk status "$ev/evidence.json" model fresh
echo "# edited" >>"$ev/trails/sb-tso.txt"; gen >/dev/null
t_run "report/a rewritten trail that model.json cites makes it unstamped" \
  $chk status "$ev/evidence.json" model unstamped
# a result rewritten outside make: unstamped
echo " " >>"$ev/proofs.json"; gen >/dev/null
t_run "report/unstamped: a result rewritten after its stamp is rejected" \
  $chk status "$ev/evidence.json" proofs unstamped
# a producer that fails without writing: its old result is rejected
IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run cross -- false >/dev/null; gen >/dev/null
t_run "report/failed producer: the old result is rejected" $chk status "$ev/evidence.json" cross failed
# a producer that succeeds without writing its result: missing, and the reason says so
IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run conformance -- true >/dev/null; gen >/dev/null
t_run "report/producer exiting 0 without a result is shown as missing, saying why" bash -c \
  "$chk status '$ev/evidence.json' conformance missing | grep -q 'exited 0 and wrote no conformance.json'"
# a missing producer: shown as missing, in red, and its card says "not run"
rm -f "$ev/bench.json" "$ev/stamps/bench.json" "$fx/build/results/summary.json"; gen >/dev/null
t_run "report/missing producer shown as missing" $chk status "$ev/evidence.json" tests missing
t_run "report/missing producer: the page says not run, in red" bash -c \
  "grep -q 'class=\"card bad\" id=\"v-tests\"><div class=\"n\" id=\"v-tests-state\">not run' '$ev/index.html'"
t_run "report/page numbers equal evidence.json with stale and missing results" \
  $chk page "$ev/evidence.json" "$ev/index.html"

# The summary's exit status (the end of `make`): 1 on the fixture (an unproved goal, a failed
# test, …), 0 when every result is fresh and good, 2 with no report at all.
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1 && gen >/dev/null
t_run_fail "report/summary exits 1 when a goal is unproved or a test failed" "proof goals proved +FAIL +19 / 20" \
  python3 -m tools.summary "$ev"
greenrun() { # greenrun [REQ ...]: the green results (plus REQs left unverified), then the summary
  local g=$out/green
  rm -rf "$g" && $chk green tests/report/fixtures/results "$g" "$@" >/dev/null &&
  for p in model:model.json proofs:proofs.json cross:cross.json trace:trace.json; do
    IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run "${p%%:*}" -- \
      bash -c "cp '$g/${p#*:}' '$ev/' && cp -r '$g/trails' '$ev/'" >/dev/null || return 1
  done &&
  IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run tests -- \
    cp "$g/summary.json" "$fx/build/results/" >/dev/null &&
  gen >/dev/null && python3 -m tools.summary "$ev"
}
t_run "report/summary exits 0 when every result is fresh and good" greenrun
# The default `make` ends with the summary and exits with its status: with every other line ok,
# one requirement only partial (FIX-LOCK-1: its lint leg has no result) prints FAIL and fails
# `make`; the same results without it pass (EVIDENCE_ALL= leaves `make` only deps and the summary).
make_summary() { make --no-print-directory EVIDENCE_ALL= EVIDENCE="$ev" all; }
t_run "report/make: exits 0 on green results" make_summary
greenrun FIX-LOCK-1 >/dev/null
t_run_fail "report/make: a partial requirement prints FAIL and fails make" \
  "requirements verified +FAIL +2 / 3 +1 partial" make_summary
t_run_fail "report/summary exits 2 without a report" "no report in" python3 -m tools.summary "$out/nowhere"

# The evidence names files relative to the repository: a real violation run and saved by the
# model matrix (pan's message, the trail, its replay and renderings) and the report built from
# it carry no path of this checkout (the fixture tree lies inside it too), and the report still
# names the model file of SPIN's error, relative to the repository.
if command -v spin >/dev/null && command -v gcc >/dev/null; then
  repo_relative() {
    local mb=$out/model-paths
    rm -rf "$mb" && mkdir -p "$mb/evidence" && python3 - "$mb" <<'PY' &&
import json, os, sys
from tools.model import matrix
build = sys.argv[1]
size = dict(cpus=2, lines=1, arrivals=1, sharers=1)
row = matrix.protocol_rows(size, ("sc",), ("v2",), ["hazard"], probes=False)[0]
final, bad = matrix.finish([matrix.run_row(row, build, os.path.join(build, "evidence", "trails"), "-O0")])
assert not bad and final[0]["trail"], final
with open(os.path.join(build, "evidence", "model.json"), "w") as f:
    json.dump(final, f, indent=1)
PY
    ! grep -rlF "$top/" "$mb/evidence" &&
    IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run model -- \
      bash -c "cp '$mb/evidence/model.json' '$ev/' && cp -r '$mb/evidence/trails/.' '$ev/trails/'" >/dev/null &&
    gen >/dev/null && ! grep -lF "$top/" "$ev/evidence.json" "$ev/index.html" "$ev/junit.xml" &&
    grep -qE 'promela/[a-z/]+[.]pml:[0-9]+, Error' "$ev/evidence.json"
  }
  t_run "report/evidence names files relative to the repository: model.json, trails, report" repo_relative
else
  t_skip "report/evidence names files relative to the repository" "spin or gcc not installed"
fi

# Bad input: a malformed result is reported as invalid, no crash; bad arguments exit 2.
tests/report/mkfixture.sh "$fx" >/dev/null 2>&1
IRQSYNC_ROOT=$fx BUILD=$fx/build python3 -m tools.stamp run model -- \
  bash -c "printf '{\"runs\": 3' >'$ev/model.json'" >/dev/null
t_run "report/malformed model.json: report still written" gen
t_run "report/malformed model.json shown as invalid" $chk status "$ev/evidence.json" model invalid
t_run_fail "report/unknown option exits 2 with usage" "make report: build/evidence" \
  python3 -m tools.report.report --frobnicate
t_run_fail "report/stamp: unknown producer exits 2" "unknown producer nosuch" \
  python3 -m tools.stamp check nosuch

# The default `make`: deps, the other ALL_TARGETS, model, proofs, quick tests, cross,
# conformance (an optional producer mk/mutants.mk puts in ALL_TARGETS; after the model, whose
# trails it replays), trace, report, summary — in that order, each producer through its
# stamping wrapper (dry run). Conformance run unstamped, or not at all, fails this.
compose() {
  make -n --no-print-directory all 2>&1 | grep -oE "tools/deps.sh|tools.stamp run [a-z]+|tools.report.report|tools.summary|run.py --seeds [0-9]+ --out [^ ]+" |
    tr '\n' ' ' | tee /dev/stderr |
    grep -q "tools/deps.sh tools.stamp run model tools.stamp run proofs tools.stamp run tests tools.stamp run cross tools.stamp run conformance run.py --seeds [0-9]* --out [^ ]*evidence/conformance.json tools.stamp run trace tools.report.report tools.summary"
}
t_run "report/make composes deps, model, proofs, tests, cross, conformance, trace, report, summary" compose

# The real report of this tree, and both pages in a real browser.
t_run "report/make report on this tree's results" make --no-print-directory report
browser() { # browser NAME EVIDENCE PAGE [CHECK]: CHECK (default page) of the page's DOM
  local prof; prof=$(mktemp -d)
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --window-size=1400,4000 --screenshot="$out/$1.png" "file://$3" >/dev/null 2>&1 &&
  timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --dump-dom "file://$3" >"$out/$1.dom.html" 2>/dev/null
  local rc=$?
  rm -rf "$prof"
  ((rc == 0)) && test -s "$out/$1.png" && $chk "${4:-page}" "$2" "$out/$1.dom.html"
}
if command -v chromium >/dev/null; then
  gen >/dev/null 2>&1 || tests/report/mkfixture.sh "$fx" >/dev/null 2>&1
  tests/report/mkfixture.sh "$fx" >/dev/null 2>&1 && gen >/dev/null
  t_run "report/chromium: fixture page numbers equal evidence.json (build/report-test/fixture.png)" \
    browser fixture "$ev/evidence.json" "$ev/index.html"
  t_run "report/chromium: this tree's page numbers equal evidence.json (build/report-test/evidence.png)" \
    browser evidence "$bd/evidence/evidence.json" "$bd/evidence/index.html"
  t_run "report/chromium: the page with markup in a test's name has none of its elements in the DOM" \
    browser hostile "$out/hostile-evidence.json" "$out/hostile.html" escaped
else
  t_skip "report/chromium: page numbers equal evidence.json" "chromium not installed (tools/deps.list has it)"
fi

#!/usr/bin/env bash
# 99-twins — every known-bad twin of twins/catalog.yml was killed by the checks the catalog names
# (issue 24).  The groups before this one ran each twin's killers as expected failures; here, per
# kind of twin, each killer case of a group that ran in this make check must be in its results
# and have passed as "failed as expected" (not a success, another failure, a timeout, or missing
# because a group dropped the twin).  A skip counts only where the killer says `skip_ok`.
# check-last   (tools/runtests.py: reads this run's results of every other group)
cd "$(dirname "$0")/../.." || exit 1
source tests/lib.sh

t_run "twins/catalog: well formed, every edit applies to this tree, every killer's group exists" \
  python3 -m tools.twins check

# The groups of this run (tools/runtests.py's list): only their results are of this run.
ran=$(tr ' ' '\n' <<<"${IRQSYNC_RUN_SUITES:-}" | grep -v '^99-twins$' | tr '\n' ' ')
if [[ -z ${ran// } ]]; then
  t_skip "twins/killed" "no other group ran in this make check"
  exit 0
fi
out=$(python3 -m tools.twins verify --results "${BUILD:-build}/results" --suites $ran 2>&1); rc=$?
while IFS= read -r line; do
  case $line in
    "ok   "*) t_ok "twins/${line#ok   }" ;;
    "FAIL "*) kind=${line#FAIL }
              t_fail "twins/$kind" "$(grep -A200 -F -- "$line" <<<"$out" | sed -n '2,$p' | sed '/^ok\|^FAIL/,$d' | head -5 | tr '\n' ' ')" ;;
  esac
done <<<"$out"
((rc <= 1)) || t_fail "twins/verify" "$out"

# The check can fail: a results file in which one killer case passed without failing is caught.
t_run_fail "twins/verify: a killer that did not fail is caught" \
  "not killed by proof/unlocked-status-fails-REQ_DISPATCH_1 .*pass: ran but succeeded" bash -c '
    d=$(mktemp -d); trap "rm -rf $d" EXIT
    python3 -m tools.twins killers unlocked-status | awk -F"\t" "{print \"pass\t\" \$2 \"\t1\tran but succeeded\"}" >"$d/50-proof.tsv"
    python3 -m tools.twins verify --results "$d" --suites 50-proof'
t_run_fail "twins/verify: a twin whose killer case is missing is caught" \
  "unlocked-status: killer case not run by \[50-proof\]" bash -c '
    d=$(mktemp -d); trap "rm -rf $d" EXIT; : >"$d/50-proof.tsv"
    python3 -m tools.twins verify --results "$d" --suites 50-proof'
t_run_fail "twins/check: an edit that no longer applies is caught" \
  "twin unlocked-status does not apply: its text occurs 0 times" bash -c '
    d=$(mktemp -d); trap "rm -rf $d" EXIT
    sed "s/(void)irqsync_status_update(desc, 0U, IRQS_PENDING);/(void)irqsync_status_update(desc, 0U, IRQS_PENDING );/" twins/catalog.yml >"$d/c.yml"
    python3 -m tools.twins --catalog "$d/c.yml" check'

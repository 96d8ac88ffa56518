# tests/lib.sh — sourced by every suite under tests/suites/.
# A suite records one line per test case in $RESULTS (TSV: status, name, seconds, detail);
# tools/runtests.py runs the suites and totals them. Statuses: pass, fail, skip.
# Keep a test's REQ IDs in its name or detail, e.g. "unit/request-shared [REQ-LIFECYCLE-2]".
set -u
: "${RESULTS:?tests/lib.sh: run suites through tools/runtests.py}"
: "${LOGDIR:=build/logs}"
mkdir -p "$LOGDIR"

_t_now() { echo "$EPOCHREALTIME"; }
_t_dt() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN{printf "%.2f", b-a}'; }
_t_clean() { tr '\t\n' '  ' <<<"$1" | cut -c1-400; }

t_record() { # status name seconds detail
  printf '%s\t%s\t%s\t%s\n' "$1" "$(_t_clean "$2")" "$3" "$(_t_clean "${4:-}")" >>"$RESULTS"
  case $1 in
    pass) printf '  ok    %s\n' "$2" ;;
    skip) printf '  skip  %s (%s)\n' "$2" "${4:-}" ;;
    *)    printf '  FAIL  %s: %s\n' "$2" "${4:-}" ;;
  esac
}
t_ok()   { t_record pass "$1" 0 "${2:-}"; }
t_fail() { t_record fail "$1" 0 "${2:-}"; }
t_skip() { t_record skip "$1" 0 "${2:-}"; }

_t_log() { local f="$LOGDIR/$(tr -c 'A-Za-z0-9._-' '_' <<<"$1").log"; echo "${f%_.log}.log"; }

# t_run NAME CMD... — passes when CMD exits 0. The output goes to a log named after the test.
t_run() {
  local name=$1; shift
  local log; log=$(_t_log "$name")
  local t0; t0=$(_t_now)
  if "$@" >"$log" 2>&1; then
    t_record pass "$name" "$(_t_dt "$t0")" ""
  else
    local rc=$?
    t_record fail "$name" "$(_t_dt "$t0")" "exit $rc; $(tail -n 3 "$log") (log: $log)"
  fi
}

# t_run_fail NAME REGEX CMD... — an expected failure: passes only when CMD exits non-zero AND its
# output matches REGEX (the specific counterexample, unproved goal or diagnostic we expect).
t_run_fail() {
  local name=$1 re=$2; shift 2
  local log; log=$(_t_log "$name")
  local t0; t0=$(_t_now)
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  local dt; dt=$(_t_dt "$t0")
  if ((rc == 0)); then
    t_record fail "$name" "$dt" "expected a failure, but the command succeeded (log: $log)"
  elif ! grep -Eq -- "$re" "$log"; then
    t_record fail "$name" "$dt" "failed (exit $rc) but not with /$re/ (log: $log)"
  else
    t_record pass "$name" "$dt" "failed as expected: $(grep -Em1 -- "$re" "$log")"
  fi
}

# t_tap PREFIX CMD... — runs a TAP producer (tests/harness/check.h) and records each case.
# A producer that crashes, exits non-zero, or reports no case at all is a failure.
t_tap() {
  local prefix=$1; shift
  local log; log=$(_t_log "$prefix")
  local t0; t0=$(_t_now)
  local rc=0
  "$@" >"$log" 2>&1 || rc=$?
  local dt; dt=$(_t_dt "$t0")
  local n=0 bad=0 line name
  while IFS= read -r line; do
    case $line in
      "ok "*"# SKIP"*) name=${line#ok * - }; t_record skip "$prefix/${name%% # SKIP*}" 0 "${line##*# SKIP}"; n=$((n+1)) ;;
      "ok "*)     name=${line#ok * - };     t_record pass "$prefix/$name" 0 ""; n=$((n+1)) ;;
      "not ok "*) name=${line#not ok * - }; t_record fail "$prefix/$name" 0 "$(grep -F -B3 -- "$line" "$log" | grep "^#" | tr '\n' ' ') (log: $log)"; n=$((n+1)); bad=$((bad+1)) ;;
    esac
  done <"$log"
  if ((n == 0)); then
    t_record fail "$prefix" "$dt" "no test case reported (exit $rc; log: $log)"
  elif ((rc != 0 && bad == 0)); then
    t_record fail "$prefix" "$dt" "exit $rc after $n cases without a reported failure (log: $log)"
  fi
}

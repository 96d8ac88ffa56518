# tests/lib.sh — sourced by every suite under tests/suites/.
# A suite records one line per test case in $RESULTS (TSV: status, name, seconds, detail);
# tools/runtests.py runs the suites and totals them. Statuses: pass, fail, skip.
# Keep a test's REQ IDs in its name or detail, e.g. "unit/request-shared [REQ-LIFECYCLE-2]".
set -u
: "${RESULTS:?tests/lib.sh: run suites through tools/runtests.py}"
# BUILD: the build directory (make passes it; tools/runtests.py sets it for every suite).
: "${LOGDIR:=${BUILD:-build}/logs}"
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

# Every case runs under a time limit: T_LIMIT seconds (default 600; set it for one case with
# `T_LIMIT=N t_run …`). A case still running then is stopped — with every process it started,
# so a hung test program goes too — and recorded as a failure "timeout after N s" with its name
# and log, the way a crash is.
# A case runs as the leader of a process group of its own (its PID, $!, is the group id): the
# shell turns job control on (set -m) just to start it, which gives a background job a group of
# its own even without a terminal. A timeout signals the group: TERM, then KILL to whatever is
# still alive after T_GRACE seconds. (util-linux's setsid would start a program so, but a case
# may be a shell function of its suite, which only a subshell of the suite's shell can run.) The
# case stays in the suite's session, where tools/runtests.py finds it when a whole suite is
# stopped. A process that leaves the group (setsid, a nested t_run) is not signalled with it.
: "${T_LIMIT_DEFAULT:=600}"
: "${T_GRACE:=5}"
_t_alive() { # PGID SID — a live process of group PGID in session SID (not a zombie) exists
  ps -e -o pgid=,sid=,stat= | awk -v g="$1" -v s="$2" '$1 == g && $2 == s && $3 !~ /^Z/ {f = 1} END {exit !f}'
}
_t_spawn() { # CMD... — start CMD in the background as the leader of a process group of its own,
  local m=${-//[^m]/}  # standard input /dev/null (as without job control); its PID is in $!
  set -m
  "$@" </dev/null &
  [[ -n $m ]] || set +m
}
# _t_watchdog LIMIT MARK PGID — run as a background subshell (in the suite's own group), which
# TERM stops: after LIMIT s, if the case's group still has a live process in this session (the
# group id is the case's PID: never signal a later group that reuses it), create MARK, signal
# the group TERM, then KILL once the grace period ends (sooner when nothing is left).
_t_watchdog() {
  local s="" sid
  trap '[[ -z $s ]] || kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$1" & s=$!
  wait "$s"
  s=""
  sid=$(ps -o sid= -p "$BASHPID")
  _t_alive "$3" "${sid// /}" || return 0
  : >"$2"
  kill -TERM -- "-$3" 2>/dev/null
  local i
  for ((i = 0; i < T_GRACE * 5; i++)); do
    _t_alive "$3" "${sid// /}" || return 0
    sleep 0.2
  done
  kill -KILL -- "-$3" 2>/dev/null
  return 0
}
_t_exec() { # LOG CMD... — run CMD under the limit, output to LOG; exit status 124 on timeout
  local log=$1; shift
  local limit=${T_LIMIT:-$T_LIMIT_DEFAULT} mark="$log.timeout"
  rm -f "$mark"
  _t_spawn "$@" >"$log" 2>&1
  local pid=$!
  _t_watchdog "$limit" "$mark" "$pid" >/dev/null 2>&1 &
  local wd=$!
  local rc=0
  wait "$pid" || rc=$?
  # In time: stop the watchdog. After a timeout it finishes the kill (a grandchild may have
  # outlived the case's own process): wait for it.
  local stopped=""
  [[ -e $mark ]] || { kill -TERM "$wd" 2>/dev/null; stopped=1; }
  wait "$wd" 2>/dev/null
  if [[ -e $mark ]]; then
    [[ -z $stopped ]] || kill -KILL -- "-$pid" 2>/dev/null  # the limit came as the case ended
    rm -f "$mark"
    echo "timeout: stopped after ${limit} s" >>"$log"
    return 124
  fi
  return "$rc"
}
_t_timed_out() { (($1 == 124)) && grep -q '^timeout: stopped after' "$2"; } # RC LOG
_t_why() { # RC LOG — the reason of a failed command, for the record
  if _t_timed_out "$1" "$2"; then
    echo "timeout after ${T_LIMIT:-$T_LIMIT_DEFAULT} s (log: $2)"
  else
    echo "exit $1; $(tail -n 3 "$2") (log: $2)"
  fi
}

# _t_go NAME CMD... — run CMD under the limit, output to NAME's log; sets the caller's `log`,
# `rc` (CMD's exit status) and `dt` (seconds), which the caller declares local.
_t_go() {
  log=$(_t_log "$1"); shift
  local t0; t0=$(_t_now)
  rc=0
  _t_exec "$log" "$@" || rc=$?
  dt=$(_t_dt "$t0")
}

# t_run NAME CMD... — passes when CMD exits 0. The output goes to a log named after the test.
# T_LAST_RC holds CMD's exit status afterwards: a suite whose build case failed stops there
# (`((T_LAST_RC == 0)) || exit 0`) instead of running the binaries an older build left.
T_LAST_RC=0
t_run() {
  local log rc dt
  _t_go "$@"
  T_LAST_RC=$rc
  if ((rc == 0)); then
    t_record pass "$1" "$dt" ""
  else
    t_record fail "$1" "$dt" "$(_t_why "$rc" "$log")"
  fi
}

# t_run_fail NAME REGEX CMD... — an expected failure: passes only when CMD exits non-zero AND its
# output matches REGEX (the specific counterexample, unproved goal or diagnostic we expect).
t_run_fail() {
  local name=$1 re=$2; shift 2
  local log rc dt
  _t_go "$name" "$@"
  _t_xfail "$name" "$re"
}
# _t_xfail NAME REGEX — record the verdict of an expected failure on the caller's `log`, `rc`, `dt`
# (set by _t_go; a suite that checks one run against several REGEXes calls it once for each).
# Every detail it records starts with "xfail: ": the report (tools/report/collect.py) shows such
# a case as a check shown able to fail, never as support for the requirement it names.
_t_xfail() {
  if ((rc == 0)); then
    t_record fail "$1" "$dt" "xfail: expected a failure, but the command succeeded (log: $log)"
  elif _t_timed_out "$rc" "$log"; then
    t_record fail "$1" "$dt" "xfail: $(_t_why "$rc" "$log")"
  elif ! grep -Eq -- "$2" "$log"; then
    t_record fail "$1" "$dt" "xfail: failed (exit $rc) but not with /$2/ (log: $log)"
  else
    t_record pass "$1" "$dt" "xfail: failed as expected: $(grep -Em1 -- "$2" "$log")"
  fi
}

# t_tap PREFIX CMD... — runs a TAP producer (tests/harness/check.h) and records each case.
# A producer that crashes, exits non-zero, or reports no case at all is a failure. One that is
# stopped at the time limit, or ends inside a case, fails under the name of that case when it
# names each case before running it ("# begin: NAME", as check.h does), else under PREFIX.
t_tap() {
  local prefix=$1; shift
  local log rc dt
  _t_go "$prefix" "$@"
  local n=0 bad=0 line name began=""
  while IFS= read -r line; do
    case $line in
      "# begin: "*) began=${line#"# begin: "} ;;
      "ok "*"# SKIP"*) name=${line#ok * - }; t_record skip "$prefix/${name%% # SKIP*}" 0 "${line##*# SKIP}"; n=$((n+1)); began="" ;;
      "ok "*)     name=${line#ok * - };     t_record pass "$prefix/$name" 0 ""; n=$((n+1)); began="" ;;
      "not ok "*) name=${line#not ok * - }; began=""; n=$((n+1)); bad=$((bad+1))
                  t_record fail "$prefix/$name" 0 "$(grep -F -B3 -- "$line" "$log" | grep "^#" | grep -v "^# begin: " | tr '\n' ' ') (log: $log)" ;;
    esac
  done <"$log"
  if _t_timed_out "$rc" "$log" || [[ -n $began ]]; then   # stopped, or crashed, in a case
    t_record fail "$prefix${began:+/$began}" "$dt" "$(_t_why "$rc" "$log") after $n cases"
  elif ((n == 0)); then
    t_record fail "$prefix" "$dt" "no test case reported (exit $rc; log: $log)"
  elif ((rc != 0 && bad == 0)); then
    t_record fail "$prefix" "$dt" "exit $rc after $n cases without a reported failure (log: $log)"
  fi
}

# The known-bad twins of twins/catalog.yml: t_twin, t_twin_skip, t_twins.
source "$(dirname "${BASH_SOURCE[0]}")/twin.sh"

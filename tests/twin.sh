# tests/twin.sh — sourced by tests/lib.sh: the known-bad twins of twins/catalog.yml as cases.
# A twin's killers (the cases expected to kill it, and the failure each must see) are read from
# the catalog, never written in a suite: a suite says only how to build and check the twin.

# t_twin ID CMD... — run CMD (which builds twin ID and runs the check on it) once, and record each
# of the twin's killers in this suite ($SUITE) as an expected failure: it passes only when CMD
# fails, not by a timeout, with output matching the killer's `expect` (tests/lib.sh _t_xfail).
# The log is twin/ID's (_t_log "twin/ID").  With T_TWIN_ONLY=TEXT, only the killers whose case
# name contains TEXT (one twin killed by several commands: a target, a configuration each).
t_twin() {
  local id=$1; shift
  local mine
  mine=$(_t_twin_killers "$id") || return 0
  local log rc dt
  _t_go "twin/$id${T_TWIN_ONLY:+/$T_TWIN_ONLY}" "$@"
  _t_twin_verdicts "$mine"
}

# _t_twin_verdicts KILLERS — record each killer (TSV of _t_twin_killers) on the caller's `log`,
# `rc`, `dt` as an expected failure (tests/lib.sh _t_xfail).
_t_twin_verdicts() {
  local suite kcase kexp skip
  while IFS=$'\t' read -r suite kcase kexp skip; do
    _t_xfail "$kcase" "$kexp"
    dt=0
  done <<<"$1"
}

# t_twin_skip ID REASON — record each killer of twin ID in this suite as skipped, with REASON
# ([99-twins] accepts the skip only where the catalog's killer says `skip_ok`).
t_twin_skip() {
  local mine suite kcase kexp skip
  mine=$(_t_twin_killers "$1") || return 0
  while IFS=$'\t' read -r suite kcase kexp skip; do
    t_skip "$kcase" "$2"
  done <<<"$mine"
}

# t_twins KIND — the ids of the twins of KIND that have a killer in this suite
t_twins() {
  python3 -m tools.twins list --kind "$1" --suite "${SUITE:?run suites through tools/runtests.py}"
}

_t_twin_killers() { # ID — the twin's killers in $SUITE (TSV), or a recorded failure
  local all mine
  if ! all=$(python3 -m tools.twins killers "$1" 2>&1); then
    t_fail "twin/$1" "$all"
    return 1
  fi
  mine=$(awk -F'\t' -v s="${SUITE:?run suites through tools/runtests.py}" -v o="${T_TWIN_ONLY:-}" \
    '$1 == s && index($2, o)' <<<"$all")
  if [[ -z $mine ]]; then
    t_fail "twin/$1" "no killer of twin $1 in suite $SUITE${T_TWIN_ONLY:+ with '$T_TWIN_ONLY' in its name} (twins/catalog.yml)"
    return 1
  fi
  printf '%s\n' "$mine"
}

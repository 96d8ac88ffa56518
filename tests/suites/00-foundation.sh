#!/usr/bin/env bash
# Foundation: the spec is well formed and traced, the C harness and the runner can fail, make deps
# behaves as documented. [REQ-TCB-1]
. tests/lib.sh
B=${BUILD:-build}/foundation; mkdir -p "$B"

t_run "spec/requirements well formed, every requirement traced, no unknown REQ ID cited" \
  python3 -m tools.trace check

# A tree that cites an undefined ID must be rejected by the same check (the ID is built at run
# time so that this file does not cite it).
bad_id="REQ-SYNC-$((90 + 9))"
t_run_fail "spec/trace check rejects an undefined REQ ID" "$bad_id is not defined" bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tools" "$d/tests" &&
  cp -r spec "$d/" && cp tools/__init__.py tools/trace.py "$d/tools/" && cd "$d" && git init -q &&
  printf "/* %s */\n" "$1" > tests/bogus.c && git add -A && python3 -m tools.trace check' _ "$bad_id"

cc -std=c11 -Wall -Wextra -Werror -Itests/harness tests/harness/selftest.c -o "$B/selftest" \
  && t_ok "harness/builds" || t_fail "harness/builds" "selftest.c does not compile"
t_tap harness "$B/selftest"
t_run_fail "harness/reports a failing check" \
  'not ok 2 - deliberately_failing' "$B/selftest" fail
t_run_fail "harness/names the failing expression" \
  'CHECK_EQ\(2 \+ 2, 5\): 4 != 5' "$B/selftest" fail

# The runner itself: a suite with a failing case makes the run fail and is counted.
# (Each nested runner runs in a throw-away tree holding the runner and tests/*.sh, with BUILD
# unset: it writes to that tree's build/, whatever BUILD this run has.)
# The nested runner must not inherit the caller's SUITES (`make` runs this group as
# `make check SUITES="<quick groups>"`, which matches no suite of the fixture): it runs with
# SUITES unset. The case sets a SUITES that matches nothing around it, as that caller does, so
# that it fails on a leak however this group itself was started.
t_run_fail "runner/counts a failing suite and exits non-zero" '^1 passed, 1 failed$' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" &&
  cp tests/*.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  printf ". tests/lib.sh\nt_ok a\nt_fail b boom\n" > "$d/tests/suites/x.sh" &&
  cd "$d" && env -u SUITES -u BUILD python3 -m tools.runtests'

# A case that never returns is stopped at its limit and reported by name as a timeout, with
# what it started (a child that would outlive it) gone too; a suite that hangs between its
# cases is stopped at SUITE_LIMIT and reported by name.
t_run_fail "runner/a hung case is a named timeout" \
  'FAIL  never-returns: timeout after 2 s .*FAIL  suite-hangs \(suite\): timeout, stopped after 6 s.*1 passed, 2 failed' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" &&
  cp tests/*.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  z="300.$$"  # this run'"'"'s own sleeps: another run of this case on the machine has other ones
  printf ". tests/lib.sh\nT_LIMIT=2 t_run never-returns bash -c \"sleep $z & sleep $z\"\nt_ok after\n" \
    > "$d/tests/suites/a.sh" &&
  printf ". tests/lib.sh\nsleep $z\n" > "$d/tests/suites/suite-hangs.sh" &&
  out=$(cd "$d" && env -u SUITES -u BUILD SUITE_LIMIT=6 python3 -m tools.runtests 2>&1)
  sleep 6; if pgrep -f "^sleep $z$" >/dev/null; then echo "LEFT RUNNING: sleep $z"; exit 3; fi
  echo "$out" | tr "\n" " "; exit 1'

runner_tree() { # DIR — a throw-away tree with the runner and tests/*.sh, for a nested runner
  rm -rf "$1" && mkdir -p "$1/tests/suites" "$1/tools" &&
    cp tests/*.sh "$1/tests/" && cp tools/__init__.py tools/runtests.py "$1/tools/"
}

# A timed-out case is stopped as a process group (tests/lib.sh): the case leads a group of its
# own, and everything in it goes — its shell and a background sleep at the TERM, a grandchild
# that ignores TERM at the KILL after the grace period, though the case's own shell is gone by
# then. The check waits for its condition (no live process with the case's group id), bounded.
pgroup_gone() {
  local d=$B/pgroup out pid pgid sid left i
  runner_tree "$d" || return 1
  cat >"$d/tests/suites/g.sh" <<'EOF'
. tests/lib.sh
T_LIMIT=2 t_run hung bash -c 'echo "$$ $(ps -o pgid=,sid= -p $$)" >group.txt
  sleep 1000 & (trap "" TERM; exec sleep 1001) & sleep 1002'
t_ok after
EOF
  out=$(cd "$d" && env -u SUITES -u BUILD SUITE_LIMIT=120 python3 -m tools.runtests 2>&1)
  echo "$out"
  grep -q "FAIL  hung: timeout after 2 s" <<<"$out" && grep -q "^1 passed, 1 failed$" <<<"$out" &&
    grep -q "^timeout: stopped after 2 s$" "$d/build/logs/g/hung.log" || return 1
  read -r pid pgid sid <"$d/group.txt" || return 1
  echo "the case: pid $pid, process group $pgid, session $sid"
  [[ $pid == "$pgid" ]] || { echo "the case does not lead a process group of its own"; return 1; }
  for ((i = 0; i < 100; i++)); do
    left=$(ps -e -o pgid=,stat=,args= | awk -v g="$pgid" '$1 == g && $2 !~ /^Z/')
    [[ -z $left ]] && { echo "process group $pgid: nothing left"; return 0; }
    sleep 0.1
  done
  echo "LEFT RUNNING in process group $pgid:"; echo "$left"
  kill -KILL -- "-$pgid" 2>/dev/null
  return 1
}
t_run "runner/a timed-out case's process group is stopped, a TERM-ignoring grandchild too" pgroup_gone

# BUILD (make passes it): the runner writes results and logs under it, and lib.sh's own default
# log directory follows it; nothing is written to the tree's build/.
build_dir() {
  local d=$B/build-dir o rc=0
  runner_tree "$d" && o=$(mktemp -d) || return 1
  printf '. tests/lib.sh\nt_run logged echo hello-from-the-case\n' >"$d/tests/suites/x.sh"
  (cd "$d" && env -u SUITES BUILD="$o/b" python3 -m tools.runtests) &&
    (cd "$d" && env -u LOGDIR RESULTS="$o/direct.tsv" BUILD="$o/c" \
      bash -c '. tests/lib.sh; t_run direct echo hello-direct') || rc=1
  find "$o" "$d" -type f | sort
  if ((rc == 0)) && test -s "$o/b/results/x.tsv" && test -s "$o/b/results/summary.json" &&
     grep -q hello-from-the-case "$o/b/logs/x/logged.log" && grep -q hello-direct "$o/c/logs/direct.log" &&
     [[ ! -e $d/build ]]; then
    echo "results and logs under BUILD=$o/b, lib.sh's logs under BUILD=$o/c; no $d/build"
  else
    echo "not where BUILD says"; rc=1
  fi
  rm -rf "$o"
  return "$rc"
}
t_run "runner/BUILD=DIR: results and logs are written under DIR" build_dir
# make check hands BUILD to the runner however it was set: make exports it by itself only from
# the command line or the environment, not from a makefile (mk/config.mk's default, or one that
# includes the project's). Shown on make -n with a makefile that sets it, nothing inherited.
check_passes_build() {
  local d=$B/check-build out
  rm -rf "$d"
  out=$(printf 'BUILD := %s\ninclude Makefile\n' "$d" |
        env -u BUILD -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -n -f - check) || return 1
  echo "$out"
  grep -F -- '-m tools.runtests' <<<"$out" | grep -qF "BUILD='$d' "
}
t_run "runner/make check passes a BUILD set in a makefile to the runner" check_passes_build

# Groups run two at a time (CHECK_JOBS), except two that name the same thing in `# check-uses:`;
# a `# check-last` group starts when every other has ended.  Groups a and b mark themselves
# running and look for each other for 2 s; the free group c waits (a condition, bounded) for one
# of them to be running beside it (or for both to have ended); the last group z finds every other group ended.  Without the
# header lines, a and b run together and see each other: the check can fail.
sched_tree() { # DIR USES — groups a, b (using USES, if any), c (free) and z (last)
  local d=$1 g o
  [[ $d == /* ]] || d=$PWD/$d
  runner_tree "$d" || return 1
  for g in a b; do
    o=$([[ $g == a ]] && echo b || echo a)
    cat >"$d/tests/suites/$g.sh" <<EOS
${2:+# check-uses: $2}
. tests/lib.sh
touch $d/$g.run
for i in \$(seq 10); do [[ -e $d/$o.run ]] && break; sleep 0.2; done
[[ -e $d/$o.run ]] && t_fail $g-overlap "$o running too" || t_ok $g-alone
rm -f $d/$g.run; touch $d/$g.end
EOS
  done
  cat >"$d/tests/suites/c.sh" <<EOS
. tests/lib.sh
for i in \$(seq 300); do [[ -e $d/a.run || -e $d/b.run || (-e $d/a.end && -e $d/b.end) ]] && break; sleep 0.2; done
[[ -e $d/a.run || -e $d/b.run ]] && t_ok c-beside-a-or-b || t_fail c-beside-a-or-b "ran alone"
touch $d/c.end
EOS
  cat >"$d/tests/suites/z.sh" <<EOS
# check-last
. tests/lib.sh
[[ -e $d/a.end && -e $d/b.end && -e $d/c.end ]] && t_ok z-after-all || t_fail z-after-all "started early"
EOS
  (cd "$d" && env -u SUITES -u BUILD -u CHECK_JOBS python3 -m tools.runtests)
}
t_run "runner/groups run two at a time; none beside a group that uses the same; last ones last" \
  bash -c "$(declare -f runner_tree sched_tree)"'; out=$(sched_tree "$1" lib); echo "$out"; grep -q "^4 passed, 0 failed$" <<<"$out"' _ "$B/sched"
t_run_fail "runner/without check-uses the same groups overlap (the check above can fail)" \
  'FAIL  [ab]-overlap: [ab] running too' \
  bash -c "$(declare -f runner_tree sched_tree)"'; sched_tree "$1" ""' _ "$B/sched-free"

# A suite whose build case fails stops there: it never runs the binary an older build left.
t_run_fail "runner/a failed build runs no older binary" '^0 passed, 1 failed$' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" "$d/old" &&
  cp tests/*.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  printf "#!/bin/sh\necho stale\n" > "$d/old/prog" && chmod +x "$d/old/prog" &&
  printf ". tests/lib.sh\nt_run build false\n((T_LAST_RC == 0)) || exit 0\nt_run run-old old/prog\n" \
    > "$d/tests/suites/b.sh" &&
  cd "$d" && env -u SUITES -u BUILD python3 -m tools.runtests'

t_run "deps/idempotent: nothing missing, nothing installed" bash -c '
  out=$(tools/deps.sh) && grep -q "all [0-9]* packages present" <<<"$out"'
if command -v setpriv >/dev/null && [[ $(id -u) == 0 ]]; then
  t_run_fail "deps/non-root prints the apt-get line and fails" \
    'apt-get install -y --no-install-recommends irqsync-no-such-package' bash -c '
    f=$(mktemp) && echo "irqsync-no-such-package test" > "$f" && chmod 644 "$f" &&
    setpriv --reuid=65534 --regid=65534 --clear-groups env DEPS_LIST="$f" tools/deps.sh'
else
  t_skip "deps/non-root prints the apt-get line and fails" "needs root and setpriv"
fi

# make help lists every target that carries a `## ` comment in the makefiles (read from them,
# so a new documented target appears without a second list), the two README commands first.
t_run "make/help lists the documented targets" bash -c '
  out=$(make -s help) || exit 1
  head -3 <<<"$out" | grep -q "^  all " && grep -q "^  check " <<<"$out" || { echo "$out" | head; exit 1; }
  want=$(grep -hcE "^[^ #:=]+:[^=]*## " Makefile mk/*.mk | awk "{s+=\$1} END {print s}")
  have=$(grep -c "^  " <<<"$out")
  ((have >= want - 2)) || { echo "make help: $have lines for $want documented targets"; exit 1; }
  echo "$have targets"'
t_run "make/CC honoured: make-default cc becomes gcc, CC=clang stays clang" bash -c '
  [[ $(make -s -f mk/config.mk -p -n 2>/dev/null | sed -n "s/^CC := //p" | head -1) == gcc ]] &&
  [[ $(CC=clang make -s -f mk/config.mk -p -n 2>/dev/null | sed -n "s/^CC = //p" | head -1) == clang ]]'

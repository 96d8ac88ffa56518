#!/usr/bin/env bash
# Foundation: the spec is well formed and traced, the C harness and the runner can fail, make deps
# behaves as documented. [REQ-TCB-1]
. tests/lib.sh
B=build/foundation; mkdir -p "$B"

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
# The nested runner must not inherit the caller's SUITES (`make` runs this group as
# `make check SUITES="<quick groups>"`, which matches no suite of the fixture): it runs with
# SUITES unset. The case sets a SUITES that matches nothing around it, as that caller does, so
# that it fails on a leak however this group itself was started.
t_run_fail "runner/counts a failing suite and exits non-zero" '^1 passed, 1 failed$' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" &&
  cp tests/lib.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  printf ". tests/lib.sh\nt_ok a\nt_fail b boom\n" > "$d/tests/suites/x.sh" &&
  cd "$d" && env -u SUITES python3 -m tools.runtests'

# A case that never returns is stopped at its limit and reported by name as a timeout, with
# what it started (a child that would outlive it) gone too; a suite that hangs between its
# cases is stopped at SUITE_LIMIT and reported by name.
t_run_fail "runner/a hung case is a named timeout" \
  'FAIL  never-returns: timeout after 2 s .*FAIL  suite-hangs \(suite\): timeout, stopped after 6 s.*1 passed, 2 failed' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" &&
  cp tests/lib.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  z="300.$$"  # this run'"'"'s own sleeps: another run of this case on the machine has other ones
  printf ". tests/lib.sh\nT_LIMIT=2 t_run never-returns bash -c \"sleep $z & sleep $z\"\nt_ok after\n" \
    > "$d/tests/suites/a.sh" &&
  printf ". tests/lib.sh\nsleep $z\n" > "$d/tests/suites/suite-hangs.sh" &&
  out=$(cd "$d" && env -u SUITES SUITE_LIMIT=6 python3 -m tools.runtests 2>&1)
  sleep 6; if pgrep -f "^sleep $z$" >/dev/null; then echo "LEFT RUNNING: sleep $z"; exit 3; fi
  echo "$out" | tr "\n" " "; exit 1'

# A suite whose build case fails stops there: it never runs the binary an older build left.
t_run_fail "runner/a failed build runs no older binary" '^0 passed, 1 failed$' \
  env SUITES=no-such-group bash -c '
  d=$(mktemp -d) && trap "rm -rf $d" EXIT && mkdir -p "$d/tests/suites" "$d/tools" "$d/old" &&
  cp tests/lib.sh "$d/tests/" && cp tools/__init__.py tools/runtests.py "$d/tools/" &&
  printf "#!/bin/sh\necho stale\n" > "$d/old/prog" && chmod +x "$d/old/prog" &&
  printf ". tests/lib.sh\nt_run build false\n((T_LAST_RC == 0)) || exit 0\nt_run run-old old/prog\n" \
    > "$d/tests/suites/b.sh" &&
  cd "$d" && env -u SUITES python3 -m tools.runtests'

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

#!/usr/bin/env bash
# 20-unit — the C library on the host: unit tests (release, debug, step-hook, ASan+UBSan,
# TSan builds), compile-fail tests, link/symbol checks.  Budget: <= 2 min.
# check-uses: lib   (tools/runtests.py: builds the library's objects under $BUILD)
source tests/lib.sh
BD=${BUILD:-build}   # the build directory (make and tools/runtests.py pass BUILD)

t_run "unit/build [REQ-IMPL-2]" make -s -j2 unit-tests
((T_LAST_RC == 0)) || exit 0   # the build failed (recorded above): never run an older binary

t_tap unit "$BD/tests/unit"
t_tap unit-debug "$BD/tests/unit-debug"
t_tap unit-steps "$BD/tests/unit-steps"
t_tap asan-ubsan "$BD/tests/unit-asan"
# Sanitizer builds of the same unit tests (REQ-IMPL-2; every case name carries its REQ IDs).
# TSan needs ASLR compatible with its shadow layout; setarch -R disables randomisation if allowed.
if setarch "$(uname -m)" -R true 2>/dev/null; then
  t_tap tsan setarch "$(uname -m)" -R "$BD/tests/unit-tsan"
else
  t_tap tsan "$BD/tests/unit-tsan"
fi
# The threaded handlers (tests/unit/thread.c; REQ-THREAD-n / REQ-ONESHOT-n in the
# case names): release, ASan+UBSan and TSan builds.
t_tap unit-thread "$BD/tests/unit-thread"
t_tap asan-ubsan-thread "$BD/tests/unit-thread-asan"
if setarch "$(uname -m)" -R true 2>/dev/null; then
  t_tap tsan-thread setarch "$(uname -m)" -R "$BD/tests/unit-thread-tsan"
else
  t_tap tsan-thread "$BD/tests/unit-thread-tsan"
fi

# A test program that never returns is a failure under the name of the case it hung in, its
# process gone, the group going on (issue 14). The seeded bug is the catalog's mutant
# c-inprogress-never-set (twins/catalog.yml: a dispatch that never sets IRQS_INPROGRESS),
# applied to a copy of the tree by the mutation campaign's own copy_tree. With it the unit
# program hangs in arrival_during_instance_is_replayed: CPU 0's arrival runs a second instance of
# the held handler, which waits for a release only CPU 0 could give. (The cases before it fail or
# pass, and return: disable_irq_nosync_does_not_wait only misses INPROGRESS.)
HANG=$BD/unit/hang
seed_mutant() { # <catalog id> — print the path of a copy of the tree with that mutant applied
  # (the copy under $HANG/trees, in this run's build directory, not the campaign's build/mutants/;
  # a build directory inside the tree other than build/ would be copied into itself: not there)
  python3 - "$1" "$HANG/trees" <<'EOF'
import os, sys
from tools.mutants import campaign
work = os.path.abspath(sys.argv[2])
rel = os.path.relpath(work, campaign.ROOT)
if rel.startswith("..") or rel.split(os.sep)[0] == "build":
    campaign.WORK = work
print(campaign.copy_tree(next(m for m in campaign.load() if m["id"] == sys.argv[1])))
EOF
}
# hang_run <limit> <unit program> <tag>: the program under `T_LIMIT=<limit> t_tap unit`, then one
# case more, in results of their own (under $HANG/<tag>); print them, fail if a case failed.
hang_run() {
  local d=$HANG/$3 left
  rm -rf "$d"; mkdir -p "$d/logs"
  ( RESULTS=$d/results.tsv LOGDIR=$d/logs
    T_LIMIT=$1 t_tap unit "$2"
    t_ok "unit/the next case runs" ) >/dev/null
  cut -f 1,2,4 "$d/results.tsv"
  if left=$(pgrep -af "^$2( |\$)"); then echo "LEFT RUNNING: $left"; return 3; fi
  tail -n 1 "$d/results.tsv" | grep -q "the next case runs" || { echo "the group stopped"; return 3; }
  ! grep -q '^fail' "$d/results.tsv"
}
hang_mutant() {
  # the copy builds into its own build/ (BUILD=build: not this run's build directory)
  local tree; tree=$(seed_mutant c-inprogress-never-set) && make -C "$tree" -s -j2 BUILD=build build/tests/unit || return 2
  hang_run 5 "$tree/build/tests/unit" mutant
}
t_run_fail "unit/hang: a dispatch that never sets INPROGRESS is a named timeout after 5 s, nothing left running [REQ-TCB-1 REQ-DISPATCH-3]" \
  '^fail[[:space:]]+unit/arrival_during_instance_is_replayed \[REQ-DISPATCH-2 REQ-DISPATCH-3\][[:space:]]+timeout after 5 s ' \
  hang_mutant
# The control: the same run of the unmutated program passes that case (in about 0.3 s; the limit
# is wider only so that a loaded machine cannot fail the control).
hang_control() {
  hang_run 60 "$BD/tests/unit" control &&
    grep -q '^pass[[:space:]]unit/arrival_during_instance_is_replayed ' "$HANG/control/results.tsv"
}
t_run "unit/hang-control: the unmutated program passes the same run [REQ-TCB-1]" hang_control

# Every step the core marks is a step of the map (spec/refinement.yml), and every step of the
# map is marked by a run of the unit tests.
steps_match() {
  local code spec
  code=$(grep '^# step ' "$LOGDIR/unit-steps.log" | awk '{print $3}' | sort -u)
  spec=$(python3 -m tools.refine.steps | grep -oE '^\| `[A-Z_]+`' | tr -d '|` ' | sort -u)
  [[ -n $code && -n $spec ]] || { echo "no step names found"; return 1; }
  diff <(echo "$code") <(echo "$spec")
}
t_run "unit/step-names-match-spec [REQ-IMPL-3]" steps_match

# Compile-fail: each must fail with its diagnostic, and compile with -DCONTROL.
read -r -a CCLINE <<<"$(make -s --no-print-directory print-irqsync-cc)"
for f in tests/compile-fail/*.c; do
  n=$(basename "$f" .c)
  re=$(sed -n 's/^ \* expect: //p' "$f")
  req=$(grep -oE 'REQ-[A-Z]+-[0-9]+' "$f" | head -1)
  t_run_fail "compile-fail/$n [$req]" "$re" "${CCLINE[@]}" -c "$f" -o /dev/null
  t_run "compile-fail/$n-control [$req]" "${CCLINE[@]}" -DCONTROL -c "$f" -o /dev/null
done
# REQ-SYNC-6: the shipped tree cannot build a known-bad synchronize_irq. src/ holds one wait
# (src/core/sync.c, the locked re-check); v0, v1 and the other variants live in twins/variants/
# and are linked in place of sync.c by test libraries only (mk/lib.mk). A variant file refuses a
# build without IRQSYNC_TESTING.
for v in 0 1; do
  t_run_fail "compile-fail/variant-v$v-default-build [REQ-SYNC-6]" \
    "twins/variants/ are for test builds only" \
    "${CCLINE[@]}" -c twins/variants/sync-v$v.c -o /dev/null
  t_run "compile-fail/variant-v$v-test-build-control [REQ-SYNC-6]" \
    "${CCLINE[@]}" -DIRQSYNC_TESTING -c twins/variants/sync-v$v.c -o /dev/null
done
# No source under src/ knows a variant macro (the test programs keep one of their own).
no_variant_in_src() {
  grep -rqn IRQSYNC_TEST_VARIANT tests/stress/stress.c || { echo "grep finds nothing: blind check"; return 1; }
  if grep -rn IRQSYNC_TEST_VARIANT src/; then echo "^ src/ names a test variant"; return 1; fi
  echo "grep -rn IRQSYNC_TEST_VARIANT src/: nothing"
}
t_run "variant/src-names-no-variant [REQ-SYNC-6]" no_variant_in_src
# The old request, a build from src/ with -DIRQSYNC_TESTING -DIRQSYNC_TEST_VARIANT=0|1, builds
# the shipped wait: no object defines the variant marker, and irqsync_wait_for_handler's object
# code is the shipped library's, with its locked re-check (calls into the lock). The v0 test
# library's wait (no lock call) shows that the object-code check can fail.
# The lock is inline (spinlock_body.h): its one call is the contended wait, irqsync_spin_wait,
# which the compiler may move to the function's .cold part; an out-of-line build calls spin_*.
locked_wait() { # <object>: irqsync_wait_for_handler calls the lock
  { objdump -dr --disassemble=irqsync_wait_for_handler "$1"
    objdump -dr --disassemble=irqsync_wait_for_handler.cold "$1"; } |
    grep -Eq 'R_[A-Z0-9_]+[[:space:]]+([a-z_]*spin_(lock|unlock)[a-z_]*|irqsync_spin_wait)' || { echo "$1: no lock call in irqsync_wait_for_handler"; return 1; }
}
wait_code() { objdump -d --disassemble=irqsync_wait_for_handler "$1" | sed -n '/>:$/,$p'; }
variant_request_ignored() { # <v>
  local d=$BD/unit/variant-request-v$1 f
  rm -rf "$d"; mkdir -p "$d"
  for f in src/core/*.c; do
    "${CCLINE[@]}" -DIRQSYNC_TESTING -DIRQSYNC_TEST_VARIANT="$1" -c "$f" -o "$d/$(basename "$f" .c).o" || return 1
  done
  if nm --defined-only "$d"/*.o | grep -w irqsync_test_variant; then echo "^ a variant marker"; return 1; fi
  nm --defined-only "$d/sync.o" | grep -qw irqsync_wait_for_handler || { echo "no wait in sync.o"; return 1; }
  locked_wait "$d/sync.o" || return 1
  diff <(wait_code "$BD/lib/obj/core/sync.o") <(wait_code "$d/sync.o") || { echo "differs from the shipped wait"; return 1; }
  echo "v$1 requested: the shipped locked re-check, no variant marker"
  ! locked_wait "$BD/libs/v0/obj/twins/variants/sync-v0.o" >/dev/null || { echo "the v0 library's wait takes the lock: blind check"; return 1; }
}
for v in 0 1; do
  t_run "variant/v$v-request-from-src-builds-the-shipped-wait [REQ-SYNC-6 REQ-SYNC-3]" variant_request_ignored $v
done
t_run_fail "compile-fail/step-hooks-default-build [REQ-IMPL-3]" \
  "IRQSYNC_STEP_HOOKS is for test builds only" \
  "${CCLINE[@]}" -DIRQSYNC_STEP_HOOKS -c src/core/steps.c -o /dev/null

# Link checks on the shipped library (nm -u: what it references).
undefined() { nm -u "$1" 2>/dev/null | awk '{print $NF}' | sort -u; }
defined() { nm --defined-only "$1" 2>/dev/null | awk '{print $NF}' | sort -u; }
no_alloc() { # REQ-IMPL-1
  local u; u=$(undefined "$BD/lib/libirqsync.a")
  grep -qx pthread_kill <<<"$u" || { echo "nm -u sees nothing: the check would be blind"; return 1; }
  if grep -Ex 'malloc|calloc|realloc|free|aligned_alloc|posix_memalign|valloc|strdup|strndup|mmap|sbrk|brk' <<<"$u"; then
    echo "the library references an allocator"; return 1
  fi
  local core; core=$(for o in "$BD"/lib/obj/core/*.o; do undefined "$o"; done | sort -u)
  echo "core references:" $core
  # _GLOBAL_OFFSET_TABLE_: the linker's own symbol, named by an object that takes a function's
  # address in position-independent code (the handler threads' functions, thread.c, manage.c).
  if grep -vE '^(irqsync_|spin_|local_irq_|irqs_disabled|handle_irq|irq_desc|_GLOBAL_OFFSET_TABLE_$)' <<<"$core"; then
    echo "the core references something outside the library and the port"; return 1
  fi
}
t_run "link/no-dynamic-allocation [REQ-IMPL-1]" no_alloc
no_test_code() { # REQ-SYNC-6, REQ-IMPL-3
  local d; d=$(defined "$BD/lib/libirqsync.a")
  grep -qx synchronize_irq <<<"$d" || { echo "no synchronize_irq: blind check"; return 1; }
  if grep -Ex 'irqsync_test_variant|irqsync_step|irqsync_set_step_hook' <<<"$d"; then
    echo "default build carries test code"; return 1
  fi
  grep -qx irqsync_test_variant <<<"$(defined "$BD/libs/v0/libirqsync.a")" || { echo "v0 lib not marked"; return 1; }
  grep -qx irqsync_step <<<"$(defined "$BD/libs/hooks/libirqsync.a")" || { echo "hook lib has no hook"; return 1; }
}
t_run "link/default-build-has-no-variant-or-hook [REQ-SYNC-6 REQ-IMPL-3]" no_test_code

#!/usr/bin/env bash
# 60-lint: the static checks of `make lint` (spec/lint.md) — sparse, coccinelle, cppcheck,
# clang-tidy over the library and over the example drivers of tests/lint/.  Budget: < 2 min.
#   - the library is clean (a real run: any finding or tool failure fails the case);
#   - each bad example is reported with the right rule on the right lines, each good one
#     draws no finding from any tool (tests/lint/check_examples.py);
#   - the spin_lock_irq patch mode rewrites what is safe, and its output compiles;
#   - the checks can fail: a library mutant, a dropped finding, a missing tool.
source tests/lib.sh
OUT=build/lint
rm -rf "$OUT" && mkdir -p "$OUT"
for t in sparse spatch cppcheck clang-tidy; do
  command -v "$t" >/dev/null || t_fail "lint/tool-$t" "$t not installed (make deps)"
done

# 1. The library: `make lint` must exit 0 with no finding.
t_run "lint/library-clean sparse+cocci+cppcheck+clang-tidy [REQ-IMPL-2] [REQ-LOCK-5]" make --no-print-directory lint

# 2. Every example, judged by rule and line.
EX=(tests/lint/*/*.c)
python3 lint/irqlint.py "${EX[@]}" >"$OUT/examples.txt" 2>"$OUT/examples.err"
rc=$?
if ((rc == 2)); then
  t_fail "lint/examples-run" "a tool failed: $(tail -n 3 "$OUT/examples.err")"
else
  t_tap "lint/example" python3 tests/lint/check_examples.py "$OUT/examples.txt" "${EX[@]}"
fi

# 2b. Good examples are real code: they compile with the project's warning set.
WARNFLAGS=$(make --no-print-directory -s -f - print-cflags <<'MK'
include mk/config.mk
print-cflags: ; @echo $(ALL_CFLAGS)
MK
)
for f in tests/lint/*/good-*.c; do
  t_run "lint/good-example-compiles/${f#tests/lint/} [REQ-IMPL-2]" ${CC:-gcc} $WARNFLAGS -Isrc/include -fsyntax-only "$f"
done

# 3. The make interface: non-zero on findings in user code, zero on clean user code.
t_run_fail "lint/make-lint-SRC-bad-fails [REQ-LOCK-5]" \
  "sparse/context: context imbalance in 'fifo_put'" \
  make --no-print-directory lint SRC=tests/lint/sparse/bad-lock-leak.c
t_run "lint/make-lint-SRC-good-passes [REQ-LOCK-4] [REQ-FLAGS-1]" \
  make --no-print-directory lint SRC=tests/lint/driver/good-quiesce.c

# 3b. REQ-FLAGS-2: only the port looks inside irq_flags_t (cocci/irqflags-opaque). The core and
#     every port are clean under the rule; the port's own code, once outside src/port/, is
#     reported (so the clean result is not blind); a peeking driver fails `make lint`.
t_run "lint/irqflags-opaque/core-and-ports-clean [REQ-FLAGS-2]" \
  python3 lint/irqlint.py --tools cocci --cflags "-Isrc/core -Isrc/port -Isrc/port/hosted" \
  src/core/*.c src/port/*/*.c
mkdir -p "$OUT/opaque" && cp src/port/hosted/port.c "$OUT/opaque/port.c"
t_run_fail "lint/irqflags-opaque/port-code-outside-src-port-found [REQ-FLAGS-2]" \
  "opaque/port.c:[0-9]+:[0-9]+: cocci/irqflags-opaque: 'flags.arch' accessed" \
  python3 lint/irqlint.py --tools cocci --cflags "-Isrc/core -Isrc/port -Isrc/port/hosted" "$OUT/opaque/port.c"
t_run_fail "lint/make-lint-SRC-peeking-driver-fails [REQ-FLAGS-2]" \
  "bad-peek-arch.c:29:[0-9]+: cocci/irqflags-opaque: 'flags.arch' accessed" \
  make --no-print-directory lint LINT_TOOLS=cocci SRC=tests/lint/irqflags-opaque/bad-peek-arch.c
t_run "lint/make-lint-SRC-opaque-driver-passes [REQ-FLAGS-2]" \
  make --no-print-directory lint SRC=tests/lint/irqflags-opaque/good-opaque.c

# 4. Patch mode on copies: safe pairs rewritten, unsafe left and still reported, output compiles.
#    bad-clash.c: a copy of bad-in-irqsave.c that already has a local named irqflags0 (the
#    name the patch would pick) must be left alone too.
FIX=$OUT/fix; mkdir -p "$FIX"
cp tests/lint/spin-lock-irq/bad-*.c "$FIX/"
sed '0,/irq_flags_t flags;/s//irq_flags_t flags, irqflags0;/' tests/lint/spin-lock-irq/bad-in-irqsave.c >"$FIX/bad-clash.c"
cp "$FIX/bad-clash.c" "$OUT/bad-clash.orig.c"
make --no-print-directory lint-fix LINT_TOOLS=cocci SRC="$(echo "$FIX"/bad-*.c)" >"$OUT/fix.log" 2>&1
check_fix() {
  local f base orig ok=0
  for f in "$FIX"/bad-*.c; do
    base=$(basename "$f")
    orig=tests/lint/spin-lock-irq/$base
    [[ $base == bad-clash.c ]] && orig=$OUT/bad-clash.orig.c
    case $base in
      bad-unpatchable.c|bad-clash.c)
        cmp -s "$f" "$orig" || { echo "$base: changed, but it is not safe to patch"; ok=1; } ;;
      *)
        cmp -s "$f" "$orig" && { echo "$base: not rewritten"; ok=1; } ;;
    esac
  done
  # what remains reported is exactly what the two files not to patch had before
  local want left left_kept
  want=$(grep -Ec '(bad-unpatchable|bad-in-irqsave)\.c:[0-9]+:[0-9]+: cocci/spin-lock-irq' "$OUT/examples.txt")
  python3 lint/irqlint.py --tools cocci "$FIX"/bad-*.c >"$OUT/fix-after.txt" 2>&1
  left=$(grep -c 'cocci/spin-lock-irq' "$OUT/fix-after.txt")
  left_kept=$(grep -Ec '(bad-unpatchable|bad-clash)\.c:[0-9]+:[0-9]+: cocci/spin-lock-irq' "$OUT/fix-after.txt")
  echo "after the patch: $left spin-lock-irq findings, $left_kept of them in the two files not to patch (want $want and $want)"
  ((want > 0 && left == want && left_kept == want)) || ok=1
  return $ok
}
t_run "lint/fix-rewrites-only-safe-pairs [REQ-LOCK-4] [REQ-LOCK-3]" check_fix
for f in "$FIX"/bad-in-*.c; do
  t_run "lint/fix-output-compiles/$(basename "$f") [REQ-LOCK-3]" \
    ${CC:-gcc} $WARNFLAGS -Isrc/include -fsyntax-only "$f"
  t_run "lint/fix-output-sparse-clean/$(basename "$f") [REQ-LOCK-5]" \
    python3 lint/irqlint.py --tools sparse "$f"
done

# 5. The checks can fail.
#  a) a library mutant: drop one unlock from a core file; sparse must see the imbalance.
MUT=$OUT/mutant; mkdir -p "$MUT"
mutate() {
  local src
  for src in src/core/*.c; do
    [[ $src == src/core/spinlock.c ]] && continue
    if grep -q '^\s*spin_unlock\(_irqrestore\)\?(' "$src"; then
      awk 'done || !/^[ \t]*spin_unlock(_irqrestore)?\(/ {print; next} {done=1}' "$src" >"$MUT/$(basename "$src")"
      echo "$MUT/$(basename "$src")"; return 0
    fi
  done
  return 1
}
if m=$(mutate); then
  t_run_fail "lint/library-mutant-unlock-dropped-found [REQ-LOCK-5]" "sparse/context: context imbalance" \
    python3 lint/irqlint.py --tools sparse --cflags "-Isrc/core -Isrc/port -Isrc/port/hosted" "$m"
else
  t_fail "lint/library-mutant-unlock-dropped-found [REQ-LOCK-5]" "no spin_unlock line in src/core/*.c to mutate"
fi
#  a2) the very target of lint/library-clean fails on a finding, per analyser: the library
#      configured as a forbidden non-test variant build hits its #error (REQ-SYNC-6).
t_run_fail "lint/library-gate-fails-cppcheck [REQ-IMPL-2] [REQ-SYNC-6]" "cppcheck/preprocessorErrorDirective" \
  make --no-print-directory lint LINT_TOOLS=cppcheck LINT_CFLAGS=-DIRQSYNC_TEST_VARIANT=1
t_run_fail "lint/library-gate-fails-clang-tidy [REQ-IMPL-2] [REQ-SYNC-6]" "clang-tidy/clang-diagnostic-error" \
  make --no-print-directory lint LINT_TOOLS=clang-tidy LINT_CFLAGS=-DIRQSYNC_TEST_VARIANT=1
#  b) the example checker itself: a finding removed from the output must be missed.
grep -v 'bad-in-irqsave.c:23:' "$OUT/examples.txt" >"$OUT/examples-dropped.txt"
t_run_fail "lint/example-check-detects-missing-finding" "line 23: not reported by cocci/spin-lock-irq" \
  python3 tests/lint/check_examples.py "$OUT/examples-dropped.txt" tests/lint/spin-lock-irq/bad-in-irqsave.c
#  c) a tool that cannot run is a failure, not a pass.
t_run_fail "lint/missing-tool-is-an-error" "spatch: not installed" \
  env PATH=/nonexistent "$(command -v python3)" lint/irqlint.py --tools cocci tests/lint/sparse/good-lock-balanced.c

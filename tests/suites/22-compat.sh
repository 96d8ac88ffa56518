#!/usr/bin/env bash
# 22-compat — irqsync held against Linux genirq (issue 27): tests/compat/genirq.c states the
# behaviour of Linux's generic IRQ layer that drivers rely on (the KUnit cases of
# kernel/irq/irq_test.c, spurious.c's "nobody cared", manage.c's request/free/enable/disable
# paths) as test cases against irqsync's API; linux_* cases assert what Linux does, diff_*
# cases assert irqsync's deliberate differences (docs/linux-differences.md, one per case).
# Cases that need an irqchip or CPU hotplug are reported as skipped, with the reason.
# Expected failure: the library with the seeded bug of issue 27 (request_irq keeps the
# spurious window; the row spurious-window-kept of proofs/negative/mutate.py) fails exactly
# the two cases that pin the reset.  Budget: < 30 s.
source tests/lib.sh

t_run "compat/build [REQ-LIFECYCLE-7]" make -s -j2 compat-tests
((T_LAST_RC == 0)) || exit 0   # the build failed (recorded above): never run an older binary

t_tap compat build/tests/compat

# Every diff_* case has its row on the differences page, and every case the page names exists.
page_matches_cases() { # [page]
  local cases page
  cases=$(grep -oE '^TEST\(diff_[a-z0-9_]+\)' tests/compat/genirq.c | sed 's/TEST(//; s/)//' | sort -u)
  page=$(grep -oE '`diff_[a-z0-9_]+`' "${1:-docs/linux-differences.md}" | tr -d '`' | sort -u)
  [[ -n $cases ]] || { echo "no diff_ case found: blind check"; return 1; }
  diff <(echo "$cases") <(echo "$page") && echo "$(wc -l <<<"$cases") differences, each on the page"
}
t_run "compat/every-difference-on-the-page [REQ-LIFECYCLE-8]" page_matches_cases
# Its known-bad twin: a page whose row names the pool-bound case wrongly.
mkdir -p build/compat
sed 's/`diff_sharer_pool_bounded`/`diff_sharer_pool`/' docs/linux-differences.md >build/compat/bad-page.md
t_run_fail "compat/page-missing-a-difference-fails [REQ-LIFECYCLE-8]" \
  '^< diff_sharer_pool_bounded$' page_matches_cases build/compat/bad-page.md

# The seeded bug: a copy of the tree with the reset of irqsync_install removed (the text of the
# mutant is the proof mutant's, so both checks break the same code), built and run.
M=build/compat/mutant
seeded_window_kept() {
  rm -rf "$M"; mkdir -p "$M"
  python3 - "$M/tree" <<'EOF' || return 2
import shutil, sys, importlib.util
spec = importlib.util.spec_from_file_location("mutate", "proofs/negative/mutate.py")
mutate = importlib.util.module_from_spec(spec); spec.loader.exec_module(mutate)
m = mutate.MUTANTS["spurious-window-kept"]
dest = sys.argv[1]
shutil.copytree(".", dest, ignore=shutil.ignore_patterns("build", ".git", "__pycache__"), symlinks=True)
path = f"{dest}/{m['file']}"
text = open(path).read()
assert text.count(m["old"]) == 1, "the mutant no longer applies"
open(path, "w").write(text.replace(m["old"], m["new"]))
EOF
  make -C "$M/tree" -s -j2 build/tests/compat || return 2
  "$M/tree/build/tests/compat"
}
# Both reset cases must fail (and so the run); the regex wants the first, the check below both.
t_run_fail "compat/seeded-window-kept-fails-the-reset-cases [REQ-LIFECYCLE-7]" \
  '^not ok [0-9]+ - linux_request_resets_spurious_detector ' seeded_window_kept
both_reset_cases_failed() {
  local log; log=$(_t_log "compat/seeded-window-kept-fails-the-reset-cases [REQ-LIFECYCLE-7]")
  grep -E '^not ok [0-9]+ - linux_shared_join_resets_spurious_detector ' "$log" &&
    [[ $(grep -c '^not ok ' "$log") == 2 ]] || { echo "expected exactly the two reset cases to fail:"; grep '^not ok' "$log"; return 1; }
}
t_run "compat/seeded-window-kept-fails-only-the-reset-cases [REQ-LIFECYCLE-7]" both_reset_cases_failed

#!/usr/bin/env bash
# 22-compat — irqsync held against Linux genirq (issue 27): tests/compat/genirq.c states the
# behaviour of Linux's generic IRQ layer that drivers rely on (the KUnit cases of
# kernel/irq/irq_test.c, spurious.c's "nobody cared", manage.c's request/free/enable/disable
# paths) as test cases against irqsync's API; linux_* cases assert what Linux does, diff_*
# cases assert irqsync's deliberate differences (docs/linux-differences.md, one per case).
# Cases that need an irqchip or CPU hotplug are reported as skipped, with the reason.
# Expected failure: the library with the seeded bug of issue 27 (request_irq keeps the
# spurious window; the twin spurious-window-kept of twins/catalog.yml) fails exactly
# the two cases that pin the reset.  Budget: < 30 s.
# check-uses: lib   (tools/runtests.py: builds the library's objects under $BUILD)
source tests/lib.sh
BD=${BUILD:-build}   # the build directory (make and tools/runtests.py pass BUILD)

t_run "compat/build [REQ-LIFECYCLE-7]" make -s -j2 compat-tests
((T_LAST_RC == 0)) || exit 0   # the build failed (recorded above): never run an older binary

t_tap compat "$BD/tests/compat"

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
mkdir -p "$BD/compat"
sed 's/`diff_sharer_pool_bounded`/`diff_sharer_pool`/' docs/linux-differences.md >"$BD/compat/bad-page.md"
t_run_fail "compat/page-missing-a-difference-fails [REQ-LIFECYCLE-8]" \
  '^< diff_sharer_pool_bounded$' page_matches_cases "$BD/compat/bad-page.md"

# The seeded bug: a copy of the tree with the reset of irqsync_install removed -- the twin
# spurious-window-kept of twins/catalog.yml, whose proof killer is in [50-proof]: both checks
# break the same code. Built and run; both reset cases must fail (the catalog's regex wants the
# first, the case below both).
M=$BD/compat/mutant
seeded_window_kept() {
  rm -rf "$M"; mkdir -p "$M/tree"
  # (the copy leaves out build/ and, when it is inside the tree, this run's build directory)
  ( tar -c --exclude=./build --exclude="./${BD#./}" --exclude=./.git --exclude=__pycache__ . | tar -x -C "$M/tree" ) || return 2
  python3 -m tools.twins edit spurious-window-kept "$M/tree/src/core/manage.c" >/dev/null || return 2
  make -C "$M/tree" -s -j2 BUILD=build build/tests/compat || return 2   # the copy's own build/
  "$M/tree/build/tests/compat"
}
t_twin spurious-window-kept seeded_window_kept
both_reset_cases_failed() {
  local log; log=$(_t_log "twin/spurious-window-kept")
  grep -E '^not ok [0-9]+ - linux_shared_join_resets_spurious_detector ' "$log" &&
    [[ $(grep -c '^not ok ' "$log") == 2 ]] || { echo "expected exactly the two reset cases to fail:"; grep '^not ok' "$log"; return 1; }
}
t_run "compat/seeded-window-kept-fails-only-the-reset-cases [REQ-LIFECYCLE-7]" both_reset_cases_failed

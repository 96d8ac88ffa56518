#!/usr/bin/env bash
# 65-port — the port conformance suite (issue 17, docs/porting.md): `make port-check` on every
# port we ship -- hosted natively, baremetal-armv7m under qemu-system-arm (mps2-an385),
# baremetal-aarch64 under qemu-system-aarch64 (virt, one CPU and two) -- and on the
# deliberately broken ports of tests/port/broken/, each an expected failure that must name the
# obligation it breaks. [REQ-TCB-1 REQ-TCB-2]
# Every run is bounded (mk/port.mk wraps each program and qemu in `timeout`, a hang guard; every
# wait in the suite counts iterations); builds and runs are niced: the machine is shared.
# check-uses: lib   (tools/runtests.py: port builds next to the library's under $BUILD)
. tests/lib.sh
MAKE="nice -n 10 make --no-print-directory -s"

# ---- the shipped ports: every obligation passes ----
for p in hosted baremetal-armv7m baremetal-aarch64; do
  t_run "port/$p/build (port + suite in one translation unit) [REQ-TCB-2]" \
    $MAKE port-check-build PORT=$p
  ((${T_LAST_RC:-0} == 0)) || continue
  # the case limit covers both targets of baremetal-aarch64 at PC_RUN_LIMIT (540 s) each: a
  # hang guard; a quiet run takes seconds (mk/port.mk)
  T_LIMIT=1200 t_tap "port/$p" $MAKE port-check PORT=$p
done

# ---- the broken ports: each fails, and on the obligation it breaks ----
# Each is a twin of twins/catalog.yml (kind broken-port): `make port-check PORT=broken/NAME` runs
# once; the run must fail, and its output must match each killer's `expect` (one case each).
# The atomics' litmus rounds need two CPUs that run at the same time (two host cores for the
# hosted threads and for qemu's two vCPU threads); on one core those twins are skipped, as their
# killers allow (skip_ok).
for id in $(t_twins broken-port); do
  if [[ $id == port-atomics-@(mb-compiler-only|rmw-not-atomic|torn-store) ]] && (( $(nproc) < 2 )); then
    t_twin_skip "$id" "one host core: the two sides of a litmus round cannot run at the same time"
    continue
  fi
  # up to two targets at PC_RUN_LIMIT each: a hang guard, as above
  T_LIMIT=1200 t_twin "$id" $MAKE port-check PORT=broken/"${id#port-}"
done
t_skip "port/broken/atomics-torn-store: single-copy litmus, hosted [REQ-MM-4]" \
  "not observable on x86: the core commits both 16-bit halves while it owns the line (tests/port/broken/atomics-torn-store)"
# What no run here can show (docs/porting.md): a weakened release is invisible to the MP
# litmus on this x86 host and under qemu (TCG maps guest accesses onto the host's TSO ones).
# The run above includes the MP case; say what it did instead of claiming a check.
log=$(_t_log "twin/port-atomics-release-relaxed")
if grep -Eq '^ok [0-9]+ - aarch64-smp/atomics/mp-release-acquire ' "$log"; then
  t_skip "port/broken/atomics-release-relaxed: MP litmus [REQ-MM-4]" \
    "not observable here: the MP case passed on this broken build (x86-64 host, qemu TCG keep stores in order); the instruction check above catches it"
else
  t_ok "port/broken/atomics-release-relaxed: MP litmus [REQ-MM-4]" \
    "xfail: the MP case failed on the broken build: this machine can show a weakened release"
fi

#!/usr/bin/env bash
# 65-port — the port conformance suite (issue 17, docs/porting.md): `make port-check` on every
# port we ship -- hosted natively, baremetal-armv7m under qemu-system-arm (mps2-an385),
# baremetal-aarch64 under qemu-system-aarch64 (virt, one CPU and two) -- and on the
# deliberately broken ports of tests/port/broken/, each an expected failure that must name the
# obligation it breaks. [REQ-TCB-1 REQ-TCB-2]
# Every run is bounded (mk/port.mk wraps each program and qemu in `timeout`, a hang guard; every
# wait in the suite counts iterations); builds and runs are niced: the machine is shared.
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
# xfail NAME REGEX... : run `make port-check PORT=broken/NAME` once; the run must fail, and its
# output must match each REGEX (one case per REGEX):  "description =~ regex"
xfail() {
  local port=$1; shift
  local log rc dt spec
  local T_LIMIT=1200	# up to two targets at PC_RUN_LIMIT each: a hang guard, as above
  _t_go "port/broken/$port" $MAKE port-check PORT=broken/"$port"
  for spec in "$@"; do
    _t_xfail "port/broken/$port: ${spec%% =~ *}" "${spec#* =~ }"
    dt=0
  done
}

xfail hosted-restore-ignores-state \
  "restore of a saved 'disabled' enables [REQ-LOCK-3 REQ-FLAGS-2] =~ ^not ok [0-9]+ - hosted/irq/save-restore-nesting-exact "
xfail hosted-unmask-drops-held \
  "unmask drops the held interrupts [REQ-LOCK-6] =~ ^not ok [0-9]+ - hosted/irq/masked-interrupt-held-then-delivered-at-unmask "
# The windows inside the unmask and the nested restore (conformance.c, plat_inject): each
# broken port passes every before/after case and fails the sweep, by its count.
xfail hosted-unmask-looks-before-clearing \
  "pending looked at before the mask is cleared: the interrupt raised in between is lost [REQ-LOCK-6] =~ ^not ok [0-9]+ - hosted/irq/unmask-window-delivers-exactly-once " \
  "lost: no handler call for it by the end of the unmask (0, not 1) [REQ-LOCK-6] =~ ^#   conformance.c:[0-9]+: window: irq_restore: handle_irq calls for one interrupt raised during it \(want 1\): 0 != 1"
xfail hosted-unmask-delivers-twice \
  "the unmask replays what it read before claiming it: delivered twice [REQ-LOCK-6 REQ-DISPATCH-8] =~ ^not ok [0-9]+ - hosted/irq/unmask-window-delivers-exactly-once " \
  "doubled: two handler calls for one interrupt (2, not 1) [REQ-DISPATCH-8] =~ ^#   conformance.c:[0-9]+: window: irq_restore: handle_irq calls for one interrupt raised during it \(want 1\): 2 != 1"
xfail hosted-nested-restore-drops-mask \
  "a nested restore drops the mask for a moment: delivered inside the held region [REQ-LOCK-3 REQ-LOCK-6] =~ ^not ok [0-9]+ - hosted/irq/nested-restore-window-holds "
xfail hosted-cpu-id-out-of-range \
  "cpu_id reaches IRQSYNC_NR_CPUS [REQ-TCB-2 REQ-HANDLER-2] =~ ^not ok [0-9]+ - hosted/cpu-id/in-range-stable-distinct "
xfail hosted-irqs-disabled-lies \
  "irqs_disabled() says enabled while masked [REQ-LOCK-6] =~ ^not ok [0-9]+ - hosted/irq/irqs-disabled-tells-the-truth "
xfail hosted-no-compiler-barrier \
  "irq_disable without a compiler barrier, found in the object code [REQ-TCB-1 REQ-TCB-2] =~ ^not ok [0-9]+ - hosted/compiler-barrier/static/irqsync_port_irq_disable "
xfail hosted-global-irq-state \
  "one interrupt state for all CPUs [REQ-LOCK-6] =~ ^not ok [0-9]+ - hosted/irq/state-is-per-cpu "
xfail armv7m-no-memory-clobber \
  "asm without memory clobbers, found in the object code [REQ-TCB-1 REQ-TCB-2] =~ ^not ok [0-9]+ - armv7m/compiler-barrier/static/irqsync_port_irq_restore " \
  "asm without memory clobbers, seen on mps2-an385: the handler's store lost across the unmask [REQ-TCB-1] =~ ^not ok [0-9]+ - armv7m/compiler-barrier/unmask-orders-plain-accesses "
xfail armv7m-basepri-masks-too-little \
  "BASEPRI leaves the timers unmasked: delivered while 'disabled' (mps2-an385) [REQ-LOCK-6 REQ-DISPATCH-8] =~ ^#   conformance.c:[0-9]+: held: an interrupt was delivered while disabled" \
  "BASEPRI leaves the timers unmasked: the held case fails [REQ-LOCK-6] =~ ^not ok [0-9]+ - armv7m/irq/masked-interrupt-held-then-delivered-at-unmask "
xfail aarch64-cpu-id-out-of-range \
  "cpu_id = Aff0 + 1 out of range on CPU 1 (virt, 2 CPUs) [REQ-TCB-2 REQ-HANDLER-2] =~ ^not ok [0-9]+ - aarch64-smp/cpu-id/in-range-stable-distinct "
xfail aarch64-irqs-disabled-raw-daif \
  "irqs_disabled() returns DAIF.I (128), not 1 (virt) [REQ-LOCK-6] =~ irqs_disabled\(\) returned neither 0 nor 1: 128 != 1"
# The atomics: litmus rounds need two CPUs that run at the same time (two host cores for the
# hosted threads and for qemu's two vCPU threads); the instruction checks need nothing.
if (( $(nproc) >= 2 )); then
  xfail atomics-mb-compiler-only \
    "smp_mb as a compiler barrier: SB litmus, hosted (2 threads) [REQ-MM-4 REQ-SYNC-3] =~ ^not ok [0-9]+ - hosted/atomics/sb-smp_mb-is-a-full-fence " \
    "smp_mb as a compiler barrier: SB litmus, virt with 2 CPUs [REQ-MM-4 REQ-SYNC-3] =~ ^not ok [0-9]+ - aarch64-smp/atomics/sb-smp_mb-is-a-full-fence " \
    "smp_mb as a compiler barrier: no dmb in the AArch64 code [REQ-MM-4 REQ-TCB-1] =~ ^#   MISSING full in pc_atomics_mb "
  xfail atomics-rmw-not-atomic \
    "fetch_add as load + store: lost increments, hosted [REQ-MM-4 REQ-LOCK-1] =~ ^not ok [0-9]+ - hosted/atomics/rmw-is-atomic " \
    "fetch_add as load + store: lost increments, virt with 2 CPUs [REQ-MM-4 REQ-LOCK-1] =~ ^not ok [0-9]+ - aarch64-smp/atomics/rmw-is-atomic " \
    "fetch_add as load + store: no exclusive pair in the AArch64 code [REQ-MM-4 REQ-TCB-1] =~ ^#   MISSING rmw in pc_atomics_lock "
  xfail atomics-torn-store \
    "32-bit store as two halves: torn reads, virt with 2 CPUs [REQ-MM-4] =~ ^not ok [0-9]+ - aarch64-smp/atomics/single-copy-atomic-32-bit "
else
  for c in "atomics-mb-compiler-only: SB litmus" "atomics-rmw-not-atomic: RMW litmus" \
           "atomics-torn-store: single-copy litmus"; do
    t_skip "port/broken/$c [REQ-MM-4]" "one host core: the two sides of a litmus round cannot run at the same time"
  done
fi
t_skip "port/broken/atomics-torn-store: single-copy litmus, hosted [REQ-MM-4]" \
  "not observable on x86: the core commits both 16-bit halves while it owns the line (tests/port/broken/atomics-torn-store)"
xfail atomics-release-relaxed \
  "unlock without release: no stlr/dmb in the AArch64 code [REQ-MM-4 REQ-TCB-1] =~ ^#   MISSING release in pc_atomics_unlock "
# What no run here can show (docs/porting.md): a weakened release is invisible to the MP
# litmus on this x86 host and under qemu (TCG maps guest accesses onto the host's TSO ones).
# The run above includes the MP case; say what it did instead of claiming a check.
log=$(_t_log "port/broken/atomics-release-relaxed")
if grep -Eq '^ok [0-9]+ - aarch64-smp/atomics/mp-release-acquire ' "$log"; then
  t_skip "port/broken/atomics-release-relaxed: MP litmus [REQ-MM-4]" \
    "not observable here: the MP case passed on this broken build (x86-64 host, qemu TCG keep stores in order); the instruction check above catches it"
else
  t_ok "port/broken/atomics-release-relaxed: MP litmus [REQ-MM-4]" \
    "xfail: the MP case failed on the broken build: this machine can show a weakened release"
fi

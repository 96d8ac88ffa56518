#!/usr/bin/env bash
# tests/proofs/reuse.sh MODE — proof units reused by key, on a copy of the tree (50-proof).
#   body            change irqs_disabled's body: that unit alone is proved again
#   local           the same change, proved twice: the second run reuses the unit the first
#                   one proved on this machine ("reused (local)"), not from the store
#   contract        change irqsync_in_own_handler's contract: it and its one caller
#                   (irqsync_refuse_self_wait) are proved again, nothing else
#   drop-property   a stored result lacks one of its function's properties: the gate fails
#                   although the unit is reused (expected failure)
#   untrust         the trusted base loses an entry a reused unit assumes: the gate fails
#                   (expected failure)
# The copy shares the main tree's prover cache and Why3 configuration (make prove first).
set -euo pipefail
mode=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$root/build/proofs/reuse-$mode
rm -rf "$work" && mkdir -p "$work/tree"
cd "$root"
git ls-files -z --cached --others --exclude-standard -- src acsl proofs \
  | xargs -0 cp --parents -t "$work/tree"
cd "$work/tree"
edit() { python3 - "$@"; }
expect_now=""
case $mode in
  body|local)
    edit <<'PY'
p = "src/core/irqflags.c"; s = open(p).read()
old = "\treturn irqsync_port_irqs_disabled();\n"
assert s.count(old) == 1, "irqs_disabled body not found"
open(p, "w").write(s.replace(old, "\tint off = 0;\n\n\toff = irqsync_port_irqs_disabled();\n\treturn off;\n"))
PY
    expect_now="irqs_disabled" ;;
  contract)
    edit <<'PY'
p = "acsl/handle.h"; s = open(p).read()
old = "    ensures ACSL_INIT;\n*/\nint irqsync_in_own_handler(unsigned int irq);"
assert s.count(old) == 1, "irqsync_in_own_handler contract not found"
open(p, "w").write(s.replace(old, "    ensures ACSL_INIT;\n    ensures \\result <= 1;\n*/\n"
                             "int irqsync_in_own_handler(unsigned int irq);"))
PY
    expect_now="irqsync_in_own_handler irqsync_refuse_self_wait" ;;
  drop-property)
    edit <<'PY'
import json
p = "proofs/units/irqs_disabled.json"; u = json.load(open(p))
i = next(i for i, x in enumerate(u["props"]) if x[0] == "postcondition" and x[2] == "Valid")
del u["props"][i]
json.dump(u, open(p, "w"))
PY
    ;;
  untrust)
    sed -i '/^irqsync_port_irqs_disabled$/d' proofs/trusted-base.txt ;;
  *) echo "reuse.sh: unknown mode $mode" >&2; exit 2 ;;
esac
prove_copy() {
  python3 proofs/units.py prove --why3conf "$root/build/proofs/why3.conf" \
    --cache-dir "$root/build/proofs/cache" --jobs 2 --unit-par 2 --outdir build/proofs/units \
    --trusted proofs/trusted-base.txt --skip-fct irqsync_call_handler,irqsync_call_warn_hook \
    --evidence build/proofs.json -- -cpp-extra-args="-Isrc/include -Isrc/core" proofs/core.c
}
rc=0
prove_copy || rc=$?
if [[ $mode == local ]]; then
  ((rc == 0)) || { echo "reuse.sh: the gate failed on the changed copy"; exit 1; }
  # The store still holds the old key of irqs_disabled; the first run's passing result has the new one.
  prove_copy > second.log 2>&1 || { cat second.log; echo "reuse.sh: the second run failed"; exit 1; }
  cat second.log
  grep -Eq '^prove: irqs_disabled .*reused \(local\)' second.log || {
    echo "reuse.sh: irqs_disabled was not reused from the first run"; exit 1; }
  exit 0
fi
[[ -z $expect_now ]] && exit $rc
((rc == 0)) || { echo "reuse.sh: the gate failed on the changed copy"; exit 1; }
now=$(python3 -c 'import json; print(" ".join(sorted(f for f, u in json.load(open("build/proofs.json"))["units"].items() if u["source"] != "reused")))')
echo "proved now: [$now]; expected: [$expect_now]"
[[ $now == "$expect_now" ]]

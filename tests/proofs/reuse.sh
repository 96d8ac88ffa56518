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
#   rekey           irqs_disabled's body made wrong (returns 0) and its stored result re-keyed
#                   by hand to the new key: make prove names the edited record and proves the
#                   unit again, which fails (expected failure)
#   rekey-forged    the same, with the record's inputs and properties forged to fit the new
#                   body: make prove reuses it (the store is speed, not evidence), and the cold
#                   proof of that unit (no reuse, no prover cache, --compare-store) names it
#                   (expected failure)
#   gate-code       proofs/gate.py changed: every stored unit is behind, for that reason alone,
#                   and make prove as make check runs it (--stale-context fail) fails at once
#                   saying so, proving nothing
# The copy shares the main tree's prover cache and Why3 configuration (make prove first), in the
# build directory BUILD (default build; make and tools/runtests.py pass it); the copy itself lives
# there too, and writes its own results under its own build/.
set -euo pipefail
mode=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
bd=${BUILD:-build}; [[ $bd == /* ]] || bd=$root/$bd   # relative to the tree, as make has it
work=$bd/proofs/reuse-$mode
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
  rekey|rekey-forged)
    edit <<'PY'
p = "src/core/irqflags.c"; s = open(p).read()
old = "\treturn irqsync_port_irqs_disabled();\n"
assert s.count(old) == 1, "irqs_disabled body not found"
open(p, "w").write(s.replace(old, "\treturn 0;\n"))
PY
    ;;
  gate-code)
    echo "# a change to the gate's code" >> proofs/gate.py ;;
  *) echo "reuse.sh: unknown mode $mode" >&2; exit 2 ;;
esac
# As make check runs make prove: a store made under another key context (every unit behind)
# fails at once, instead of proving every unit in the copy.
# The bodies WP skips: make's list (mk/prove.mk, PROVE_SKIP), read from there.
skip=$(sed -n 's/^PROVE_SKIP *:= *//p' "$root/mk/prove.mk")
[[ -n $skip ]] || { echo "reuse.sh: no PROVE_SKIP in mk/prove.mk" >&2; exit 2; }
units_copy() {  # units_copy CMD [OPTIONS]
  python3 proofs/units.py "$@" --stale-context fail --why3conf "$bd/proofs/why3.conf" \
    --cache-dir "$bd/proofs/cache" --jobs 2 --unit-par 2 --outdir build/proofs/units \
    --trusted proofs/trusted-base.txt --skip-fct "$skip" \
    --evidence build/proofs.json -- -cpp-extra-args="-Isrc/include -Isrc/core" proofs/core.c
}
prove_copy() { units_copy prove "$@"; }
case $mode in
  gate-code)
    rc=0; units_copy status > status.log || rc=$?
    tail -n 1 status.log
    python3 - <<'PY'
import json, sys
st = json.load(open("build/proofs/units/status.json"))
bad = {f: r for f, r in st.items() if r["state"] != "behind" or r["why"] != "changed: the gate's code (proofs/gate.py, proofs/units.py)"}
sys.exit(f"reuse.sh: not behind for the gate's code alone: {sorted(bad)}" if bad else 0)
PY
    ((rc == 1)) || { echo "reuse.sh: status exit $rc, expected 1 (units behind)"; exit 1; }
    echo "every stored unit ($(grep -c '^status: .* behind ' status.log)) is behind: the gate's code changed"
    rc=0; prove_copy > stale.log 2>&1 || rc=$?
    cat stale.log
    n=$(ls proofs/units/*.json | wc -l)   # every unit of the store, however many there are
    ((rc == 1)) && grep -q "^prove: FAILED: the store was made under another key context ($n of $n units" stale.log \
      && ! grep -q "proved now  *[0-9.]* s" stale.log || { echo "reuse.sh: make check's prove did not fail at once"; exit 1; }
    exit 0 ;;
  rekey|rekey-forged)
    # Re-key the stored record by hand to the key of the changed source (units.py status
    # computes it, no prover runs); the forged variant also copies the new inputs.
    units_copy status > status.log || true
    python3 - "$mode" <<'PY'
import json, sys
new = json.load(open("build/proofs/units/status.json"))["irqs_disabled"]
p = "proofs/units/irqs_disabled.json"; u = json.load(open(p))
assert u["key"] != new["key"], "the changed body did not change the key"
u["key"] = new["key"]
if sys.argv[1] == "rekey-forged":
    # everything the reuse checks read made to fit the new body: its inputs, and its
    # properties (from the changed source's inventory) claimed Valid
    sys.path.insert(0, "proofs")
    import gate
    u["inputs"] = new["inputs"]
    have = {tuple(x[:2]) for x in u["props"]}
    u["props"] += [[x["kind"], x["property"], "Valid"]
                   for x in gate.read_props("build/proofs/units/_inventory/inventory.csv")
                   if x["function"] == "irqs_disabled" and (x["kind"], x["property"]) not in have]
json.dump(u, open(p, "w"))
PY
    if [[ $mode == rekey ]]; then
      prove_copy; exit $?    # must fail, naming the record (50-proof asserts the message)
    fi
    prove_copy > reused.log 2>&1 || { cat reused.log; echo "reuse.sh: the forged store did not pass"; exit 1; }
    grep -Eq '^prove: irqs_disabled .* reused ' reused.log || {
      cat reused.log; echo "reuse.sh: the forged unit was not reused"; exit 1; }
    echo "make prove with the forged store: PASSED, irqs_disabled reused (the store is not evidence)"
    # The cold proof of that unit: no reuse, no prover cache, compared with the store.
    prove_copy --rerun irqs_disabled --cache none --compare-store; exit $? ;;
esac
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

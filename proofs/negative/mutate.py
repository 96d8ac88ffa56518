#!/usr/bin/env python3
"""proofs/negative/mutate.py - the proof mutants of the core: expected proof failures.

Each mutant is an entry of twins/catalog.yml (kind proof-mutant): an exact-once edit of one file
of src/core/ or of a public header that breaks one requirement, the function WP proves on it,
the clause it breaks (WP proves only that clause's goals, -wp-prop, without smoke tests), and
the goals that must then be, exactly, the unproved ones (proofs/gate.py --expect-unproved).  `make prove-neg-<name>` runs one; make prove-expected runs
them all; tests/suites/50-proof.sh asserts each one's named goals.

  mutate.py list
      the mutants' names
  mutate.py prove NAME OUTDIR --cpp="CPP ARGS" -- GATE COMMAND...
      writes OUTDIR/<file> (the mutated copy) and OUTDIR/core.c (the unity file of proofs/core.c
      with the mutant in place of the original), then runs GATE COMMAND with the mutant's
      --fct and --expect-unproved options and the unity file as Frama-C's input; exits with the
      gate's status.

Exits 2 if the code to mutate is no longer there, so a change of the core cannot turn an
expected failure into a vacuous pass.
"""
import argparse, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from tools import twins  # noqa: E402  (the catalog; ROOT on the path first)

PUBLIC = "src/include/"


def mutants():
    """The proof mutants of twins/catalog.yml (kind proof-mutant), by id."""
    return {t["id"]: t for t in twins.load() if t["kind"] == "proof-mutant"}


def write_mutant(m, out):
    """OUTDIR/<file> (the mutated copy) and OUTDIR/core.c (proofs/core.c including it)."""
    e = m["edit"]
    try:
        text = twins.apply_edit(open(os.path.join(ROOT, e["file"])).read(), e, m["id"])
    except twins.CatalogError as err:
        print(f"mutate.py: {err}", file=sys.stderr)
        sys.exit(2)
    unity = open(os.path.join(ROOT, "proofs", "core.c")).read()
    unity = unity.replace('#include "../', f'#include "{ROOT}/')
    if e["file"].startswith(PUBLIC):
        # A public header (included as <irqsync/...>): the copy shadows it from OUTDIR, which
        # main() puts first on the include path; the unity file is unchanged.
        dest = os.path.join(out, e["file"][len(PUBLIC):])
    else:
        dest = os.path.join(out, os.path.basename(e["file"]))
        orig = f'#include "{ROOT}/{e["file"]}"'
        if unity.count(orig) != 1:
            print(f"mutate.py: proofs/core.c does not include {e['file']} once", file=sys.stderr)
            sys.exit(2)
        unity = unity.replace(orig, f'#include "{os.path.abspath(dest)}"')
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        f.write(text)
    core = os.path.join(out, "core.c")
    with open(core, "w") as f:
        f.write(unity)
    return core


def main(argv=None):
    ap = argparse.ArgumentParser(prog="mutate.py", description="the proof mutants of the core "
                                 "(twins/catalog.yml, kind proof-mutant) as expected proof failures")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="the mutants' names")
    p = sub.add_parser("prove", help="write the mutant and run the gate on it")
    p.add_argument("name")
    p.add_argument("outdir")
    p.add_argument("--cpp", required=True, help="the preprocessor arguments of the proof")
    ap.epilog = "prove: the gate command follows a lone --, and is passed on as it is"
    argv = list(sys.argv[1:] if argv is None else argv)
    gate = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    ms = mutants()
    if a.cmd == "list":
        print("\n".join(ms))
        return 0
    if a.name not in ms:
        ap.error(f"no proof mutant {a.name!r} in twins/catalog.yml")
    if not gate:
        ap.error("no gate command after --")
    m = ms[a.name]
    core = write_mutant(m, a.outdir)
    pr = m["proof"]
    # Only the clause the mutant breaks is proved (-wp-prop), without smoke tests: the job
    # shows that this clause fails on the mutant; the rest of the function is the unit's.
    cmd = gate + ["--fct", pr["function"], "--no-smoke"]
    for r in pr["unproved"]:
        cmd += ["--expect-unproved", r]
    cpp = a.cpp
    if m["edit"]["file"].startswith(PUBLIC):
        cpp = f"-I{os.path.abspath(a.outdir)} {cpp}"
    cmd += ["--", f"-cpp-extra-args={cpp}", f"-wp-prop={pr['clause']}", core]
    print(f"mutant {a.name}: {m['edit']['file']} -> {core}", flush=True)
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())

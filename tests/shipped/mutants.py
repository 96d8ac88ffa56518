#!/usr/bin/env python3
"""mutants.py -- seeded bugs of the class "what ships is not what is proved" (issue 23).

Each mutant is an entry of twins/catalog.yml (kind shipped-mutant, id shipped-NAME): one edit
of one header of src/include/irqsync/, written as a copy under
OUTDIR/irqsync/; a build that puts `-I OUTDIR` before `-Isrc/include` compiles the mutated
header in place of the real one and everything else unchanged. The copy is made from the
current header, so a mutant follows the tree; an edit whose text is no longer found exactly
once stops with exit 2 (a mutant that silently mutates nothing would make its expected failure
pass for the wrong reason).

  python3 -m tests.shipped.mutants NAME OUTDIR       write the mutant
  python3 -m tests.shipped.mutants --list            the names

Used by tests/suites/22-shipped.sh (tests/shipped/hooks_check.py must reject each) and by
mk/cross.mk (the barrier check must reject early-publish and relaxed-first-look). [REQ-MM-4]
"""
import argparse, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from tools import twins  # noqa: E402  (the catalog; ROOT on the path first)

HDR = "src/include/irqsync/"


def mutants():
    """{name: twin} of twins/catalog.yml's shipped mutants (id shipped-NAME)."""
    return {t["id"][len("shipped-"):]: t for t in twins.load() if t["kind"] == "shipped-mutant"}


def write(name, outdir, root="."):
    """Write mutant `name` under outdir/irqsync/; return its path. ValueError when the edit
    does not apply exactly once."""
    t = mutants()[name]
    if not t["edit"]["file"].startswith(HDR):
        raise ValueError(f"mutant {name}: {t['edit']['file']} is not a header of {HDR}")
    try:
        return twins.write_edited(t, os.path.join(outdir, "irqsync", t["edit"]["file"][len(HDR):]), root)
    except twins.CatalogError as e:
        raise ValueError(str(e))


def main(argv=None):
    ms = mutants()
    ap = argparse.ArgumentParser(prog="python3 -m tests.shipped.mutants",
                                 description="write one shipped mutant of twins/catalog.yml")
    ap.add_argument("name", nargs="?", choices=sorted(ms), metavar="NAME", help="the mutant")
    ap.add_argument("outdir", nargs="?", help="the include directory to write it under")
    ap.add_argument("--list", action="store_true", help="the names")
    a = ap.parse_args(argv)
    if a.list:
        for n, t in ms.items():
            print(f"{n}: {t['what']}")
        return 0
    if not a.name or not a.outdir:
        ap.error("NAME OUTDIR, or --list")
    try:
        print(write(a.name, a.outdir))
    except ValueError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

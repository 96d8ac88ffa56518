"""mutants.py - the refinement check's expected failures: each is an exact-once string edit of
one file, applied to a COPY of the tree under build/refine/mutants/<id>/ (the working tree is
never touched), on which `tools.refine.check --root <copy>` must fail naming the step.

  python3 -m tools.refine.mutants ID     print the check's output on the mutated copy; exit as it
  python3 -m tools.refine.mutants --list
  python3 -m tools.refine.mutants --edit NAME FILE OLD NEW
                                         the same for an edit given here (exact once), on the copy
                                         build/refine/mutants/edit-NAME/: the suite's own cases of
                                         the checker's features ([82-refinement])

The mutants are twins/catalog.yml's entries of kind refine-mutant (id refine-ID).
"""
import argparse, os, shutil, sys

from . import check
from .. import twins

ROOT = check.ROOT
WORK = os.path.join(ROOT, "build", "refine", "mutants")
COPY = ("src", "promela", "spec", "twins/variants", "mk", "Makefile")


def mutants():
    """{id: twin} of twins/catalog.yml's refine mutants (ids without their `refine-` prefix), and
    the control `null`: the copy unchanged must pass."""
    out = {"null": {"id": "null", "what": "the control: the copy unchanged must pass"}}
    for t in twins.load():
        if t["kind"] == "refine-mutant":
            out[t["id"][len("refine-"):]] = t
    return out


def copy_tree(mid, m):
    dest = os.path.join(WORK, mid)
    shutil.rmtree(dest, ignore_errors=True)
    for part in COPY:
        src = os.path.join(ROOT, part)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, part), ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.makedirs(os.path.dirname(os.path.join(dest, part)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, part))
    if "edit" in m:
        full = os.path.join(dest, m["edit"]["file"])
        try:
            twins.write_edited(m, full, ROOT)
        except twins.CatalogError as e:
            raise SystemExit(str(e))
    return dest


def main(argv=None):
    ms = mutants()
    ap = argparse.ArgumentParser(prog="python3 -m tools.refine.mutants",
                                 description="the refinement check on a mutated copy of the tree")
    ap.add_argument("id", nargs="?", choices=sorted(ms), metavar="ID",
                    help="the mutant (twins/catalog.yml, refine-ID), or null (the control)")
    ap.add_argument("--list", action="store_true", help="the mutants, one per line")
    ap.add_argument("--edit", nargs=4, metavar=("NAME", "FILE", "OLD", "NEW"),
                    help="an edit of FILE (OLD, exactly once, becomes NEW) instead of a catalog mutant")
    a = ap.parse_args(argv)
    if a.edit:
        name, path, old, new = a.edit
        text = open(os.path.join(ROOT, path)).read()
        if text.count(old) != 1:
            print("edit %s: %r occurs %d times in %s, not once (the case is stale)"
                  % (name, old, text.count(old), path))
            return 3
        dest = copy_tree("edit-" + name, {"id": name})
        with open(os.path.join(dest, path), "w") as f:
            f.write(text.replace(old, new))
        print("edit %s: %s (copy: %s)" % (name, path, os.path.relpath(dest, ROOT)))
        return check.main(["--root", dest])
    if a.list:
        for mid, m in ms.items():
            print("%-24s %s" % (mid, m["what"]))
        return 0
    if not a.id:
        ap.error("an ID or --list")
    dest = copy_tree(a.id, ms[a.id])
    print("mutant %s: %s (copy: %s)" % (a.id, ms[a.id]["what"], os.path.relpath(dest, ROOT)))
    return check.main(["--root", dest])


if __name__ == "__main__":
    sys.exit(main())

"""tools/twins.py - the catalog of known-bad twins (twins/catalog.yml) and the one way to use it.

A *twin* is a deliberately broken copy of some part of irqsync: a text edit of the C or of the
model, a variant source linked in place of the real one, a broken port, a weakened build, a bug
switch of the model.  Each is kept so that a check can be shown able to fail: the catalog names,
for every twin, what it breaks (requirement IDs), how it is built, and each check expected to
kill it -- the test case (`case`, in suite `suite`) and the exact failure that case must see
(`expect`, a regular expression over the case's log: the unproved goal, the violated assertion,
the diverging step).  Every group reads its twins from here; tests/lib.sh's `t_twin` runs one
and records each of its killers as an expected failure; `verify` (the [99-twins] group of make
check) fails when a twin's killer did not run, did not fail, failed otherwise, or only hung.

  python3 -m tools.twins check                 the catalog is well formed and every edit applies
  python3 -m tools.twins list [--kind K] [--field F]
  python3 -m tools.twins killers ID            one line per killer: suite, case, expect (TSV)
  python3 -m tools.twins edit ID DEST [--root R]   write the edited file of an edit twin to DEST
  python3 -m tools.twins verify [--results DIR] [--suites S ...]

Exit status: 0 fine; 1 a check failed (named on stdout); 2 bad use or a catalog error.
"""
import argparse, os, re, sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "twins", "catalog.yml")

# kind: (what it is, the fields its `build` must have)
KINDS = {
    "proof-mutant": ("an edit of src/ that WP must fail on the named goal (proofs/negative/mutate.py)",
                     ("edit", "proof")),
    "proof-file": ("a known-bad source proved by the gate as an expected failure (mk/prove.mk)",
                   ("make",)),
    "refine-mutant": ("an edit the refinement check must reject naming the step (tools/refine/mutants.py)",
                      ("edit",)),
    "campaign-mutant": ("an edit of src/ or promela/ for the mutation campaign (tools/mutants/campaign.py)",
                        ("edit", "techniques")),
    "shipped-mutant": ("an edit of a public header the shipped-vs-checked checks must reject "
                       "(tests/shipped/mutants.py)", ("edit",)),
    "lint-mutant": ("an edit of src/ a lint rule must report ([60-lint])", ("edit",)),
    "broken-port": ("a port under tests/port/broken/ that make port-check must fail by obligation",
                    ("port",)),
    "baremetal-port": ("a bare-metal port function replaced (tests/baremetal/mutants/)", ("file",)),
    "variant": ("a test-only synchronize_irq linked in place of src/core/sync.c (twins/variants/)",
                ("file",)),
    "weakened-build": ("a cross build with an order weakened (mk/cross.mk)", ("make",)),
    "model-switch": ("a bug switch of the Promela model (-D define)", ("defines",)),
}
# requirement IDs (spec/requirements.md)
REQ_RE = re.compile(r"^REQ-[A-Z]+-[0-9]+$")


class CatalogError(Exception):
    pass


def _joined(v):
    """An edit's text: a string, or a list of strings (fragments by YAML anchor) joined."""
    if isinstance(v, list):
        if not all(isinstance(s, str) for s in v):
            raise CatalogError(f"an edit text list holds a non-string: {v!r}")
        return "".join(v)
    if not isinstance(v, str):
        raise CatalogError(f"an edit text is not a string: {v!r}")
    return v


def _expand_killers(t):
    """A killer may carry `each: {VAR: [values]}`: one killer per value, {VAR} substituted."""
    out = []
    for k in t.get("killed_by", []):
        each = k.get("each")
        if not each:
            out.append(dict(k))
            continue
        (var, values), = each.items()
        for v in values:
            out.append({f: (s.replace("{%s}" % var, str(v)) if isinstance(s, str) else s)
                        for f, s in k.items() if f != "each"})
    return out


def load(path=CATALOG):
    """The twins, fragments joined and killers expanded; CatalogError on a malformed entry."""
    with open(path) as f:
        doc = yaml.safe_load(f)
    twins, seen = [], set()
    for t in doc.get("twins", []):
        tid = t.get("id")
        if not tid or tid in seen:
            raise CatalogError(f"twin id missing or given twice: {tid!r}")
        seen.add(tid)
        kind = t.get("kind")
        if kind not in KINDS:
            raise CatalogError(f"{tid}: kind {kind!r} is not one of {', '.join(KINDS)}")
        for need in ("breaks", "what") + KINDS[kind][1]:
            if need not in t:
                raise CatalogError(f"{tid}: no `{need}` (a {kind} needs {', '.join(KINDS[kind][1])})")
        bad = [r for r in t["breaks"] if not REQ_RE.match(r)]
        if bad:
            raise CatalogError(f"{tid}: `breaks` holds {bad}, not requirement IDs")
        t = dict(t)
        if "edit" in t:
            e = dict(t["edit"])
            e["old"], e["new"] = _joined(e["old"]), _joined(e["new"])
            e["also"] = [(_joined(a["old"]), _joined(a["new"])) for a in e.get("also", [])]
            t["edit"] = e
        t["killed_by"] = _expand_killers(t)
        for k in t["killed_by"]:
            for need in ("suite", "case", "expect"):
                if not k.get(need):
                    raise CatalogError(f"{tid}: a killer without `{need}`: {k}")
            try:
                re.compile(k["expect"])
            except re.error as e:
                raise CatalogError(f"{tid}: killer {k['case']!r}: expect is not a regex: {e}")
        twins.append(t)
    return twins


def get(tid, twins=None):
    for t in twins if twins is not None else load():
        if t["id"] == tid:
            return t
    raise CatalogError(f"no twin {tid!r} in {os.path.relpath(CATALOG, ROOT)}")


def apply_edit(text, edit, tid):
    """text with the twin's edit applied; each old text must occur exactly once (a twin that
    silently mutates nothing would make its expected failure pass for the wrong reason)."""
    for old, new in [(edit["old"], edit["new"])] + list(edit["also"]):
        n = text.count(old)
        if n != 1:
            raise CatalogError(f"twin {tid} does not apply: its text occurs {n} times in "
                               f"{edit['file']} (update twins/catalog.yml)")
        text = text.replace(old, new)
    return text


def write_edited(t, dest, root=ROOT):
    """Write twin t's edited file (from root) to dest; return dest."""
    with open(os.path.join(root, t["edit"]["file"])) as f:
        text = apply_edit(f.read(), t["edit"], t["id"])
    os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
    with open(dest + ".tmp", "w") as f:
        f.write(text)
    os.replace(dest + ".tmp", dest)
    return dest


def _model_texts():
    out = []
    for base, _, files in os.walk(os.path.join(ROOT, "promela")):
        out += [open(os.path.join(base, f)).read() for f in files if f.endswith(".pml")]
    return out


def check(twins):
    """Problems of the catalog against the tree: files that do not exist, edits that do not
    apply, killers in suites that do not exist."""
    bad = []
    suites = {f[:-3] for f in os.listdir(os.path.join(ROOT, "tests", "suites")) if f.endswith(".sh")}
    for t in twins:
        for key in ("file", "port"):
            p = t.get(key)
            if p and not os.path.exists(os.path.join(ROOT, p)):
                bad.append(f"{t['id']}: {key} {p} does not exist")
        if "edit" in t:
            try:
                with open(os.path.join(ROOT, t["edit"]["file"])) as f:
                    apply_edit(f.read(), t["edit"], t["id"])
            except (OSError, CatalogError) as e:
                bad.append(str(e))
        if t["kind"] == "model-switch":
            for d in t["defines"]:
                name = d.split("=")[0]
                if not any(re.search(rf"\b{re.escape(name)}\b", m) for m in _model_texts()):
                    bad.append(f"{t['id']}: define {name} is used by no model of promela/")
        for k in t["killed_by"]:
            if k["suite"] not in suites:
                bad.append(f"{t['id']}: killer suite {k['suite']} is not in tests/suites/")
    return bad


def results(results_dir, suites):
    """{case name: (status, detail)} of the named suites' result files."""
    got = {}
    for s in suites:
        p = os.path.join(results_dir, s + ".tsv")
        if not os.path.exists(p):
            continue
        for line in open(p):
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                # (tests/lib.sh's t_record ends each field with a space)
                got[parts[1].strip()] = (parts[0], parts[3].strip() if len(parts) > 3 else "")
    return got


def verify(twins, results_dir, suites):
    """{kind: (killed, [problems])} for the twins whose killers ran in `suites`.  A twin is
    killed when each of its killers in those suites passed as an expected failure (tests/lib.sh
    records such a pass as "xfail: failed as expected: ..."; a timeout, a success or another
    failure is recorded otherwise), or was skipped where its killer says it may be (skip_ok)."""
    got = results(results_dir, suites)
    out = {}
    for t in twins:
        ks = [k for k in t["killed_by"] if k["suite"] in suites]
        if not ks:
            continue
        killed, probs = out.setdefault(t["kind"], [0, []])
        mine = []
        for k in ks:
            status, detail = got.get(k["case"], (None, ""))
            if status is None:
                mine.append(f"{t['id']}: killer case not run by [{k['suite']}]: {k['case']}")
            elif status == "skip" and k.get("skip_ok"):
                continue
            elif status != "pass" or not detail.startswith("xfail: failed as expected"):
                mine.append(f"{t['id']}: not killed by {k['case']} ({status}: {detail[:160]})")
        probs.extend(mine)
        if not mine:
            out[t["kind"]][0] += 1
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.twins", description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", default=CATALOG, help="the catalog (default: twins/catalog.yml)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check", help="the catalog is well formed and every edit applies to the tree")
    p = sub.add_parser("list", help="the twins, one per line")
    p.add_argument("--kind", choices=sorted(KINDS))
    p.add_argument("--field", help="print this field's value after the id")
    p.add_argument("--suite", help="only twins with a killer in this suite")
    p = sub.add_parser("killers", help="TSV lines suite, case, expect, skip_ok of one twin")
    p.add_argument("id")
    p.add_argument("--suite", help="only its killers in this suite")
    p.add_argument("--field", help="print only this field of each killer")
    p = sub.add_parser("edit", help="write the edited file of an edit twin")
    p.add_argument("id")
    p.add_argument("dest")
    p.add_argument("--root", default=ROOT, help="the tree to read the file from")
    p = sub.add_parser("verify", help="every twin whose killers ran was killed by them")
    p.add_argument("--results", default=os.path.join(ROOT, os.environ.get("BUILD") or "build", "results"))
    p.add_argument("--suites", nargs="+", required=True, help="the suites of this run")
    a = ap.parse_args(argv)
    try:
        twins = load(a.catalog)
        if a.cmd == "check":
            bad = check(twins)
            for b in bad:
                print("BAD " + b)
            print(f"twins: {len(twins)} in {len(set(t['kind'] for t in twins))} kinds, "
                  f"{sum(len(t['killed_by']) for t in twins)} killers; {len(bad)} problems")
            return 1 if bad else 0
        if a.cmd == "list":
            for t in twins:
                if (not a.kind or t["kind"] == a.kind) and \
                        (not a.suite or any(k["suite"] == a.suite for k in t["killed_by"])):
                    print(t["id"] if not a.field else f"{t['id']}\t{t.get(a.field, '')}")
            return 0
        if a.cmd == "killers":
            for k in get(a.id, twins)["killed_by"]:
                if a.suite and k["suite"] != a.suite:
                    continue
                print(k.get(a.field, "") if a.field else
                      f"{k['suite']}\t{k['case']}\t{k['expect']}\t{k.get('skip_ok', '')}")
            return 0
        if a.cmd == "edit":
            t = get(a.id, twins)
            if "edit" not in t:
                raise CatalogError(f"twin {a.id} is a {t['kind']}, not an edit")
            print(write_edited(t, a.dest, a.root))
            return 0
        res = verify(twins, a.results, a.suites)
        fails = 0
        for kind, (killed, probs) in sorted(res.items()):
            n = killed + len({p.split(":")[0] for p in probs})
            print(f"{'FAIL' if probs else 'ok  '} {kind}: {killed} of {n} killed by their named check")
            for p in probs:
                print("  " + p)
            fails += bool(probs)
        return 1 if fails else 0
    except CatalogError as e:
        print(f"twins: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""make report: build/evidence/{evidence.json, junit.xml, index.html} from fresh results only.

  python3 -m tools.report.report [--build DIR] [--root DIR] [--promela DIR] [--no-env] [--summary]

Reads the producers' results under DIR (default build/): evidence/model.json, proofs.json,
cross.json, bench.json, trace.json, trails/, results/summary.json. A result is used only when its
freshness stamp (tools/stamp.py) says it was produced from the current sources; a stale, unstamped,
missing or invalid result is shown as such and counts as no evidence. Rules: spec/report.md.
Exit status: 0 when the report was written (whatever it says), 2 on a usage error.
`--summary` also prints the terminal summary (tools/summary.py prints it from evidence.json).
Paths in the report are relative to the repository (DIR too, when it lies inside it).
"""
import argparse, json, os, sys, time

from tools.report import collect, env, html_page, junit, summary

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = 1


def tcb_rows(root):
    """The trusted-base table of spec/tcb.md, row by row (header row first)."""
    rows = []
    try:
        with open(os.path.join(root, "spec", "tcb.md"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("|") and not set(line.strip()) <= set("|- :"):
                    rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    except OSError:
        pass
    return rows


def verdict(ev):
    reqs = ev["requirements"]
    cnt = {s: sum(1 for r in reqs.values() if r["status"] == s)
           for s in ("verified", "partial", "failed", "none")}
    v = {"requirements": dict(cnt, total=len(reqs)) if reqs else None}
    p = ev["proofs"]
    v["goals"] = ({"proved": p["proved"], "total": p["total"], "unproved": len(p["unproved"]),
                   "assumptions": len(p["assumptions"])} if p else None)
    m = ev["model"]
    if m is not None:
        v["model"] = {"as_expected": sum(r["as_expected"] for r in m), "total": len(m),
                      "protocol": sum(r["kind"] != "litmus" for r in m),
                      "litmus": sum(r["kind"] == "litmus" for r in m),
                      "expected_violations": sum(r["expected"] == "violate" for r in m)}
    else:
        v["model"] = None
    t = ev["tests"]
    v["tests"] = ({k: sum(c["status"] == s for c in t["cases"])
                   for k, s in (("passed", "pass"), ("failed", "fail"), ("skipped", "skip"))}
                  if t else None)
    if v["tests"]:
        v["tests"]["total"] = len(t["cases"])
    c = ev["cross"]
    v["targets"] = {"ok": sum(x["ok"] for x in c), "total": len(c)} if c is not None else None
    # optional producers (bench, mutants, scale: not run by `make`; conformance: run by it) count once they exist
    counted = [p for p in ev["producers"].values() if not p["optional"] or p["status"] != "missing"]
    v["fresh"] = sum(p["status"] == "fresh" for p in counted)
    v["producers"] = len(counted)
    return v


def build(root, bdir, promela, with_env=True):
    prod = collect.load_all(bdir)
    ev = {"schema": SCHEMA, "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    ev["environment"] = dict(env.git_info(), tools=env.tool_versions() if with_env else {})
    ev["producers"] = {n: {k: p[k] for k in ("status", "reason", "target", "rc", "stamped", "changed",
                                              "optional")}
                       for n, p in prod.items()}
    problems = []
    for n, p in prod.items():
        problems += p["problems"]
    ev["model"] = prod["model"]["data"]
    ev["proofs"] = prod["proofs"]["data"]
    ev["tests"] = prod["tests"]["data"]
    ev["cross"] = prod["cross"]["data"]
    ev["bench"] = (prod["bench"]["data"] or {}).get("bench")
    ev["race"] = (prod["bench"]["data"] or {}).get("race")
    ev["other"] = {n: prod[n]["data"] for n in ("conformance", "mutants", "scale")}
    ev["trace_problems"] = (prod["trace"]["data"] or {}).get("problems", [])
    ev["requirements"], pr, ev["proof_list"] = collect.join(root, prod)
    problems += pr
    ev["timelines"], pr = collect.timelines(root, bdir, ev["model"], promela)
    problems += pr
    ev["tcb"] = tcb_rows(root)
    ev["problems"] = problems
    ev["verdict"] = verdict(ev)
    return ev


def write(ev, out):
    os.makedirs(out, exist_ok=True)
    for name, text in (("evidence.json", json.dumps(ev, indent=1, sort_keys=True) + "\n"),
                       ("junit.xml", junit.render(ev)),
                       ("index.html", html_page.render(ev))):
        tmp = os.path.join(out, name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, os.path.join(out, name))


def repo_relative(path, root):
    """path relative to root when it lies inside it: the messages of the report then name
    files as the repository does, not by this machine's checkout path."""
    rel = os.path.relpath(os.path.abspath(path), root)
    return path if rel == ".." or rel.startswith(".." + os.sep) else rel


class _Parser(argparse.ArgumentParser):
    """A usage error prints the whole help (what the report reads and writes), then argparse's
    message, and exits 2."""

    def error(self, message):
        self.print_help(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser():
    ap = _Parser(prog="python3 -m tools.report.report", description=__doc__,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", metavar="DIR",
                    help="the build directory holding the results; the report goes to "
                         "DIR/evidence (default: $BUILD, else build)")
    ap.add_argument("--root", metavar="DIR",
                    help="the repository the results were produced from: its sources decide "
                         "freshness, its spec/ the requirements (default: this repository)")
    ap.add_argument("--promela", metavar="DIR", default="promela",
                    help="the model's directory under the root, where the trails' files are found "
                         "(default: promela)")
    ap.add_argument("--no-env", dest="env", action="store_false",
                    help="do not ask this machine's tools their versions (the report lists none)")
    ap.add_argument("--summary", action="store_true",
                    help="also print the terminal summary of the report")
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    root = os.path.abspath(a.root or os.path.dirname(os.path.dirname(HERE)))
    os.chdir(root)
    os.environ["IRQSYNC_ROOT"] = root
    bdir = repo_relative(a.build or os.environ.get("BUILD", "build"), root)
    os.environ["BUILD"] = bdir
    ev = build(root, bdir, a.promela, a.env)
    out = os.path.join(bdir, "evidence")
    write(ev, out)
    print(f"report: {out}/index.html, evidence.json, junit.xml written")
    if a.summary:
        summary.print_summary(ev, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

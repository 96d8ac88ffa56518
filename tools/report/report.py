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
import json, os, sys, time

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


def main(argv):
    args = {"--build": None, "--root": None, "--promela": "promela"}
    flags = set()
    it = iter(argv[1:])
    for a in it:
        if a in args:
            args[a] = next(it, None)
            if args[a] is None:
                print(f"report: {a} needs a value", file=sys.stderr)
                return 2
        elif a in ("--no-env", "--summary"):
            flags.add(a)
        else:
            print(__doc__, file=sys.stderr)
            return 2
    root = os.path.abspath(args["--root"] or os.path.dirname(os.path.dirname(HERE)))
    os.chdir(root)
    os.environ["IRQSYNC_ROOT"] = root
    bdir = repo_relative(args["--build"] or os.environ.get("BUILD", "build"), root)
    os.environ["BUILD"] = bdir
    ev = build(root, bdir, args["--promela"], "--no-env" not in flags)
    out = os.path.join(bdir, "evidence")
    write(ev, out)
    print(f"report: {out}/index.html, evidence.json, junit.xml written")
    if "--summary" in flags:
        summary.print_summary(ev, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

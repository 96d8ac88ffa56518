"""Load the producers' result files (only fresh ones), join them with the requirements.

Every loader returns (data, problems): a malformed file is reported as a problem and its producer
as "invalid" — never silently dropped, never a crash. Rules for "verified" are in spec/report.md.
"""
import json, os, re

from tools import stamp
from tools.report import goals as goalsmod
from tools.report import trail as trailmod

MACHINE = ("model", "proof", "test", "lint")  # methods a run can settle; "review" is read


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), None
    except OSError as e:
        return None, f"{path}: cannot read ({e.strerror})"
    except ValueError as e:
        return None, f"{path}: not valid JSON ({e})"


def read_result(path, shape_ok, shape):
    """(data, problems) of a result file: (None, [why]) when it cannot be read or is not of the
    shape a loader needs (shape_ok(data) false; `shape` says what was expected)."""
    d, err = read_json(path)
    if err:
        return None, [err]
    if not shape_ok(d):
        return None, [f"{path}: expected {shape}"]
    return d, []


# ---- per-producer loaders: (data, problems) ------------------------------------------------

def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def model_ok(r):
    """A run is as expected when its result is the expected one; a "hold" counts only when the
    search was exhaustive (a bitstate or truncated search proves nothing)."""
    if r.get("result") != r.get("expected"):
        return False
    return r.get("expected") != "hold" or r.get("exhaustive") is True


def load_model(path):
    d, err = read_json(path)
    if err:
        return None, [err]
    runs = d.get("runs") if isinstance(d, dict) else d
    if not isinstance(runs, list):
        return None, [f"{path}: expected a list of runs"]
    probs, out = [], []
    for i, r in enumerate(runs):
        if not isinstance(r, dict) or "name" not in r or "result" not in r or "expected" not in r:
            probs.append(f"{path}: run {i} lacks name/expected/result")
            continue
        r = dict(r)
        r.setdefault("kind", "protocol")
        r["requirements"] = [x for x in r.get("requirements") or [] if isinstance(x, str)]
        r["as_expected"] = model_ok(r)
        out.append(r)
    return out, probs


def load_proofs(path):
    d, probs = read_result(path, lambda d: isinstance(d, dict) and _is_number(d.get("total"))
                           and _is_number(d.get("proved")), "{total, proved, functions, …}")
    if d is None:
        return None, probs
    d.setdefault("functions", {})
    d.setdefault("unproved", [])
    d.setdefault("assumptions", [])
    d.setdefault("provers", {})
    probs = []
    if not isinstance(d["functions"], dict):
        probs.append(f"{path}: functions is not an object")
        d["functions"] = {}
    return d, probs


def load_tests(path):
    d, probs = read_result(path, lambda d: isinstance(d, dict) and isinstance(d.get("suites"), list),
                           "{suites: […]}")
    if d is None:
        return None, probs
    cases = []
    for s in d["suites"]:
        for c in s.get("cases", []):
            cases.append({"suite": s.get("suite", "?"), "name": str(c.get("name", "?")),
                          "status": c.get("status", "fail"), "seconds": c.get("seconds", 0),
                          "detail": str(c.get("detail", ""))})
    return {"suites": [{"suite": s.get("suite", "?"), "seconds": s.get("seconds", 0)}
                       for s in d["suites"]], "cases": cases}, []


def load_cross(path):
    d, err = read_json(path)
    if err:
        return None, [err]
    if isinstance(d, dict) and isinstance(d.get("targets"), (list, dict)):
        d = d["targets"]
    if isinstance(d, dict):
        d = [dict(v, target=k) if isinstance(v, dict) else {"target": k} for k, v in sorted(d.items())]
    if not isinstance(d, list):
        return None, [f"{path}: expected a list of targets"]
    out = []
    for t in d:
        if not isinstance(t, dict):
            continue
        t = dict(t)
        t.setdefault("target", t.get("triple", "?"))
        ok = bool(t.get("built")) and _is_number(t.get("failed")) and t["failed"] == 0 \
            and _is_number(t.get("passed")) and t["passed"] > 0
        b = t.get("barrier")
        if isinstance(b, dict):  # the disassembly check, and its known-bad twin must fail it
            ok = ok and b.get("passed") is True and b.get("relaxed_build_rejected", True) is True
        t["ok"] = bool(ok)
        out.append(t)
    return out, []


def load_bench(path):
    d, err = read_json(path)
    if err:
        return None, [err]
    if isinstance(d, dict) and isinstance(d.get("benchmarks"), list):
        d = d["benchmarks"]
    if not isinstance(d, list):
        return None, [f"{path}: expected a list of benchmarks"]
    return [b for b in d if isinstance(b, dict)], []


def load_bench_race(path):
    b, probs = load_bench(path)
    race = os.path.join(os.path.dirname(path), "race.json")
    if b is not None and os.path.exists(race):
        r, err = read_json(race)
        if err:
            probs.append(err)
        return {"bench": b, "race": r}, probs
    return (None if b is None else {"bench": b, "race": None}), probs


def load_any(path):
    d, err = read_json(path)
    return (None, [err]) if err else (d, [])


def load_trace(path):
    return read_result(path, lambda d: isinstance(d, dict) and isinstance(d.get("requirements"), dict),
                       "{requirements: {…}}")


LOADERS = {"model": load_model, "proofs": load_proofs, "tests": load_tests,
           "cross": load_cross, "bench": load_bench_race, "trace": load_trace}


def load_all(build):
    """{producer: {freshness…, data}} — data only for fresh results."""
    out = {}
    for name in stamp.PRODUCERS:
        f = stamp.check(name)
        f["data"], f["problems"] = None, []
        f["optional"] = bool(stamp.PRODUCERS[name].get("optional"))
        if f["status"] == "fresh":
            path = os.path.join(build, stamp.primary(name))
            f["data"], f["problems"] = LOADERS.get(name, load_any)(path)
            if f["data"] is None:
                f["status"], f["reason"] = "invalid", "; ".join(f["problems"])
        out[name] = f
    return out


# ---- the join -------------------------------------------------------------------------------

def cites(rid, text):
    return re.search(re.escape(rid) + r"(?![0-9])", text) is not None


# The mark of an expected failure in a test case's detail: tests/lib.sh's _t_xfail (t_run_fail)
# starts every detail it records with "xfail: "; tools/cross/cross.py, and results recorded
# before that mark existed, start a passing one with "failed as expected: ".
XFAIL_MARKS = ("xfail:", "failed as expected:")


def test_is_xfail(case):
    return str(case.get("detail", "")).lstrip().startswith(XFAIL_MARKS)


# Which test groups (tests/suites/NN-<group>.sh) give which method its items (spec/report.md §2).
# A case of a test group is a test item; of the lint group, a lint item. The model, proof and
# refinement groups check the checkers (the matrix, the gate, the map) and the report group the
# report: their passing cases support no requirement — the model's support is model.json, the
# proof's the goals spec/proof-goals.md lists — but their failures fail what they cite and their
# expected failures show the method able to fail.
TEST_GROUPS = ("foundation", "unit", "compat", "examples", "stress", "port", "cross", "conformance",
               "mutants")
LINT_GROUPS = ("lint",)
OTHER_GROUPS = {"model": "model", "proof": "proof", "shipped": "proof", "refinement": "test",
                "report": "test", "tooling": "test", "twins": "test"}


def group_of(suite):
    """The group of a suite: its name's first word after the number (`20-unit` -> `unit`,
    `60-lint-broken` -> `lint`, `cross/armv7` -> `cross`)."""
    return re.sub(r"^\d+-", "", str(suite).split("/")[0]).split("-")[0]


def case_method(suite):
    """(method, counts as support) of a case of `suite`; (None, False) for an unknown group."""
    g = group_of(suite)
    if g in TEST_GROUPS:
        return "test", True
    if g in LINT_GROUPS:
        return "lint", True
    if g in OTHER_GROUPS:
        return OTHER_GROUPS[g], False
    return None, False


def _test_items(rid, tests):
    items = []
    for c in tests:
        if not (cites(rid, c["name"]) or cites(rid, c["detail"])):
            continue
        m, support = case_method(c["suite"])
        st = {"pass": "pass", "skip": "skip"}.get(c["status"], "fail")
        x = {"method": m or "test", "name": c["name"], "suite": c["suite"],
             "xfail": test_is_xfail(c), "status": st, "detail": c["detail"][:200]}
        if not support and st == "pass" and not x["xfail"]:
            # a passing case of a checker's group: shown as a reference, never support
            x.update(status="cited", detail=f"a case of the {group_of(c['suite'])} group: "
                                           f"not a test of the requirement (spec/report.md)")
        items.append(x)
    return items


def join(root, prod):
    """Requirement -> evidence items with statuses, and each requirement's status."""
    tr = prod["trace"]["data"]
    if tr is None:
        return {}, ["trace.json not available: no requirement table"], None
    model = prod["model"]["data"] or []
    proofs = prod["proofs"]["data"]
    tests = list((prod["tests"]["data"] or {}).get("cases", []))
    for t in prod["cross"]["data"] or []:  # per-target cases of cross.json are tests too
        for c in t.get("cases") or []:
            if isinstance(c, dict):
                tests.append({"suite": f"cross/{t['target']}", "name": f"{t['target']}/{c.get('name')}",
                              "status": c.get("status", "fail"), "detail": str(c.get("detail", ""))})
    problems = []
    for g in sorted({group_of(c["suite"]) for c in tests}):
        if case_method(g)[0] is None:
            problems.append(f"test group {g!r} is in no class of spec/report.md §2 "
                            f"(tools/report/collect.py TEST_GROUPS): its cases count for nothing")
    rows, pr = goalsmod.read(root)
    problems += pr
    prefix = sorted({rid.split("-")[0] for rid in tr["requirements"]} or {"REQ"})[0]
    listed = goalsmod.evaluate(rows, proofs, prefix) if proofs else None
    for rid in sorted(set((listed or {})) - set(tr["requirements"])):
        problems.append(f"{goalsmod.LIST}: {rid} is not a requirement")
    reqs = {}
    order = lambda rid: (tr["requirements"][rid].get("line") or 0, _req_key(rid))  # the spec's order
    for rid in sorted(tr["requirements"], key=order):
        r = tr["requirements"][rid]
        refs = r.get("evidence", {}) or {}
        items = []
        for run in model:
            if rid in run["requirements"]:
                items.append({"method": "model", "kind": run.get("kind"),
                              "name": _run_label(run), "hold": run.get("expected") == "hold",
                              "xfail": run.get("expected") == "violate",
                              "status": "pass" if run["as_expected"] else "fail",
                              "detail": f"expected {run.get('expected')}, got {run.get('result')}"
                                        + ("" if run.get("exhaustive") or run.get("expected") != "hold"
                                           else " (not exhaustive)")})
        items += _proof_items(rid, rows, proofs, listed, prod["proofs"])
        items += _test_items(rid, tests)
        methods = [m for m in r.get("methods", []) if m in MACHINE]
        by = {}
        for m in MACHINE:
            its = [x for x in items if x["method"] == m]
            by[m] = _method_status(m, its)
        st = _req_status(methods, by, items)
        able = {m: sum(1 for x in items if x["method"] == m and x.get("xfail") and x["status"] == "pass")
                for m in MACHINE}
        reqs[rid] = {"title": r.get("title", ""), "area": r.get("area", ""),
                     "shown_able_to_fail": {m: n for m, n in able.items() if n},
                     "statement": r.get("statement", ""), "methods": r.get("methods", []),
                     "refs": {k: v for k, v in sorted(refs.items())}, "items": items,
                     "method_status": {m: by[m] for m in MACHINE if m in methods or by[m] != "none"},
                     "status": st}
    return reqs, problems, _list_summary(rows, listed, proofs)


def _list_summary(rows, listed, proofs):
    """The goal list against this run: rows, stale rows, unlisted goals (evidence.json)."""
    out = {"file": goalsmod.LIST, "rows": len(rows),
           "credited": sum(1 for r in rows if r["credit"]), "stale": [], "unlisted": {},
           "checked": listed is not None}
    for rid, e in sorted((listed or {}).items()):
        out["stale"] += [f"{rid} {x['pattern']} ({goalsmod.LIST}:{x['line']})"
                         for x in e["rows"] if not x["goals"] and x["pattern"] != goalsmod.TRUSTED_BASE]
        if e["unlisted"]:
            out["unlisted"][rid] = e["unlisted"]
    if proofs is not None and listed is None:
        out["why"] = "proofs.json names no goals (`goals`): rerun `make prove`"
    return out


def _req_key(rid):
    p = rid.split("-")
    return (p[-2] if len(p) > 2 else "", int(p[-1]) if p[-1].isdigit() else 0)


def _run_label(run):
    c = run.get("config") or {}
    size = "".join(f"{k[0]}{c[k]}" for k in ("cpus", "lines", "arrivals", "sharers") if k in c)
    bits = [run.get("name"), run.get("variant"), run.get("memory_model"), size, run.get("property")]
    return " ".join(str(b) for b in bits if b)


def _proof_items(rid, rows, proofs, listed, freshness):
    """The proof items of a requirement: one per row of spec/proof-goals.md that names it (a
    credited row passes when its goals are all proved; a row `no:` is shown as cited, never
    support; a stale row, matching no goal, fails), plus one for its unlisted goals (flagged,
    no credit). Goals that merely cite the requirement, or proof references in the tree, are
    not proof of it."""
    mine = [r for r in rows if r["rid"] == rid]
    if proofs is None:
        return [{"method": "proof", "name": f"{r['pattern']}", "status": "none",
                 "detail": f"proof results {freshness['status']}"} for r in mine if r["credit"]]
    if listed is None:
        return [{"method": "proof", "name": f"{r['pattern']}", "status": "none",
                 "detail": "proofs.json names no goals (an older gate): nothing is credited"}
                for r in mine if r["credit"]]
    e = listed.get(rid, {"rows": [], "unlisted": []})
    items = []
    for r in e["rows"]:
        st = r["status"] if r["credit"] or r["status"] == "fail" else "cited"
        det = r["detail"] + ("" if r["credit"] else f"; not credited: {r['why']}")
        items.append({"method": "proof", "name": r["pattern"], "status": st, "detail": det,
                      "credit": r["credit"], "goals": len(r["goals"])})
    if e["unlisted"]:
        n = len(e["unlisted"])
        items.append({"method": "proof", "name": f"{n} unlisted goal(s) citing {rid}",
                      "status": "unlisted", "goals": n,
                      "detail": "no credit: list or rename in " + goalsmod.LIST + ": "
                                + ", ".join(e["unlisted"][:4]) + (" …" if n > 4 else "")})
    return items


def _support(x):
    """A passing item that supports the requirement: an expected failure (a model run expected
    to violate, a test recorded by t_run_fail) that passes shows the check able to fail, not
    that the requirement holds, whatever the method."""
    return x["status"] == "pass" and not x.get("xfail")


def _method_status(m, its):
    if any(x["status"] == "fail" for x in its):
        return "fail"  # an expected failure that did not fail is a failure too
    return "pass" if any(_support(x) for x in its) else "none"


def _req_status(methods, by, items):
    if any(by[m] == "fail" for m in by):
        return "failed"
    if methods:
        ok = [m for m in methods if by[m] == "pass"]
        if len(ok) == len(methods):
            return "verified"
        return "partial" if ok else "none"
    return "verified" if any(_support(x) for x in items) else "none"


# ---- trails ---------------------------------------------------------------------------------

def timelines(root, build, model, promela="promela", steps="spec/refinement.yml"):
    """One timeline per run that has a trail (every counterexample)."""
    src = trailmod.Sources(root, promela, steps)
    out, probs = [], []
    for run in model or []:
        t = run.get("trail")
        if not t:
            if run.get("result") == "violate":
                probs.append(f"model run {_run_label(run)}: violation without a trail")
            continue
        path = next((p for p in (t, os.path.join(root, t), os.path.join(build, "evidence", t),
                                 os.path.join(build, "evidence", "trails", os.path.basename(t)))
                     if os.path.isfile(p)), None)
        if not path:
            probs.append(f"model run {_run_label(run)}: trail {t} not found")
            out.append({"run": _run_label(run), "trail": t, "missing": True, "steps": [],
                        "group": "litmus" if run.get("kind") == "litmus" else "counterexample"})
            continue
        # a condensed trail (markers only) with the full `spin -t -p` text next to it: read the
        # full one, whose moves tell which primitive each step ran in
        full = path[:-4] + ".full.txt" if path.endswith(".txt") and not path.endswith(".full.txt") else None
        if full and os.path.isfile(full):
            path = full
        with open(path, encoding="utf-8", errors="replace") as f:
            tl = trailmod.parse(f.read(), src, run.get("memory_model") or "sc")
        probe = str(run.get("property", "")).startswith("probe") or str(run.get("name", "")).startswith("probe")
        tl.update({"run": _run_label(run), "trail": os.path.relpath(path, root),
                   "group": "litmus" if run.get("kind") == "litmus" else "probe" if probe else "counterexample",
                   "requirements": run["requirements"], "expected": run.get("expected"),
                   "result": run.get("result"), "memory_model": run.get("memory_model"),
                   "variant": run.get("variant")})
        out.append(tl)
    return out, probs

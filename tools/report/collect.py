"""Load the producers' result files (only fresh ones), join them with the requirements.

Every loader returns (data, problems): a malformed file is reported as a problem and its producer
as "invalid" — never silently dropped, never a crash. Rules for "verified" are in spec/report.md.
"""
import json, os, re

from tools import stamp
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


# ---- proof references -> functions ---------------------------------------------------------

C_KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "else", "case"}
DECL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def _declarator(text):
    head = re.split(r"[;{]", text, maxsplit=1)[0]
    names = [m.group(1) for m in DECL.finditer(head) if m.group(1) not in C_KEYWORDS]
    return names[0] if names else None


def function_of(root, ref):
    """The C function a proof reference `file:line` belongs to: the declaration that follows the
    ACSL contract it stands in, else the function whose body encloses it (loop annotations,
    asserts). None when there is none (a predicate or lemma of acsl/)."""
    path, _, ln = ref.rpartition(":")
    try:
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        i = int(ln) - 1
    except (OSError, ValueError):
        return None
    if not 0 <= i < len(lines):
        return None
    start = None
    for k in range(i, -1, -1):
        if "/*@" in lines[k]:
            start = k
            break
        if "*/" in lines[k] and k != i:
            break
    if start is not None:
        end = next((k for k in range(i, len(lines)) if "*/" in lines[k]), None)
        if end is not None:
            after = lines[end].split("*/", 1)[1]
            nxt = [after] + lines[end + 1:end + 8]
            first = next((l for l in nxt if l.strip()), "")
            if first and not first[0].isspace() or after.strip():
                fn = _declarator("\n".join(nxt))
                if fn:
                    return fn
    for k in range(i, -1, -1):
        l = lines[k]
        if l.startswith("}") and k != i:
            return None  # between functions: a top-level annotation
        if l and (l[0].isalpha() or l[0] == "_") and "(" in l and not l.rstrip().endswith(";") \
                and not l.startswith(("typedef", "struct", "enum", "union")):
            return _declarator(l)
    return None


# ---- the join -------------------------------------------------------------------------------

def cites(rid, text):
    return re.search(re.escape(rid) + r"(?![0-9])", text) is not None


# The mark of an expected failure in a test case's detail: tests/lib.sh's _t_xfail (t_run_fail)
# starts every detail it records with "xfail: "; tools/cross/cross.py, and results recorded
# before that mark existed, start a passing one with "failed as expected: ".
XFAIL_MARKS = ("xfail:", "failed as expected:")


def test_is_xfail(case):
    return str(case.get("detail", "")).lstrip().startswith(XFAIL_MARKS)


def join(root, prod):
    """Requirement -> evidence items with statuses, and each requirement's status."""
    tr = prod["trace"]["data"]
    if tr is None:
        return {}, ["trace.json not available: no requirement table"]
    model = prod["model"]["data"] or []
    proofs = prod["proofs"]["data"]
    tests = list((prod["tests"]["data"] or {}).get("cases", []))
    for t in prod["cross"]["data"] or []:  # per-target cases of cross.json are tests too
        for c in t.get("cases") or []:
            if isinstance(c, dict):
                tests.append({"suite": f"cross/{t['target']}", "name": f"{t['target']}/{c.get('name')}",
                              "status": c.get("status", "fail"), "detail": str(c.get("detail", ""))})
    problems = []
    fn_cache = {}
    assumed = set()
    if proofs:
        for a in proofs.get("assumptions", []):
            assumed.add(a.get("function") if isinstance(a, dict) else str(a).split(":")[0].strip())
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
        items += _proof_items(root, rid, refs.get("proof", []), proofs, assumed, fn_cache,
                              prod["proofs"])
        for c in tests:
            if cites(rid, c["name"]) or cites(rid, c["detail"]):
                items.append({"method": "lint" if "lint" in c["suite"] else "test",
                              "name": c["name"], "suite": c["suite"], "xfail": test_is_xfail(c),
                              "status": {"pass": "pass", "skip": "skip"}.get(c["status"], "fail"),
                              "detail": c["detail"][:200]})
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
    return reqs, problems


def _req_key(rid):
    p = rid.split("-")
    return (p[-2] if len(p) > 2 else "", int(p[-1]) if p[-1].isdigit() else 0)


def _run_label(run):
    c = run.get("config") or {}
    size = "".join(f"{k[0]}{c[k]}" for k in ("cpus", "lines", "arrivals", "sharers") if k in c)
    bits = [run.get("name"), run.get("variant"), run.get("memory_model"), size, run.get("property")]
    return " ".join(str(b) for b in bits if b)


def _proof_items(root, rid, refs, proofs, assumed, cache, freshness):
    items = []
    if not refs and not (proofs and rid in (proofs.get("requirements") or {})):
        return items
    if proofs is None:
        return [{"method": "proof", "name": ref, "status": "none",
                 "detail": f"proof results {freshness['status']}"} for ref in refs]
    preq = proofs.get("requirements")
    if isinstance(preq, dict) and isinstance(preq.get(rid), dict):
        # the gate counts the goals of every property that cites the ID: authoritative
        q = preq[rid]
        tot, pr = q.get("total", 0), q.get("proved", 0)
        ok = _is_number(tot) and tot > 0 and pr == tot
        return [{"method": "proof", "name": f"goals citing {rid}", "status": "pass" if ok else "fail",
                 "detail": f"{pr}/{tot} goals proved"}]
    funcs = proofs.get("functions", {})
    seen = set()
    # functions that declare the requirement themselves (optional field in proofs.json)
    for fn, f in sorted(funcs.items()):
        if isinstance(f, dict) and rid in (f.get("requirements") or []):
            seen.add(fn)
    for ref in refs:
        if ref not in cache:
            cache[ref] = function_of(root, ref)
        fn = cache[ref]
        if fn in funcs:
            seen.add(fn)
        elif fn in assumed:
            items.append({"method": "proof", "name": f"{fn} ({ref})", "status": "assumed",
                          "detail": "contract assumed (trusted base), not proved"})
        else:
            glob = proofs["total"] > 0 and proofs["proved"] == proofs["total"]
            items.append({"method": "proof", "name": ref, "status": "pass" if glob else "fail",
                          "detail": ("not a function goal; every goal of the run proved"
                                     if glob else "not a function goal; the run has unproved goals")
                                    + (f" (nearest function: {fn})" if fn else "")})
    for fn in sorted(seen):
        f = funcs[fn] if isinstance(funcs[fn], dict) else {}
        tot, pr = f.get("total", 0), f.get("proved", 0)
        ok = _is_number(tot) and tot > 0 and pr == tot
        items.append({"method": "proof", "name": fn, "status": "pass" if ok else "fail",
                      "detail": f"{pr}/{tot} goals proved"})
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

def timelines(root, build, model, promela="promela", steps="spec/steps.md"):
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

#!/usr/bin/env python3
"""Checks used by tests/suites/90-report.sh (each prints what it compared; exit 1 on a mismatch).

  check_report.py page EVIDENCE.json PAGE.html     every verdict number on the page (by id)
                                                   equals evidence.json; works on chromium's
                                                   --dump-dom output as on the written file
  check_report.py fixture EVIDENCE.json            the fixture results give the numbers the rules
                                                   of spec/report.md say they must
  check_report.py junit EVIDENCE.json JUNIT.xml    junit counts equal evidence.json
  check_report.py same A.json B.json               equal apart from times (date, seconds, …)
  check_report.py timeline EVIDENCE.json RUN-SUBSTRING EXPECTED
                                                   the timeline of that run, as a compact string
                                                   "cpu:STEP/effect …", equals EXPECTED
  check_report.py status EVIDENCE.json PRODUCER STATUS   producer freshness is STATUS
  check_report.py green SRC DST [REQ ...]          all-good copies of the fixture results, with a
                                                   trace.json of the requirements they verify (plus
                                                   each REQ given, to make one not verified)
  check_report.py credit EVIDENCE.json             proof credit only through spec/proof-goals.md:
                                                   a goal citing FIX-DISPATCH-1 but not listed
                                                   gives no credit and is flagged; a `no:` row
                                                   gives none either; a listed goal does
  check_report.py groups EVIDENCE.json             a passing case of the proof group citing
                                                   FIX-ERR-1 is no test item of it
  check_report.py stale EVIDENCE.json REQ PATTERN  a row of the list matching no goal fails REQ
  check_report.py hostile SRC.json DST.json        SRC (a results/summary.json) with a failing case
                                                   whose name and detail hold markup
  check_report.py escaped EVIDENCE.json PAGE.html  that case is on the page as text, verbatim, and
                                                   no element of its markup exists (autoescape)
Exit 2 on a usage error.
"""
import argparse, json, sys
from html.parser import HTMLParser
import xml.etree.ElementTree as ET

TIME_KEYS = {"generated", "date", "seconds", "stamped", "time"}


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.stack = {}, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(a.get("id"))
        if a.get("id"):
            self.ids[a["id"]] = ""

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for i in self.stack:
            if i:
                self.ids[i] += data


def load(p):
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def expected_page_numbers(ev):
    v = ev["verdict"]
    want = {}
    def put(cid, d, num, den, extra=(), prod=None):
        if d is None:
            st = ev["producers"][prod]["status"] if prod else "missing"
            want[f"{cid}-state"] = "not run" if st == "missing" else st if st != "fresh" else "invalid"
            return
        want[f"{cid}-num"], want[f"{cid}-den"] = str(d[num]), str(d[den])
        for k, key in extra:
            want[k] = str(d[key])
    put("v-req", v["requirements"], "verified", "total",
        (("v-req-partial", "partial"), ("v-req-failed", "failed"), ("v-req-none", "none")), "trace")
    put("v-goals", v["goals"], "proved", "total", (("v-goals-assumptions", "assumptions"),), "proofs")
    put("v-model", v["model"], "as_expected", "total", (), "model")
    put("v-tests", v["tests"], "passed", "total",
        (("v-tests-failed", "failed"), ("v-tests-skipped", "skipped")), "tests")
    put("v-targets", v["targets"], "ok", "total", (), "cross")
    want["v-fresh-num"], want["v-fresh-den"] = str(v["fresh"]), str(v["producers"])
    return want


def page(evp, htmlp):
    ev = load(evp)
    p = Ids()
    with open(htmlp, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    bad = 0
    for k, want in expected_page_numbers(ev).items():
        got = " ".join(p.ids.get(k, "<absent>").split())
        ok = got == want
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {k}: page {got!r}, evidence.json {want!r}")
    # every requirement has a row, with its status
    for rid, r in (ev["requirements"] or {}).items():
        if f"req-{rid}" not in p.ids:
            print(f"BAD requirement {rid} has no row")
            bad += 1
    for n, pr in ev["producers"].items():
        if pr["status"] not in p.ids.get(f"prod-{n}", ""):
            print(f"BAD producer {n}: status {pr['status']} not on its row")
            bad += 1
    print(f"{len(expected_page_numbers(ev))} numbers and {len(ev['requirements'] or {})} rows compared")
    return 1 if bad else 0


FIXTURE = {  # what the fixture results must give (see tests/report/fixtures/ and spec/report.md)
    # FIX-MM-2 is cited only by an expected violation (the SB litmus): shown able to fail, no support;
    # FIX-DISPATCH-1 only by a goal spec/proof-goals.md does not list: no evidence (it was
    # "failed" when the report credited every goal of a function a proof reference falls in)
    "requirements": {"verified": 1, "partial": 1, "failed": 2, "none": 4, "total": 8},
    "goals": {"proved": 19, "total": 20, "unproved": 1, "assumptions": 1},
    "model": {"as_expected": 3, "total": 4, "protocol": 3, "litmus": 1, "expected_violations": 2},
    "tests": {"passed": 4, "failed": 1, "skipped": 1, "total": 6},
    "targets": {"ok": 1, "total": 2},
}
FIXTURE_REQS = {"FIX-SYNC-1": "verified", "FIX-MM-2": "none", "FIX-LOCK-1": "partial",
                "FIX-SYNC-2": "failed", "FIX-DISPATCH-1": "none", "FIX-TCB-1": "none",
                "FIX-ERR-1": "none", "FIX-IMPL-2": "failed"}


def fixture(evp):
    ev = load(evp)
    bad = 0
    for k, want in FIXTURE.items():
        got = ev["verdict"][k]
        ok = got == want
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {k}: {got} (want {want})")
    for rid, want in FIXTURE_REQS.items():
        got = ev["requirements"].get(rid, {}).get("status")
        bad += got != want
        print(f"{'ok ' if got == want else 'BAD'} {rid}: {got} (want {want})")
    return 1 if bad else 0


def junit(evp, xp):
    ev = load(evp)
    root = ET.parse(xp).getroot()
    got = {s.get("name"): len(list(s)) for s in root}
    v = ev["verdict"]
    want = {"model": v["model"]["protocol"] if v["model"] else 0,
            "litmus": v["model"]["litmus"] if v["model"] else 0,
            "proofs": len(ev["proofs"]["functions"]) if ev["proofs"] else 0,
            "tests": v["tests"]["total"] if v["tests"] else 0,
            "cross": v["targets"]["total"] if v["targets"] else 0,
            "requirements": v["requirements"]["total"] if v["requirements"] else 0,
            "evidence": v["producers"]}
    bad = 0
    for k, w in want.items():
        bad += got.get(k) != w
        print(f"{'ok ' if got.get(k) == w else 'BAD'} junit suite {k}: {got.get(k)} cases (want {w})")
    fails = sum(1 for s in root.iter("testcase") if s.find("failure") is not None)
    print(f"junit: {sum(got.values())} cases, {fails} failures")
    return 1 if bad else 0


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in TIME_KEYS}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def same(a, b):
    A, B = strip(load(a)), strip(load(b))
    if A == B:
        print("identical apart from times")
        return 0
    for k in sorted(set(A) | set(B)):
        if A.get(k) != B.get(k):
            print(f"differs in {k}")
    return 1


def compact(tl):
    out = []
    for s in tl["steps"]:
        if s["kind"] == "step":
            out.append(f"{s['cpu']}:{s['step']}/{s.get('effect')}")
        elif s["kind"] in ("flush", "enter"):
            out.append(f"{s['cpu']}:{s['step']}/{s['kind']}")
        elif s["kind"] == "error":
            out.append("ERROR")
    return " ".join(out)


def timeline(evp, sub, want):
    ev = load(evp)
    tls = [t for t in ev["timelines"] if sub in t["run"] or sub in t.get("trail", "")]
    if len(tls) != 1:
        print(f"BAD: {len(tls)} timelines match {sub!r}")
        return 1
    got = compact(tls[0])
    print(f"got:  {got}\nwant: {want}")
    return 0 if got == want else 1


def status(evp, name, want):
    got = load(evp)["producers"][name]
    print(f"{name}: {got['status']} ({got['reason']})")
    return 0 if got["status"] == want else 1


def _say(ok, msg):
    print(f"{'ok ' if ok else 'BAD'} {msg}")
    return 0 if ok else 1


def credit(evp):
    """Proof credit comes only from rows of spec/proof-goals.md (spec/report.md §2)."""
    r = load(evp)["requirements"]
    bad = 0
    d = r["FIX-DISPATCH-1"]
    st = d["method_status"].get("proof")
    bad += _say(st == "none", f"FIX-DISPATCH-1: proof {st} (want none: its one goal is not listed)")
    un = [x for x in d["items"] if x["method"] == "proof" and x["status"] == "unlisted"]
    bad += _say(len(un) == 1 and "handle_irq:handle_irq_ensures_FIX_DISPATCH_1_locked" in un[0]["detail"],
                f"FIX-DISPATCH-1: flagged as unlisted, naming the goal ({[x['detail'] for x in un]})")
    s2 = r["FIX-SYNC-2"]
    cited = [x for x in s2["items"] if x["method"] == "proof"]
    bad += _say(s2["method_status"].get("proof", "none") == "none" and len(cited) == 1
                and cited[0]["status"] == "cited",
                f"FIX-SYNC-2: its `no:` row shown as cited, no credit "
                f"(proof {s2['method_status'].get('proof', 'none')}, items {[x['status'] for x in cited]})")
    st = r["FIX-SYNC-1"]["method_status"].get("proof")
    bad += _say(st == "pass", f"FIX-SYNC-1: proof {st} (want pass: its goal is listed and proved)")
    pl = load(evp)["proof_list"]
    bad += _say(pl["unlisted"] == {"FIX-DISPATCH-1": ["handle_irq:handle_irq_ensures_FIX_DISPATCH_1_locked"]}
                and pl["stale"] == [], f"proof_list: unlisted {pl['unlisted']}, stale {pl['stale']}")
    return 1 if bad else 0


def groups(evp):
    """A passing case of the proof group is not a test item (spec/report.md §2)."""
    e = load(evp)["requirements"]["FIX-ERR-1"]
    its = [x for x in e["items"] if "core-all-goals-proved" in x["name"]]
    st = e["method_status"].get("test")
    bad = _say(st == "none", f"FIX-ERR-1: test {st} (want none: only a proof-group case cites it)")
    bad += _say(len(its) == 1 and its[0]["status"] == "cited" and its[0]["method"] == "proof",
                f"FIX-ERR-1: the proof-group case is shown as cited ({[(x['method'], x['status']) for x in its]})")
    return 1 if bad else 0


def stale(evp, rid, pattern):
    ev = load(evp)
    r = ev["requirements"][rid]
    its = [x for x in r["items"] if x["method"] == "proof" and x["name"] == pattern]
    bad = _say(r["status"] == "failed" and its and its[0]["status"] == "fail"
               and its[0]["detail"].startswith("stale"),
               f"{rid}: {r['status']}, row {pattern}: {[(x['status'], x['detail']) for x in its]}")
    bad += _say(any(s.startswith(f"{rid} {pattern} ") for s in ev["proof_list"]["stale"]),
                f"proof_list.stale: {ev['proof_list']['stale']}")
    return 1 if bad else 0


# A case whose name and detail hold markup: a script, elements with ids, an entity, a bare &,
# a comment that would close the table. The report's templates autoescape; the page must show
# these strings as they are and contain none of their elements.
HOSTILE_NAME = 'unit/hostile <script>alert("name")</script> & <b id="injected-name">b</b> [FIX-SYNC-1]'
HOSTILE_DETAIL = "<img src=x id='injected-detail'> &amp; a&b <!-- </td></tr></table> -->"
INJECTED = ("script", "img")


def hostile(src, dst):
    t = load(src)
    t["suites"][0]["cases"].append({"status": "fail", "name": HOSTILE_NAME, "seconds": 0,
                                    "detail": HOSTILE_DETAIL})
    with open(dst, "w") as f:
        json.dump(t, f, indent=1)
    print(f"{dst}: {src} with the case {HOSTILE_NAME!r}")
    return 0


class Elements(HTMLParser):
    """Every element (tag, id) of a page, its comments, and its text as one string."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.comments, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs).get("id") or ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data):
        self.comments.append(data)

    def handle_data(self, data):
        self.text.append(data)


def escaped(evp, htmlp):
    ev = load(evp)
    cases = [c for c in (ev["tests"] or {}).get("cases", []) if c["name"] == HOSTILE_NAME]
    bad = _say(len(cases) == 1 and cases[0]["detail"] == HOSTILE_DETAIL,
               f"evidence.json holds the hostile case ({len(cases)} found)")
    p = Elements()
    with open(htmlp, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    text = "".join(p.text)
    for tag in INJECTED:
        n = sum(t == tag for t, _ in p.elements)
        bad += _say(n == 0, f"<{tag}> elements on the page: {n}")
    ids = [i for _, i in p.elements if "injected" in i]
    bad += _say(not ids, f"elements with an injected id: {ids}")
    bad += _say(not p.comments, f"comments on the page: {p.comments}")
    n = text.count(HOSTILE_NAME)
    bad += _say(n >= 2, f"the name shown verbatim as text {n} times (failed list, all cases, matrix)")
    n = text.count(HOSTILE_DETAIL)
    bad += _say(n >= 1, f"the detail shown verbatim as text {n} times")
    return 1 if bad else 0


def green(src, dst, *extra):
    """Write all-good versions of the fixture results of SRC into DST (for the summary's exit
    status): every goal proved, every test passing, every run as expected, every target ok, and
    a trace.json of the requirements these results verify (FIX-SYNC-1, FIX-SYNC-2), plus each
    requirement of `extra` (which then is not verified)."""
    import os, shutil
    m = load(f"{src}/model.json")
    for r in m:
        r.update(result=r["expected"], exhaustive=True)
    p = load(f"{src}/proofs.json")
    p["proved"], p["unproved"] = p["total"], []
    for f in p["functions"].values():
        f["proved"] = f["total"]
    for g in p["goals"].values():
        g[0] = g[1]
    t = load(f"{src}/summary.json")
    for su in t["suites"]:
        su["cases"] = [dict(c, status="pass") for c in su["cases"]]
    c = load(f"{src}/cross.json")
    for x in c:
        x.update(failed=0, barrier={"passed": True, "relaxed_build_rejected": True})
    os.makedirs(dst, exist_ok=True)
    tr = load(f"{src}/trace.json")
    tr["requirements"] = {k: v for k, v in tr["requirements"].items()
                          if k in ("FIX-SYNC-1", "FIX-SYNC-2") + extra}
    for name, d in (("model.json", m), ("proofs.json", p), ("summary.json", t), ("cross.json", c),
                    ("trace.json", tr)):
        with open(f"{dst}/{name}", "w") as f:
            json.dump(d, f)
    shutil.copytree(f"{src}/trails", f"{dst}/trails", dirs_exist_ok=True)
    print(f"green fixture results in {dst}")
    return 0


def parser():
    ap = argparse.ArgumentParser(prog="check_report.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="CHECK")
    ev = ("evidence", dict(metavar="EVIDENCE.json", help="the report's evidence.json"))
    page_ = ("page", dict(metavar="PAGE.html", help="the report's page (the written index.html "
                                                     "or chromium's --dump-dom output)"))
    checks = {  # name: (function, help, its arguments in order)
        "page": (page, "every verdict number on the page (by id) equals evidence.json", [ev, page_]),
        "fixture": (fixture, "the fixture results give the numbers spec/report.md says", [ev]),
        "junit": (junit, "junit.xml's counts equal evidence.json",
                  [ev, ("xml", dict(metavar="JUNIT.xml", help="the report's junit.xml"))]),
        "same": (same, "A and B are equal apart from times (date, seconds, ...)",
                 [("a", dict(metavar="A.json", help="one evidence.json")),
                  ("b", dict(metavar="B.json", help="the other"))]),
        "timeline": (timeline, "the timeline of a run, as \"cpu:STEP/effect ...\", equals EXPECTED",
                     [ev, ("sub", dict(metavar="RUN-SUBSTRING",
                                       help="a substring of the run's name or trail file")),
                      ("want", dict(metavar="EXPECTED", help="the compact timeline wanted"))]),
        "status": (status, "the producer's freshness is STATUS",
                   [ev, ("name", dict(metavar="PRODUCER", help="a producer (tools/stamp.py)")),
                    ("want", dict(metavar="STATUS", help="fresh, stale, unstamped, failed, "
                                                         "missing or invalid"))]),
        "green": (green, "all-good copies of the fixture results, with their trace.json",
                  [("src", dict(metavar="SRC", help="the fixture results "
                                                    "(tests/report/fixtures/results)")),
                   ("dst", dict(metavar="DST", help="where to write the copies")),
                   ("reqs", dict(metavar="REQ", nargs="*",
                                 help="a requirement added to trace.json, not verified"))]),
        "credit": (credit, "proof credit only through spec/proof-goals.md", [ev]),
        "groups": (groups, "a passing case of the proof group is no test item", [ev]),
        "stale": (stale, "a row of the goal list matching no goal fails REQ",
                  [ev, ("rid", dict(metavar="REQ", help="the requirement of the row")),
                   ("pattern", dict(metavar="PATTERN", help="the row's `function:goal`"))]),
        "hostile": (hostile, "DST = SRC plus a failing case whose name and detail hold markup",
                    [("src", dict(metavar="SRC.json", help="a results/summary.json")),
                     ("dst", dict(metavar="DST.json", help="where to write the copy"))]),
        "escaped": (escaped, "the hostile case is on the page as text, none of its elements",
                    [ev, page_]),
    }
    for name, (fn, hlp, args) in checks.items():
        p = sub.add_parser(name, help=hlp, description=hlp)
        for dest, kw in args:
            p.add_argument(dest, **kw)
        p.set_defaults(fn=fn, args=[dest for dest, _ in args])
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    pos = []
    for d in a.args:   # in order; a list (green's REQ ...) is spread
        v = getattr(a, d)
        pos += v if isinstance(v, list) else [v]
    return a.fn(*pos)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Expected failures are never support (spec/report.md §2); used by tests/suites/90-report.sh.

  check_xfail.py add SUMMARY.json SUITE TSV OUT.json
                                                 OUT = SUMMARY plus the cases of TSV (a suite's
                                                 $RESULTS, as tests/lib.sh writes it) as suite
                                                 SUITE (read the way tools/runtests.py reads them)
  check_xfail.py strip SUMMARY.json OUT.json     OUT = SUMMARY with the expected-failure marks
                                                 removed from the details (the known-bad variant)
  check_xfail.py verdict EVIDENCE.json PAGE.html the requirements the expected failures cite get
                                                 no support from them, and the page lists them
                                                 under "shown able to fail"
Exit 0 when the check holds (add and strip: when OUT was written), 1 when it does not, 2 on a
usage error.
"""
import argparse, json, re, sys

# requirement -> (method the expected failure is run by, that method's status, the requirement's)
WANT = {"FIX-ERR-1": ("test", "none", "none"),      # cited by a t_run_fail case only
        "FIX-LOCK-1": ("lint", "none", "partial"),  # lint leg: an old-style "failed as expected"
        "FIX-MM-2": ("model", "none", "none")}      # a model run expected to violate


def load(p):
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def dump(d, p):
    with open(p, "w", encoding="utf-8") as f:
        json.dump(d, f, indent=1)


def add(summary, suite, tsv, out):
    d = load(summary)
    cases = []
    with open(tsv, encoding="utf-8") as f:
        for line in f:
            st, name, sec, detail = (line.rstrip("\n").split("\t") + [""] * 4)[:4]
            cases.append({"status": st, "name": name, "seconds": float(sec or 0), "detail": detail})
    d["suites"].append({"suite": suite, "seconds": 0, "cases": cases})
    dump(d, out)
    print(f"{len(cases)} cases added: " + "; ".join(f"{c['status']} {c['name']}: {c['detail']}" for c in cases))
    return 0


def strip(summary, out):
    d = load(summary)
    for s in d["suites"]:
        for c in s["cases"]:
            c["detail"] = re.sub(r"^(xfail: )?(failed as expected: )?", "", c["detail"])
    dump(d, out)
    return 0


def verdict(evp, pagep):
    ev = load(evp)
    with open(pagep, encoding="utf-8") as f:
        page = f.read()
    bad = 0
    for rid, (m, mst, rst) in WANT.items():
        r = ev["requirements"][rid]
        got = (r["method_status"].get(m), r["status"], r.get("shown_able_to_fail", {}).get(m, 0))
        ok = got == (mst, rst, 1)
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {rid}: {m} {got[0]}, requirement {got[1]}, "
              f"shown able to fail by {got[2]} {m} item(s) (want {m} {mst}, requirement {rst}, 1)")
        cell = re.search(rf'<td id="xfail-{re.escape(rid)}">(.*?)</td>', page, re.S)
        if not cell or f"1 {m}" not in cell.group(1):
            print(f"BAD {rid}: the page's shown-able-to-fail cell lacks its {m} item")
            bad += 1
    return 1 if bad else 0


def parser():
    ap = argparse.ArgumentParser(prog="check_xfail.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="CHECK")
    summ = dict(metavar="SUMMARY.json", help="a results/summary.json (tools/runtests.py writes it)")

    p = sub.add_parser("add", help="OUT = SUMMARY plus the cases of TSV as suite SUITE")
    p.add_argument("summary", **summ)
    p.add_argument("suite", metavar="SUITE", help="the name of the suite the cases are added as")
    p.add_argument("tsv", metavar="TSV", help="a suite's $RESULTS file, as tests/lib.sh writes it "
                                              "(status, name, seconds, detail; tab-separated)")
    p.add_argument("out", metavar="OUT.json", help="where to write the extended summary")

    p = sub.add_parser("strip", help="OUT = SUMMARY with the expected-failure marks removed")
    p.add_argument("summary", **summ)
    p.add_argument("out", metavar="OUT.json", help="where to write the unmarked summary")

    p = sub.add_parser("verdict", help="the expected failures give their requirements no support, "
                                       "and the page lists them as shown able to fail")
    p.add_argument("evidence", metavar="EVIDENCE.json", help="the report's evidence.json")
    p.add_argument("page", metavar="PAGE.html", help="the report's page (index.html)")
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    if a.cmd == "add":
        return add(a.summary, a.suite, a.tsv, a.out)
    if a.cmd == "strip":
        return strip(a.summary, a.out)
    return verdict(a.evidence, a.page)


if __name__ == "__main__":
    sys.exit(main())

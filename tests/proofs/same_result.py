#!/usr/bin/env python3
"""same_result.py A.json B.json — two proofs.json files give the same proof: the same units
and keys, the same goals per function and requirement, the same verdicts and assumptions.
Timing, provers' shares and the reused/proved-now marks may differ.

Exit status 0 when they agree, 1 naming the fields that differ, 2 on a usage error."""
import argparse, json, sys

SAME = ["total", "proved", "unproved", "functions", "requirements", "assumptions", "smoke",
        "problems"]


def differences(a, b):
    """The fields of SAME (and "units/keys") in which proofs.json a and b differ."""
    bad = [k for k in SAME if a.get(k) != b.get(k)]
    ka = {f: u["key"] for f, u in a["units"].items()}
    kb = {f: u["key"] for f, u in b["units"].items()}
    if ka != kb:
        bad.append("units/keys")
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(prog="same_result.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", metavar="A.json", help="one proofs.json (e.g. build/proofs/unsharded.json)")
    ap.add_argument("b", metavar="B.json", help="the other (e.g. build/evidence/proofs.json)")
    args = ap.parse_args(argv)
    with open(args.a) as fa, open(args.b) as fb:
        a, b = json.load(fa), json.load(fb)
    bad = differences(a, b)
    if bad:
        sys.exit(f"results differ in: {bad}")
    print(f"same result: {a['proved']}/{a['total']} goals, {len(a['units'])} units, "
          f"shards {b.get('shards')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

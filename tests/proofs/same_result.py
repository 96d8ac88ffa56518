#!/usr/bin/env python3
"""same_result.py A.json B.json — two proofs.json files give the same proof: the same units
and keys, the same goals per function and requirement, the same verdicts and assumptions.
Timing, provers' shares and the reused/proved-now marks may differ."""
import json, sys

a, b = (json.load(open(p)) for p in sys.argv[1:3])
same = ["total", "proved", "unproved", "functions", "requirements", "assumptions", "smoke",
        "problems"]
bad = [k for k in same if a.get(k) != b.get(k)]
ka = {f: u["key"] for f, u in a["units"].items()}
kb = {f: u["key"] for f, u in b["units"].items()}
if ka != kb:
    bad.append("units/keys")
if bad:
    sys.exit(f"results differ in: {bad}")
print(f"same result: {a['proved']}/{a['total']} goals, {len(ka)} units, shards {b.get('shards')}")

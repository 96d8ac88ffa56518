"""The one-screen summary at the end of `make`: python3 -m tools.summary [EVIDENCE_DIR]

Reads EVIDENCE_DIR/evidence.json (written by `make report`). Exit status 1 when any line of the
summary does not say ok: a producer failed or its result is not fresh or missing (NOT RUN), a
requirement is not verified (partial, failed or without evidence), a goal is unproved, a row of
spec/proof-goals.md is stale, a model run, a test or a cross target did not go as expected;
0 otherwise, so `make` never prints FAIL and exits 0; 2 when there is no evidence.json.
"""
import json, os, sys

from tools.report import summary

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "build/evidence"
    try:
        with open(os.path.join(out, "evidence.json"), encoding="utf-8") as f:
            ev = json.load(f)
    except (OSError, ValueError) as e:
        print(f"summary: no report in {out} ({e}); run `make report`", file=sys.stderr)
        sys.exit(2)
    summary.print_summary(ev, out)
    sys.exit(0 if summary.all_good(ev) else 1)

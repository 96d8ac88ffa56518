"""The one-screen summary at the end of `make`: python3 -m tools.summary [EVIDENCE_DIR]

Reads EVIDENCE_DIR/evidence.json (written by `make report`). Exit status 1 when any line of the
summary does not say ok: a producer failed or its result is not fresh or missing (NOT RUN), a
requirement is not verified (partial, failed or without evidence), a goal is unproved, a row of
spec/proof-goals.md is stale, a model run, a test or a cross target did not go as expected;
0 otherwise, so `make` never prints FAIL and exits 0; 2 when there is no evidence.json.
"""
import argparse, json, os, sys

from tools.report import summary


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.summary", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", metavar="EVIDENCE_DIR", nargs="?", default="build/evidence",
                    help="the directory holding evidence.json (default: build/evidence)")
    out = ap.parse_args(argv).out
    try:
        with open(os.path.join(out, "evidence.json"), encoding="utf-8") as f:
            ev = json.load(f)
    except (OSError, ValueError) as e:
        print(f"summary: no report in {out} ({e}); run `make report`", file=sys.stderr)
        return 2
    summary.print_summary(ev, out)
    return 0 if summary.all_good(ev) else 1


if __name__ == "__main__":
    sys.exit(main())

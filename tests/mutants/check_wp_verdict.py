#!/usr/bin/env python3
"""The WP verdict of the mutation campaign on known inputs (tools/mutants/campaign.py wp_verdict):
a kill is a failure of the gate named by its goal; a tool failure, a missing result or the time
limit is an error; a passing run is a survival. Used by tests/suites/85-mutants.sh.

  check_wp_verdict.py [--classifier campaign|exit-status]
      exit-status is the known-bad rule (any non-zero exit of make prove is a kill): it must
      fail this check, on the tool-failure cases.
Exit 0 when every case gets its verdict, 1 when one does not, 2 on a usage error.
"""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tools.mutants import campaign  # noqa: E402

PASSED = {"total": 10, "proved": 10, "unproved": [], "problems": [],
          "units": {"f": {"source": "proved"}, "g": {"source": "reused"}}}
UNPROVED = dict(PASSED, proved=9, unproved=["handle_irq:irqsync_status_update_requires_REQ_DISPATCH_1"])
SMOKE = dict(PASSED, unproved=["smoke:handle_irq:handle_irq_wp_smoke_default_requires"])
TOOL = dict(PASSED, problems=["unit handle_irq: frama-c failed (exit 2); log: build/proofs/units/handle_irq/gate.log"])
INVALID = dict(PASSED, problems=["property handle_irq:ensures at src/core/handle.c:40 is not Valid in unit handle_irq (proved)"])

# name: (rc, output, proofs.json or None, want result, want in evidence)
CASES = {
    "passes": (0, "prove: PASSED", PASSED, "survived", "10/10 goals proved, 1 units proved again (f)"),
    "unproved-goal": (1, "prove: FAILED", UNPROVED, "killed",
                      "unproved handle_irq:irqsync_status_update_requires_REQ_DISPATCH_1"),
    "smoke-test": (1, "prove: FAILED", SMOKE, "killed",
                   "smoke test failed handle_irq:handle_irq_wp_smoke_default_requires"),
    "property-not-valid": (1, "prove: FAILED", INVALID, "killed", "gate: property handle_irq:ensures"),
    "tool-crash": (1, "prove: FAILED", TOOL, "error", "tool failure: unit handle_irq: frama-c failed"),
    "no-result": (2, "units: frama-c failed (exit 1); log: x", None, "error",
                  "no proofs.json (the gate did not finish): units: frama-c failed"),
    "timeout": (124, "prove: handle_irq ...\nTIMEOUT after 3600 s", None, "error", "time limit"),
    "missing-file": (2, "make: *** No rule to make target 'proofs/core.c'.  Stop.", None, "error",
                     "No rule to make target"),
}


def exit_status_rule(rc, out, proofs):
    """The known-bad rule: any failing `make prove` kills the mutant."""
    return ("killed", out.strip().splitlines()[-1]) if rc else ("survived", "every goal proved")


RULES = {"campaign": campaign.wp_verdict, "exit-status": exit_status_rule}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="check_wp_verdict.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classifier", choices=list(RULES), default="campaign",
                    help="the rule checked: campaign (tools/mutants/campaign.py wp_verdict, the "
                         "default) or exit-status (the known-bad rule, which must fail)")
    rule = RULES[ap.parse_args(argv).classifier]
    bad = 0
    for name, (rc, out, proofs, want, evidence) in CASES.items():
        got, detail = rule(rc, out, proofs)
        ok = got == want and evidence in detail
        bad += not ok
        print(f"{'ok ' if ok else 'BAD'} {name}: {got} ({detail}) (want {want}, with {evidence!r})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

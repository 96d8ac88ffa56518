#!/usr/bin/env python3
"""make bench-prove (part of make bench): how long the proofs and the tests take on this machine,
measured in a fresh clone of the committed HEAD (build/bench/prove-clone), against the goals of
issue 13.  Writes build/evidence/bench-prove.json: a list of {name, unit, value, goal, goal_met,
command, detail}.

  fresh        make prove in the fresh clone, nothing changed (every unit reused)
  one-body     one function body changed (irqs_disabled), make prove again
  worst-unit   the largest unit (most goals) proved again with no prover cache at all
  cold         PROVE_REUSE=none: every unit proved again (prover cache seeded as on a fresh clone)
  cold-nocache PROVE_REUSE=none PROVE_CACHE=none: every unit and every prover from nothing
  proof-group  make check SUITES=50-proof
  check        make check, the whole suite

BENCH_PROVE_SKIP="cold-nocache check" leaves rows out: each keeps its last measurement from
bench-prove.json, which names the commit it measured, or is reported as skipped (never as met).
The check row runs make deps first (untimed), then make check, as .ci/run does.
"""
import argparse, json, os, shutil, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", "build")
EVID = os.path.join(ROOT, BUILD, "evidence")
CLONE = os.path.join(ROOT, BUILD, "bench", "prove-clone")
SKIP = set(os.environ.get("BENCH_PROVE_SKIP", "").split())
GOALS = {"fresh": 60, "one-body": 180, "cold": 720, "proof-group": 180, "check": 900}


def sh(cmd, log):
    t0 = time.time()
    with open(log, "w") as f:
        rc = subprocess.call(cmd, shell=True, cwd=CLONE, stdout=f, stderr=subprocess.STDOUT)
    return rc, round(time.time() - t0, 1)


def units_now():
    d = json.load(open(os.path.join(CLONE, "build/evidence/proofs.json")))
    return sorted(f for f, u in d["units"].items() if u["source"] != "reused"), d


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.strip().split("\n")[0],
                            epilog="settings come from the environment: BUILD, BENCH_PROVE_SKIP (rows to leave out)").parse_args(argv)
    if os.path.exists(CLONE):
        shutil.rmtree(CLONE)
    os.makedirs(os.path.dirname(CLONE), exist_ok=True)
    subprocess.check_call(["git", "clone", "-q", ROOT, CLONE])
    head = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=CLONE,
                                   text=True).strip()
    logs = os.path.join(ROOT, BUILD, "bench", "prove-logs")
    os.makedirs(logs, exist_ok=True)
    rows = []

    # a skipped row keeps its last measurement, which names the commit it measured
    try:
        before = {r["name"]: r for r in json.load(open(os.path.join(EVID, "bench-prove.json")))}
    except (OSError, ValueError):
        before = {}

    def row(name, label, cmd, check=None):
        if name in SKIP:
            old = before.get(label)
            rows.append(old if old and old.get("value") is not None else
                        {"name": label, "unit": "s", "value": None, "goal": GOALS.get(name),
                         "goal_met": None, "command": cmd, "detail": "skipped"})
            return
        rc, dt = sh(cmd, os.path.join(logs, name + ".log"))
        detail = f"exit {rc}" + (f"; {check()}" if check and rc == 0 else "")
        goal = GOALS.get(name)
        rows.append({"name": label, "unit": "s", "value": dt, "goal": goal,
                     "goal_met": (rc == 0 and dt <= goal) if goal else None,
                     "command": cmd, "detail": detail, "commit": head})

    def reused():
        now, d = units_now()
        return f"{len(d['units']) - len(now)} units reused, proved now: {now or 'none'}"

    row("fresh", "make prove, fresh clone, nothing changed", "make -s prove", reused)
    p = os.path.join(CLONE, "src/core/irqflags.c")
    s = open(p).read()
    old = "\treturn irqsync_port_irqs_disabled();\n"
    if old in s:
        open(p, "w").write(s.replace(old, "\tint off = 0;\n\n\toff = irqsync_port_irqs_disabled();"
                                          "\n\treturn off;\n"))
        row("one-body", "make prove, one function body changed (irqs_disabled)",
            "make -s prove", reused)
        open(p, "w").write(s)
    if "worst-unit" in SKIP:     # its label names the unit: keep the last one measured
        old = [r for r in before.values() if r["name"].startswith("make prove, the largest unit")]
        rows.extend(old[:1])
    else:
        _, d = units_now()
        big = max(d["units"], key=lambda f: d["units"][f]["goals"])
        row("worst-unit", f"make prove, the largest unit ({big}, {d['units'][big]['goals']} "
            "goals) proved again without prover cache",
            f"make -s prove PROVE_RERUN={big} PROVE_CACHE=none", reused)
    row("cold", "make prove, cold: every unit proved again (committed prover cache)",
        "make -s prove PROVE_REUSE=none", reused)
    row("cold-nocache", "make prove, every unit and every prover from nothing",
        "make -s prove PROVE_REUSE=none PROVE_CACHE=none", reused)
    row("proof-group", "make check SUITES=50-proof (the proof group)",
        "make -s check SUITES=50-proof")
    # as CI runs it (.ci/run): make deps first (untimed: its lint schema lives in build/deps/),
    # then a plain make check (not -s: examples' cases read the compile lines make echoes)
    if "check" not in SKIP:
        sh("make deps", os.path.join(logs, "check-deps.log"))
    row("check", "make check, the whole suite (fresh clone, after make deps and the rows above)",
        "make check")
    os.makedirs(EVID, exist_ok=True)
    with open(os.path.join(EVID, "bench-prove.json"), "w") as f:
        json.dump(rows, f, indent=1)
    w = max(len(r["name"]) for r in rows)
    for r in rows:
        g = "" if r["goal"] is None else (
            "  goal met" if r["goal_met"] else
            ("  (skipped)" if r["value"] is None else "  GOAL MISSED")) + f" (<= {r['goal']} s)"
        v = "-" if r["value"] is None else f"{r['value']:.1f}"
        print(f"{r['name']:<{w}}  {v:>8} s{g}  [{r['detail']}]")
    print(f"wrote {EVID}/bench-prove.json (clone of {head}; logs in {logs})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

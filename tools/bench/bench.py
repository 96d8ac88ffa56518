#!/usr/bin/env python3
"""make bench: instruction counts (callgrind) and median wall times of the library's hot paths,
stress throughput, and the hardware race rates.  Writes build/evidence/bench.json (a list of
{name, unit, value, baseline, ratio} plus baseline_name, goal, goal_met, command) and
build/evidence/race.json.

Each benchmark compares the shipped library (v2: spin, then locked re-check) with the 2007
original (v0, the unsafe lower bound) and with the naive fix (lock on every spin).  The
programs are built by mk/bench.mk from the same sources as build/lib.
"""
import json, os, re, subprocess, sys, tempfile

BUILD = os.environ.get("BUILD", "build")
B = f"{BUILD}/bench"
T = f"{BUILD}/tests"
EVID = f"{BUILD}/evidence"
N_CG = int(os.environ.get("BENCH_CG_N", "10000"))         # ops per callgrind run
N_WALL = int(os.environ.get("BENCH_WALL_N", "200000"))    # ops per timed repetition
REPS = int(os.environ.get("BENCH_REPS", "11"))            # repetitions; the median is kept
STRESS_N = int(os.environ.get("BENCH_STRESS_N", "1000000"))
RACE_S = os.environ.get("BENCH_RACE_SECONDS", "3")

VARIANTS = {"v2": f"{B}/bench-v2", "v0": f"{B}/bench-v0", "naive": f"{B}/bench-naive"}
OPS = [("sync", "synchronize_irq fast path (no handler running)"),
       ("dispatch", "handle_irq to an empty handler"),
       ("irqsave", "local_irq_save + local_irq_restore pair"),
       ("lock", "spin_lock + spin_unlock, uncontended")]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout


def instructions(binary, op):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        run(["valgrind", "--tool=callgrind", f"--toggle-collect=op_{op}",
             f"--callgrind-out-file={out}", binary, op, str(N_CG)])
        with open(out) as f:
            m = re.search(r"^totals:\s*(\d+)", f.read(), re.M)
    return int(m.group(1)) / N_CG


def wall_ns(binary, op):
    return float(run([binary, "--time", op, str(N_WALL), str(REPS)]).strip())


def stress_rate(binary):
    out = subprocess.run([binary, str(STRESS_N), "600"], capture_output=True, text=True).stdout
    m = re.search(r"^STRESS (\{.*\})$", out, re.M)
    return json.loads(m.group(1)) if m else None


def race(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    if p.returncode == 77:
        return None
    m = re.search(r"^RACE (\{.*\})$", p.stdout, re.M)
    return json.loads(m.group(1)) if m else None


def entry(name, unit, value, base, base_name, cmd, goal=None, goal_met=None):
    e = {"name": name, "unit": unit, "value": round(value, 3), "baseline": round(base, 3),
         "ratio": round(value / base, 3) if base else None, "baseline_name": base_name,
         "command": cmd}
    if goal is not None:
        e["goal"] = goal
        e["goal_met"] = goal_met
    return e


def main():
    res = []
    for op, label in OPS:
        ins = {v: instructions(b, op) for v, b in VARIANTS.items()}
        ns = {v: wall_ns(b, op) for v, b in VARIANTS.items()}
        cg = f"valgrind --tool=callgrind --toggle-collect=op_{op} {B}/bench-<variant> {op} {N_CG}"
        tm = f"{B}/bench-<variant> --time {op} {N_WALL} {REPS}"
        for base in ("v0", "naive"):
            goal = met = None
            if op == "sync" and base == "v0":
                goal, met = "v2 <= 1.5 x v0 instructions", ins["v2"] <= 1.5 * ins["v0"]
            if op == "irqsave" and base == "v0":
                goal, met = "<= 20 instructions per pair", ins["v2"] <= 20
            res.append(entry(f"{label}: instructions, v2 vs {base}", "instructions",
                             ins["v2"], ins[base], base, cg, goal, met))
            res.append(entry(f"{label}: median wall time, v2 vs {base}", "ns",
                             ns["v2"], ns[base], base, tm))
    rates = {v: stress_rate(b) for v, b in
             (("v2", f"{T}/stress"), ("v0", f"{T}/stress-v0"), ("naive", f"{T}/stress-naive"))}
    if all(rates.values()):
        for base in ("v0", "naive"):
            res.append(entry(f"interrupts per second under the stress load (4 CPU threads, "
                             f"{STRESS_N} interrupts), v2 vs {base}", "interrupts/s",
                             rates["v2"]["per_second"], rates[base]["per_second"], base,
                             f"{T}/stress[-{base}] {STRESS_N} 600"))
    os.makedirs(EVID, exist_ok=True)
    with open(f"{EVID}/bench.json", "w") as f:
        json.dump(res, f, indent=1)

    # Hardware race rates (reported, never asserted: they vary 10-50x between runs).
    rr = []
    for v in ("v0", "v1", "v2"):
        for args, mode in ((["--rate", RACE_S], "direct, no driver barrier"),
                           (["--barrier", "--rate", RACE_S], "direct, driver smp_mb"),
                           (["--signals", "--rate", RACE_S], "signals, no driver barrier")):
            r = race(f"{T}/race-{v}", *args)
            if r:
                rr.append({"variant": v, "mode": mode, **r,
                           "command": f"{T}/race-{v} {' '.join(args)}"})
    with open(f"{EVID}/race.json", "w") as f:
        json.dump(rr, f, indent=1)

    w = max(len(x["name"]) for x in res)
    print(f"{'benchmark':<{w}}  {'value':>12} {'baseline':>12} {'ratio':>7}  unit")
    for x in res:
        g = "" if "goal" in x and x["goal_met"] is None else \
            ("" if "goal" not in x else ("  goal met" if x["goal_met"] else "  GOAL MISSED") + f" ({x['goal']})")
        print(f"{x['name']:<{w}}  {x['value']:>12} {x['baseline']:>12} {x['ratio']:>7}  {x['unit']}{g}")
    print("\nrace rounds (violations per million rounds):")
    for x in rr:
        print(f"  {x['variant']} {x['mode']:<28} {x['per_million']:>10} /M  "
              f"({x['violations']} in {x['rounds']} rounds, {x['seconds']} s)")
    print(f"\nwrote {EVID}/bench.json and {EVID}/race.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())

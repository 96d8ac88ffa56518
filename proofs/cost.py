#!/usr/bin/env python3
"""proofs/cost.py — where a proof run's time went, read from the units it proved.

  python3 proofs/cost.py [UNITS_DIR]        (default build/proofs/units; make prove-cost)

Reads each unit that the last make prove (or make prove-cold: build/proofs/cold/units) proved
now: its unit.json (wall seconds, goals, smoke tests) and its frama-c.log (WP's line for each
goal a prover proved, with that prover's own time).  Prints, over all units:

  * the units, their wall seconds summed (the run's wall is about this sum / JOBS),
  * the goals WP made, those Qed closed, and, per prover, the goals it proved and the seconds
    it reported for them,
  * the smoke tests, and what they cost at most: a passing smoke test is one no prover proved,
    so each prover tried spends up to the smoke timeout on it,
  * the rest: the unit wall seconds that no prover reported for a proved goal -- the smoke
    tests, and WP's own work (VC generation, Qed, Why3's encoding) and scheduling.

It decides nothing: it is the measurement behind the proof's settings (spec/proof.md, "The
gate").  A unit without its frama-c.log counts in the totals, with no prover time.
"""
import argparse, glob, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402  (the one reader of WP's goal times: gate.goal_times)

PROVER = re.compile(r"^\[wp\] \[(\w+)[^]]*\] Goal (\S+) : Valid", re.M)
SETTINGS = re.compile(r"-wp-prover (\S+).*?-wp-smoke-timeout (\d+).*?-wp-par (\d+)")


def main(argv):
    ap = argparse.ArgumentParser(prog="proofs/cost.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("units_dir", nargs="?", default="build/proofs/units",
                    help="the units of a proof run (default build/proofs/units)")
    root = ap.parse_args(argv[1:]).units_dir
    units = sorted(glob.glob(os.path.join(root, "*", "unit.json")))
    if not units:
        sys.stderr.write(f"prove-cost: no unit proved now under {root} (make prove first)\n")
        return 2
    wall = goals = qed = smoke = 0
    by, secs, settings = {}, {}, set()
    for uf in units:
        u = json.load(open(uf))
        wall += u["seconds"]
        goals += sum(g["total"] for g in u["goals"])
        qed += sum(g["by"].get("qed", 0) for g in u["goals"])
        smoke += len(u["smoke"])
        log = os.path.join(os.path.dirname(uf), "frama-c.log")
        if not os.path.exists(log):
            continue
        text = open(log).read()
        m = SETTINGS.search(text.splitlines()[0])
        if m:
            settings.add(m.groups())
        times = gate.goal_times(text)
        for m in PROVER.finditer(text):
            if m.group(1) == "Qed" or m.group(2) not in times:
                continue
            by[m.group(1)] = by.get(m.group(1), 0) + 1
            secs[m.group(1)] = secs.get(m.group(1), 0.0) + times[m.group(2)]
    print(f"prove-cost: {len(units)} units proved now ({root}), wall seconds summed: {wall:.0f}")
    for provers, smoke_to, par in sorted(settings):
        print(f"  settings: provers {provers} (in this order when -wp-par is 1: it is {par}), "
              f"smoke timeout {smoke_to} s")
    print(f"  goals: {goals}, Qed alone: {qed}")
    for p in sorted(by):
        print(f"  {p}: proved {by[p]} goals in {secs[p]:.0f} s (its own times)")
    n_prov = max((len(s[0].split(",")) for s in settings), default=1)
    smoke_to = max((int(s[1]) for s in settings), default=0)
    bound = smoke * smoke_to * n_prov
    print(f"  smoke tests: {smoke}, at most {bound} prover-seconds "
          f"({smoke} x {smoke_to} s x {n_prov} prover(s))")
    rest = wall - sum(secs.values())
    print(f"  the rest (WP's own work and scheduling, and the smoke tests): {rest:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

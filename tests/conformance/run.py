#!/usr/bin/env python3
"""run.py - generate SPIN schedules and replay them on the C core (REQ-IMPL-3, REQ-TCB-1).

  run.py [--tree DIR] [--build BUILD] [--seeds N] [--trails N] [--min N] --out FILE

(`make conformance`, the stamped producer, writes build/evidence/conformance.json; the test
group 80-conformance writes $BUILD/conformance/conformance.json.)

Runs tests/conformance/gen.py on the tree's model, then BUILD/conformance/replay-v{0,1,2}
(BUILD: the build directory, default DIR/build; a relative one is taken from the current directory)
on the schedules of each variant (v2's include the v0/v1 counterexamples as mapped schedules),
then the control: replay-v0 on the same mapped schedules, each of which must show the race
outcome.  Writes a JSON summary, prints one line per variant and the total, and exits 1 if any
schedule failed (a gap beyond the harness's gap cap is a failure, spec/conformance.md), if a
replay exited non-zero, if a v0/v1 counterexample trail was not reproduced on its own build,
if a mapped schedule passed on v2 without a locked re-check or did not show the race on v0, if a
schedule of the threaded protocol (tests/conformance/threaded.py, BUILD/conformance/replay-threaded)
failed, or if fewer than --min schedules were replayed.
"""
import argparse, json, os, re, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))


def mapped_checks(lines, mapped, gen, out):
    """v2 on the mapped schedules: every one passed, each after at least one locked re-check."""
    rechecks = [int(m.group(1)) for m in (re.search(r"locked re-checks (\d+)", l) for l in lines
                                          if l.startswith("mapped ")) if m]
    out["mapped_schedules"] = gen.get("mapped", 0)
    out["mapped_min_rechecks"] = min(rechecks) if rechecks else 0
    out["mapped_max_rechecks"] = max(rechecks) if rechecks else 0
    if mapped != gen.get("mapped", 0):
        print("conformance: v2 passed %d of %d mapped schedules" % (mapped, gen.get("mapped", 0)))
        return 1
    if rechecks and min(rechecks) < 1:
        print("conformance: a mapped schedule passed on v2 without a locked re-check")
        return 1
    return 0


def mapped_control(work, gen, res, build="replay-v0"):
    """The mapped schedules on v0 (no locked re-check): each must show the race outcome, or
    the mapped replay could not fail (spec/conformance.md, "Mapped replays")."""
    sched = os.path.join(work, "schedules.mapped")
    r = subprocess.run([os.path.join(work, build), sched], capture_output=True, text=True)
    with open(os.path.join(work, build + "-mapped.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    race = sum(1 for l in r.stdout.splitlines() if l.startswith("FAIL ") and "the race outcome occurs" in l)
    n = sum(1 for l in open(sched) if l.startswith("schedule "))
    if n != gen.get("mapped", n):
        print("conformance: %d mapped schedules in %s, gen.py made %d" % (n, sched, gen["mapped"]))
        return 1
    res["mapped_control_v0"] = dict(schedules=n, race_shown=race)
    print("control (%s): the race outcome on %d of %d mapped schedules" % (build, race, n))
    if n == 0 or race != n:
        print("conformance: the control (%s) shows the race on %d of %d mapped schedules" % (build, race, n))
        return 1
    return 0


def threaded(tree, work, seeds, res):
    """The threaded protocol (tests/conformance/threaded.py): SC simulations of
    promela/threaded.pml replayed by replay-threaded, every one of which must conform, and the
    known-bad variants' counterexamples mapped, every one without the race outcome."""
    t1 = time.time()
    r = subprocess.run([sys.executable, os.path.join(tree, "tests/conformance/threaded.py"), "--tree", tree,
                        "--seeds", str(3 * seeds), "--out", os.path.join(work, "schedules.threaded"),
                        "--mapped", os.path.join(work, "schedules.threaded-mapped"),
                        "--harness", os.path.join(work, "replay-threaded"),
                        "--json", os.path.join(work, "threaded.json")], capture_output=True, text=True)
    with open(os.path.join(work, "replay-threaded.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    try:
        with open(os.path.join(work, "threaded.json")) as f:
            t = json.load(f)
    except (OSError, ValueError):
        t = {}
    m = re.search(r"replayed (\d+): ok (\d+), mapped (\d+), failed (\d+)", r.stdout)
    n, ok, mapped, failed = map(int, m.groups()) if m else (0, 0, 0, 0)
    res["threaded"] = dict(t, seconds=round(time.time() - t1, 1), conforming=ok,
                           mapped_no_race=mapped)
    res["failed"] += t.get("failed", [])[:20]
    print("threaded: %s" % (m.group(0) if m else "the replay did not finish"))
    # every simulation conforms, every mapped counterexample ends without the race outcome
    if r.returncode != 0 or not m or failed or ok != t.get("schedules", -1) or \
            mapped != t.get("mapped_schedules", -1) or mapped == 0:
        print((r.stdout + r.stderr)[-1500:])
        print("conformance: the threaded replay failed")
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default=".")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--trails", type=int, default=10)
    ap.add_argument("--only", default="sync,free,depth")
    ap.add_argument("--min", type=int, default=0)
    ap.add_argument("--out")
    ap.add_argument("--build", metavar="DIR", help="the build directory holding conformance/replay-v* and "
                    "evidence/trails (default: the tree's build/)")
    ap.add_argument("--mapped-control", metavar="BUILD",
                    help="only the control, with this harness (e.g. replay-v2, which must fail it)")
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    build = os.path.abspath(a.build) if a.build else os.path.join(tree, "build")
    work = os.path.join(build, "conformance")
    if a.mapped_control:
        return mapped_control(work, {}, {}, a.mapped_control)
    if not a.out:
        ap.error("--out is required")
    os.makedirs(work, exist_ok=True)
    t0 = time.time()
    g = subprocess.run([sys.executable, os.path.join(tree, "tests/conformance/gen.py"), "--tree", tree,
                        "--seeds", str(a.seeds), "--trails", str(a.trails), "--only", a.only,
                        "--saved", os.path.join(build, "evidence", "trails"),
                        "--out", os.path.join(work, "schedules")], capture_output=True, text=True)
    if g.returncode != 0:
        print(g.stdout + g.stderr)
        print("conformance: schedule generation failed")
        return 1
    gen = json.loads(g.stdout.strip().splitlines()[-1])
    t_gen = time.time() - t0
    res = {"generated": gen, "variants": {}, "failed": []}
    total = bad = 0
    for v in (0, 1, 2):
        t1 = time.time()
        r = subprocess.run([os.path.join(work, "replay-v%d" % v), os.path.join(work, "schedules.v%d" % v)],
                           capture_output=True, text=True)
        lines = r.stdout.splitlines()
        with open(os.path.join(work, "replay-v%d.log" % v), "w") as f:
            f.write(r.stdout + r.stderr)
        m = re.search(r"replayed (\d+): ok (\d+), gap (\d+), mapped (\d+), failed (\d+) "
                      r"\(v\d build, gap cap (\d+)\)", r.stdout)
        if not m:
            print(r.stdout[-2000:] + r.stderr[-2000:])
            print("conformance: replay-v%d did not finish" % v)
            return 1
        n, ok, gap, mapped, failed, cap = map(int, m.groups())
        reproduced = sum(1 for l in lines if l.startswith("ok trail/") and "same violation" in l)
        trails_here = sum(1 for l in lines if re.match(r"\S+ trail/[^ ]*[0-9]:", l))
        weak_n = sum(1 for l in lines if re.match(r"\S+ trail/\S*-weak-\S*[0-9]:", l))
        weak_ok = sum(1 for l in lines if re.match(r"ok trail/\S*-weak-\S*[0-9]:", l) and "same violation" in l)
        saved_ok = sum(1 for l in lines if l.startswith("ok saved/"))
        saved_n = sum(1 for l in lines if re.match(r"\S+ saved/", l) and "/mapped:" not in l)
        gaps = {}
        for l in lines:
            mm = re.search(r"\((gap-[a-z-]+)", l)
            if l.startswith("gap ") and mm:
                gaps[mm.group(1)] = gaps.get(mm.group(1), 0) + 1
        res["variants"]["v%d" % v] = dict(replayed=n, conforming=ok, gaps=gaps, gap_cap=cap, mapped=mapped,
                                          failed=failed,
                                          trails_reproduced=reproduced, trails=trails_here,
                                          weak_trails=weak_n, weak_trails_reproduced=weak_ok,
                                          saved_trails=saved_n, saved_trails_conforming=saved_ok,
                                          seconds=round(time.time() - t1, 1))
        res["failed"] += [l for l in lines if l.startswith("FAIL")][:20]
        total += n
        bad += failed
        if r.returncode != 0 and not failed:
            print("conformance: replay-v%d exited %d with no failed schedule" % (v, r.returncode))
            bad += 1
        if v in (0, 1) and reproduced != trails_here:
            print("conformance: v%d reproduced %d of %d counterexample trails" % (v, reproduced, trails_here))
            bad += 1
        if v == 2:
            bad += mapped_checks(lines, mapped, gen, res["variants"]["v2"])
        print("v%d: replayed %d, conforming %d, documented gaps %s, mapped without race %d, failed %d, "
              "trails reproduced %d/%d" % (v, n, ok, gaps or "{}", mapped, failed, reproduced, trails_here))
    bad += mapped_control(work, gen, res)
    bad += threaded(tree, work, a.seeds, res)
    total += res["threaded"].get("schedules", 0)
    res["total"] = total
    res["seconds"] = round(time.time() - t0, 1)
    res["seconds_generate"] = round(t_gen, 1)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    for l in res["failed"]:
        print(l)
    print("conformance: %d schedules replayed (%d simulations, %d own trails, %d saved trails of the model "
          "runner; skipped saved: %s) in %.0f s, %d failed"
          % (total, gen["simulations"], gen["trails"], gen.get("saved", 0), gen.get("saved_skipped", {}),
             res["seconds"], bad))
    if total < a.min:
        print("conformance: only %d schedules, at least %d required" % (total, a.min))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

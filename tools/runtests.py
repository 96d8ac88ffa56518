#!/usr/bin/env python3
"""make check: run every suite of tests/suites/ and total the results.

Each suite is an executable script that records its cases in $RESULTS (see tests/lib.sh).
One line per suite is printed as it ends; the last line is `N passed, N failed, N skipped`.
Exit status is 1 when any case failed or any suite crashed, else 0.
Results land in $BUILD/results/<suite>.tsv and $BUILD/results/summary.json (read by the report),
logs in $BUILD/logs/<suite>/: BUILD is the build directory make passes (default build, relative to
the repository); each suite gets it in its environment.
"""
import argparse, json, os, signal, subprocess, sys, time


def kill_session(sid):
    """SIGKILL every process of session sid: a suite's own process group and those of its cases
    (tests/lib.sh starts each case as a process group of its own, in the suite's session)."""
    for _ in range(3):  # again: a process may have forked during the sweep
        for d in os.listdir("/proc"):
            try:
                if d.isdigit() and os.getsid(int(d)) == sid:
                    os.kill(int(d), signal.SIGKILL)
            except OSError:
                pass


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.strip().split("\n")[0],
                            epilog="settings come from the environment: SUITES (groups to run, by name part), SUITE_LIMIT (seconds per group, default 2400), BUILD (the build directory, default build)").parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    only = os.environ.get("SUITES", "").split()
    suites = sorted(f for f in os.listdir("tests/suites") if f.endswith(".sh"))
    if only:
        suites = [s for s in suites if any(o in s for o in only)]
        if not suites:
            print(f"runtests: no suite matches SUITES={' '.join(only)}", file=sys.stderr)
            return 2
    limit = int(os.environ.get("SUITE_LIMIT", "2400"))
    build = os.environ.get("BUILD") or "build"
    results = os.path.join(build, "results")
    os.makedirs(results, exist_ok=True)
    totals = {"pass": 0, "fail": 0, "skip": 0}
    summary = []
    t_all = time.time()
    for s in suites:
        name = s[:-3]
        res = os.path.join(results, f"{name}.tsv")
        if os.path.exists(res):
            os.remove(res)
        open(res, "w").close()
        # IRQSYNC_RUN_SUITES: the groups of this run ([99-twins] checks their twins' killers)
        env = dict(os.environ, RESULTS=res, LOGDIR=os.path.join(build, "logs", name),
                   BUILD=build, SUITE=name,
                   IRQSYNC_RUN_SUITES=" ".join(x[:-3] for x in suites))
        print(f"[{name}]", flush=True)
        t0 = time.time()
        # A suite runs in a session of its own, under SUITE_LIMIT seconds: a suite that hangs
        # outside its cases (which have their own limit, tests/lib.sh) is stopped with
        # everything it started (its cases' process groups too) and reported by name.
        p = subprocess.Popen(["bash", f"tests/suites/{s}"], env=env, start_new_session=True)
        try:
            rc = p.wait(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            kill_session(p.pid)
            rc, timed_out = p.wait(), True
        dt = time.time() - t0
        cases = []
        with open(res) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    cases.append({"status": parts[0], "name": parts[1],
                                  "seconds": float(parts[2] or 0),
                                  "detail": parts[3] if len(parts) > 3 else ""})
        if timed_out:
            cases.append({"status": "fail", "name": f"{name} (suite)", "seconds": dt,
                          "detail": f"timeout: suite stopped after {limit} s"})
            print(f"  FAIL  {name} (suite): timeout, stopped after {limit} s")
        elif rc != 0:
            cases.append({"status": "fail", "name": f"{name} (suite)", "seconds": dt,
                          "detail": f"suite script exited {rc}"})
            print(f"  FAIL  {name} (suite): script exited {rc}")
        if not cases:
            cases.append({"status": "fail", "name": f"{name} (suite)", "seconds": dt,
                          "detail": "suite recorded no test case"})
        c = {k: sum(1 for x in cases if x["status"] == k) for k in totals}
        for k in totals:
            totals[k] += c[k]
        print(f"[{name}] {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped ({dt:.1f}s)", flush=True)
        summary.append({"suite": name, "seconds": round(dt, 2), "cases": cases})
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump({"suites": summary, "seconds": round(time.time() - t_all, 1)}, f, indent=1)
    line = f"{totals['pass']} passed, {totals['fail']} failed"
    if totals["skip"]:
        line += f", {totals['skip']} skipped"
    print(line)
    return 1 if totals["fail"] else 0

if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""make check: run every suite of tests/suites/ and total the results.

Each suite is an executable script that records its cases in $RESULTS (see tests/lib.sh).
Suites run CHECK_JOBS at a time (default 2).  A suite's output is printed whole when it ends:
its `[name]` line, its cases, then `[name] N passed, N failed, N skipped (Ts)`.  The last line
is `N passed, N failed, N skipped`.  Exit status is 1 when any case failed or any suite crashed,
else 0.

Two suites run at once only when they share nothing.  A suite says what it needs in a line of
its header comment:
  # check-uses: NAME...   it writes or times something another suite with the same NAME does
                          (a build directory, the model's work files); `machine' runs it alone
                          (it measures the hardware: two threads that must race on two cores)
  # check-last            it reads the other suites' results: it starts when they have ended
Results land in $BUILD/results/<suite>.tsv and $BUILD/results/summary.json (read by the report),
logs in $BUILD/logs/<suite>/: BUILD is the build directory make passes (default build, relative to
the repository); each suite gets it in its environment.  summary.json records when each group
started and how long it took (seconds from the start of the run).
"""
import argparse, json, os, re, shutil, signal, subprocess, sys, tempfile, time

USES = re.compile(r"^#\s*check-uses:\s*([^(\n]+)", re.M)   # a comment in parentheses may follow
LAST = re.compile(r"^#\s*check-last\b", re.M)


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


def header(path):
    """(resources, last) that the suite's header comment declares (the lines before its code)."""
    head = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                break
            head.append(line)
    text = "".join(head)
    uses = set()
    for m in USES.finditer(text):
        uses.update(m.group(1).split())
    return uses, bool(LAST.search(text))


def read_cases(res):
    cases = []
    with open(res) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                cases.append({"status": parts[0], "name": parts[1],
                              "seconds": float(parts[2] or 0),
                              "detail": parts[3] if len(parts) > 3 else ""})
    return cases


class Run:
    """One suite: started in a session of its own, its output to a file."""

    def __init__(self, suite, env, out):
        self.suite, self.name = suite, suite[:-3]
        self.out = out
        self.t0 = time.time()
        # A suite runs in a session of its own, under SUITE_LIMIT seconds: a suite that hangs
        # outside its cases (which have their own limit, tests/lib.sh) is stopped with
        # everything it started (its cases' process groups too) and reported by name.
        with open(out, "w") as fh:
            self.p = subprocess.Popen(["bash", f"tests/suites/{suite}"], env=env,
                                      stdout=fh, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        self.timed_out = False


def can_start(s, info, running, pending, jobs):
    uses, last = info[s]
    if len(running) >= jobs:
        return False
    if last and (running or any(not info[p][1] for p in pending)):
        return False
    held = set().union(*(info[r.suite][0] for r in running)) if running else set()
    if running and ("machine" in uses or "machine" in held):
        return False
    return not (uses & held)


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.strip().split("\n")[0],
                            epilog="settings come from the environment: SUITES (groups to run, by name part), CHECK_JOBS (groups at a time, default 2), SUITE_LIMIT (seconds per group, default 2400), BUILD (the build directory, default build)").parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    only = os.environ.get("SUITES", "").split()
    suites = sorted(f for f in os.listdir("tests/suites") if f.endswith(".sh"))
    if only:
        suites = [s for s in suites if any(o in s for o in only)]
        if not suites:
            print(f"runtests: no suite matches SUITES={' '.join(only)}", file=sys.stderr)
            return 2
    try:
        jobs = int(os.environ.get("CHECK_JOBS") or 2)
        limit = int(os.environ.get("SUITE_LIMIT") or 2400)
    except ValueError:
        print("runtests: CHECK_JOBS and SUITE_LIMIT must be whole numbers", file=sys.stderr)
        return 2
    if jobs < 1:
        print("runtests: CHECK_JOBS must be at least 1", file=sys.stderr)
        return 2
    build = os.environ.get("BUILD") or "build"
    results = os.path.join(build, "results")
    os.makedirs(results, exist_ok=True)
    info = {s: header(f"tests/suites/{s}") for s in suites}
    last_secs = {}
    try:
        with open(os.path.join(results, "summary.json")) as f:
            last_secs = {x["suite"]: x["seconds"] for x in json.load(f)["suites"]}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    # The order: a group that runs alone first (it idles the other slot wherever it goes, and
    # the pool fills after it); then the groups that use the most (each holds up the others
    # that use the same); then the longest by the last run's times (a fresh clone has none).
    pending = sorted(suites, key=lambda s: ("machine" not in info[s][0], -len(info[s][0]),
                                            -last_secs.get(s[:-3], 0), s))
    outdir = tempfile.mkdtemp(prefix="runtests.")
    totals = {"pass": 0, "fail": 0, "skip": 0}
    summary = {}
    running = []
    t_all = time.time()
    try:
        while pending or running:
            for s in list(pending):
                if can_start(s, info, running, pending, jobs):
                    pending.remove(s)
                    name = s[:-3]
                    res = os.path.join(results, f"{name}.tsv")
                    open(res, "w").close()
                    # IRQSYNC_RUN_SUITES: the groups of this run ([99-twins] checks their
                    # twins' killers)
                    env = dict(os.environ, RESULTS=res, LOGDIR=os.path.join(build, "logs", name),
                               BUILD=build, SUITE=name,
                               IRQSYNC_RUN_SUITES=" ".join(x[:-3] for x in suites))
                    running.append(Run(s, env, os.path.join(outdir, name + ".out")))
            time.sleep(0.1)
            for r in list(running):
                rc = r.p.poll()
                if rc is None and time.time() - r.t0 > limit:
                    kill_session(r.p.pid)
                    rc, r.timed_out = r.p.wait(), True
                if rc is None:
                    continue
                running.remove(r)
                summary[r.name] = finish(r, rc, limit, results, totals)
                summary[r.name]["started"] = round(r.t0 - t_all, 1)
    finally:
        for r in running:  # interrupted: leave nothing behind
            kill_session(r.p.pid)
        shutil.rmtree(outdir, ignore_errors=True)
    with open(os.path.join(results, "summary.json"), "w") as f:
        json.dump({"suites": [summary[s[:-3]] for s in suites if s[:-3] in summary],
                   "seconds": round(time.time() - t_all, 1)}, f, indent=1)
    line = f"{totals['pass']} passed, {totals['fail']} failed"
    if totals["skip"]:
        line += f", {totals['skip']} skipped"
    print(line)
    return 1 if totals["fail"] else 0


def finish(r, rc, limit, results, totals):
    """Print a finished suite's output and verdicts; add them to totals; its summary entry."""
    dt = time.time() - r.t0
    name = r.name
    cases = read_cases(os.path.join(results, f"{name}.tsv"))
    print(f"[{name}]", flush=True)
    with open(r.out, errors="replace") as f:
        sys.stdout.write(f.read())
    os.remove(r.out)
    if r.timed_out:
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
    print(f"[{name}] {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped ({dt:.1f}s)",
          flush=True)
    return {"suite": name, "seconds": round(dt, 2), "cases": cases}


if __name__ == "__main__":
    sys.exit(main())

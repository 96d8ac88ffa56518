#!/usr/bin/env python3
"""campaign.py - the mutation campaign (twins/catalog.yml, kind campaign-mutant; spec/conformance.md).

Each mutant is an exact-once string edit of one file of src/ or promela/; `techniques` are the
ones expected to kill it, and a campaign in which one of them ran and did not is a failure. It is applied to a
COPY of the tree (build/mutants/<id>/tree; the working tree is never touched), and the real
verification techniques run on that copy:

  tests        C mutants: the copy's unit tests (build/tests/unit, unit-steps, unit-thread) and
               the lock checker
  conformance  C mutants: the copy's replay harnesses (replay-v0/1/2, replay-threaded) on the
               pristine model's schedules (the threaded ones with the known-bad variants'
               counterexamples mapped);
               model mutants: schedules from the copy's (mutated) model on the pristine C
  spin         model mutants: tools/model/run1.py of the copy on a fixed set of configurations
  wp           every C mutant: `make prove` in the copy (when it covers src/core, else n/a).
               The copy gets what unit reuse needs (spec/proof.md "Proof units"): the committed
               store proofs/units/ is part of it, and the passing unit results and the prover
               cache of the control's run (the unmutated copy, proved first) are copied into
               its build/proofs/, so only the units whose key the mutation changed are proved
               again. One WP run at a time (each runs JOBS units at once).

A technique kills a mutant when it fails; the first failing line is kept as the evidence. For WP
a kill is a failure of the gate named by its goal (an unproved goal, a failed smoke test, a
property not Valid); a run that fails for another reason (frama-c or a prover crashed, a file
is missing, the time limit) is an "error", neither a kill nor a survival, and so is every WP
verdict when the control does not pass.

  python3 -m tools.mutants.campaign [--ids a,b] [--techniques t1,t2] [--jobs N]
                                    [--out build/evidence/mutants.json] [--source DIR]
        --source DIR: mutate that tree (e.g. a commit exported by `git archive`) instead of the
        working tree
  python3 -m tools.mutants.campaign --one ID --technique T
        one mutant, one technique: exit 1 and print the killing failure if killed, 0 if it
        survived, 3 if the technique erred (neither)
"""
import argparse, concurrent.futures as cf, json, os, re, shutil, signal, subprocess, sys, threading, time

from tools import twins

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# This tree's build directory (BUILD, as make has it); a copy of the tree builds in its own build/.
BUILD = os.path.join(ROOT, os.environ.get("BUILD") or "build")
WORK = os.path.join(BUILD, "mutants")
TECHS = ("spin", "wp", "tests", "conformance")
TIMEOUT = 120

# SPIN: (defines, expected result); 0 = holds, 1 = violation (run1.py's exit status)
SPIN_SET = [
    (["MM_TSO", "VARIANT=2", "SCEN=SCEN_SYNC", "CALLER_MB=0", "NCPU=2", "ARRIVALS=2"], 0),
    (["MM_SC", "VARIANT=2", "SCEN=SCEN_SYNC", "NCPU=3", "ARRIVALS=2"], 0),
    (["MM_TSO", "VARIANT=2", "SCEN=SCEN_FREE", "NCPU=2", "ARRIVALS=2", "SHARERS=2"], 0),
    (["MM_SC", "VARIANT=2", "SCEN=SCEN_DEPTH", "NCPU=3", "ARRIVALS=2"], 0),
    (["MM_TSO", "VARIANT=2", "SCEN=SCEN_DEPTH", "NCPU=2", "ARRIVALS=1"], 0),
    (["MM_TSO", "VARIANT=0", "SCEN=SCEN_SYNC", "CALLER_MB=0", "NCPU=2"], 1),
    (["MM_TSO", "VARIANT=1", "SCEN=SCEN_SYNC", "CALLER_MB=1", "NCPU=2"], 1),
    (["MM_SC", "VARIANT=0", "SCEN=SCEN_SYNC", "NCPU=2", "ARRIVALS=2"], 0),
]
# TSO litmus tests with the x86 verdict (1 = the relaxed outcome is allowed).  sb+unlock-lock was
# added when m-tso-lock-no-drain survived the protocol runs (the protocol's FIFO release hides it).
SPIN_LITMUS = [("sb.pml", "MM_TSO", 1), ("sb+locks.pml", "MM_TSO", 0), ("sb+mb+mb.pml", "MM_TSO", 0),
               ("corr.pml", "MM_TSO", 0), ("sb+unlock-lock.pml", "MM_TSO", 0), ("mp+locks.pml", "MM_TSO", 0)]


def run_command(cmd, cwd, timeout=TIMEOUT, env=None):
    """(exit status, output) of cmd in cwd; a hang past timeout is exit 124, a failure."""
    base = dict(os.environ)
    if os.path.abspath(cwd) != ROOT:
        # a copy of the tree: its make builds in the copy's build/, whatever BUILD the caller's
        # make passed down (BUILD=... travels in MAKEFLAGS too)
        base = {k: v for k, v in base.items() if k not in ("BUILD", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=dict(base, **(env or {})))
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + "\nTIMEOUT after %d s (a hang counts as a failure)" % timeout


def load():
    """The campaign mutants of twins/catalog.yml, in the campaign's row shape."""
    return [{"id": t["id"], "target": t["target"], "edit": t["edit"], "file": t["edit"]["file"],
             "description": t["what"], "breaks": t["breaks"], "expect": t["techniques"]}
            for t in twins.load() if t["kind"] == "campaign-mutant"]


SOURCE = ROOT   # what copy_tree copies: the working tree, or its snapshot (take_snapshot)
# This campaign's own scratch copies under WORK (another campaign may run at the same time)
PRIVATE = {"snapshot": "_snapshot-%d" % os.getpid(), "control": "_wp-control-%d" % os.getpid()}


def take_snapshot(src=None):
    """Copy the working tree once, at the start of a campaign that runs WP: every mutant's copy
    and the WP control are then made from the same sources, whatever is edited meanwhile (a
    mutant copied after an edit would reprove, and perhaps fail, units the mutation never
    touched)."""
    global SOURCE
    snap = os.path.join(WORK, PRIVATE["snapshot"], "tree")
    shutil.rmtree(os.path.dirname(snap), ignore_errors=True)
    shutil.copytree(src or ROOT, snap, ignore=shutil.ignore_patterns("build", ".git", "__pycache__"),
                    symlinks=True)
    SOURCE = snap


def copy_tree(m):
    """A fresh copy of the working tree (no build/, no .git) with the mutation applied."""
    dest = os.path.join(WORK, m["id"], "tree")
    shutil.rmtree(os.path.dirname(dest), ignore_errors=True)
    shutil.copytree(SOURCE, dest, ignore=shutil.ignore_patterns("build", ".git", "__pycache__"), symlinks=True)
    if m["id"] in ("null", PRIVATE["control"]):
        return dest          # the control: the unmutated copy must survive every technique
    path = os.path.join(dest, m["file"])
    try:
        text = twins.apply_edit(open(path).read(), m["edit"], m["id"])
    except twins.CatalogError as e:
        raise RuntimeError(str(e))
    open(path, "w").write(text)
    return dest


def first_fail(out, pats):
    """The first line matching the first pattern that matches any line (patterns by priority)."""
    for p in pats:
        for line in out.splitlines():
            if re.search(p, line):
                return line.strip()[:300]
    return out.strip().splitlines()[-1][:300] if out.strip() else "(no output)"


def t_tests(tree):
    progs = ("build/tests/unit", "build/tests/unit-steps", "build/tests/unit-thread",
             "build/conformance/lockcheck")
    rc, out = run_command(["make", "-s", "-j2"] + list(progs), tree, timeout=300)
    if rc:
        return "stillborn", "does not compile: " + first_fail(out, [r"error"])
    for prog in progs:
        rc, out = run_command([prog], tree, timeout=60)
        if rc:
            return "killed", "%s: %s" % (os.path.basename(prog), first_fail(out, [r"^not ok", r"TIMEOUT"]))
    return "survived", "unit, step-order, thread and lock tests pass"


def schedules():
    base = os.path.join(BUILD, "conformance", "schedules")
    if not all(os.path.exists("%s.v%d" % (base, v)) for v in (0, 1, 2)):
        rc, out = run_command([sys.executable, os.path.join(ROOT, "tests/conformance/gen.py"), "--tree", ROOT,
                      "--seeds", "20", "--trails", "10", "--out", base], ROOT, timeout=900)
        if rc:
            raise RuntimeError("cannot generate the pristine schedules: " + out[-500:])
    if not os.path.exists(base + ".threaded") or not os.path.exists(base + ".threaded-mapped"):
        threaded_schedules(ROOT, base + ".threaded", mapped=True)
    return base


def threaded_schedules(tree, out, mapped=False):
    """The threaded protocol's SC schedules of @tree's model (tests/conformance/threaded.py),
    and with @mapped its known-bad variants' counterexamples (in out + "-mapped")."""
    rc, text = run_command([sys.executable, os.path.join(ROOT, "tests/conformance/threaded.py"), "--tree", tree,
                            "--seeds", "60", "--out", out] + (["--mapped", out + "-mapped"] if mapped else []),
                           ROOT, timeout=600)
    if rc:
        raise RuntimeError("cannot generate the threaded schedules: " + text[-500:])


def replay(bins_dir, sched_base):
    """Replay the three variants; return (killed?, evidence)."""
    for v in (2, 0, 1):
        rc, out = run_command([os.path.join(bins_dir, "replay-v%d" % v), "--max-fail", "3", "%s.v%d" % (sched_base, v)],
                     ROOT, timeout=600)
        if rc == 2:
            return None, "v%d: the harness rejected the schedules: %s" % (v, out.strip()[-200:])
        if rc:
            return True, "v%d: %s" % (v, first_fail(out, [r"^FAIL"]))
        m = re.search(r"replayed (\d+)", out)
        if not m:
            return True, "v%d replay did not finish: %s" % (v, out[-200:])
    # the threaded protocol (replay_threaded.c: one build, the shipped core's objects)
    text = ""
    for f in (sched_base + ".threaded", sched_base + ".threaded-mapped"):
        if os.path.exists(f):
            with open(f) as fh:
                text += fh.read()
    r = subprocess.run([os.path.join(bins_dir, "replay-threaded")], input=text, cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    if r.returncode == 2:
        return None, "threaded: the harness rejected the schedules: " + r.stderr.strip()[-200:]
    if r.returncode:
        return True, "threaded: " + first_fail(r.stdout, [r"^FAIL"])
    if not re.search(r"replayed [1-9]\d*: ok", r.stdout):
        return True, "threaded replay did not finish: " + r.stdout[-200:]
    return False, "every schedule replays"


def t_conformance_c(tree):
    rc, out = run_command(["make", "-s", "-j2", "conformance-bins"], tree, timeout=300)
    if rc:
        return "stillborn", "does not compile: " + first_fail(out, [r"error"])
    killed, ev = replay(os.path.join(tree, "build", "conformance"), schedules())
    return ("error" if killed is None else "killed" if killed else "survived"), ev


def t_conformance_model(tree):
    base = os.path.join(tree, "build", "conformance", "schedules")
    os.makedirs(os.path.dirname(base), exist_ok=True)
    rc, out = run_command([sys.executable, os.path.join(ROOT, "tests/conformance/gen.py"), "--tree", tree,
                  "--seeds", "4", "--trails", "3", "--out", base], tree, timeout=600)
    if rc:
        # the mapping failed: not evidence against the mutant, a tooling error
        return "error", "gen.py failed: " + first_fail(out, [r"Error", r"rror"])
    try:
        threaded_schedules(tree, base + ".threaded")
    except RuntimeError as e:
        return "error", str(e)[:300]
    # the pristine C (the working tree's harnesses)
    rc, out = run_command(["make", "-s", "-j2", "conformance-bins"], ROOT, timeout=300)
    killed, ev = replay(os.path.join(BUILD, "conformance"), base)
    return ("error" if killed is None else "killed" if killed else "survived"), ev


def t_spin(tree):
    if not os.path.exists(os.path.join(tree, "tools", "model", "run1.py")):
        return "n/a", "no tools/model/run1.py in the tree"
    run1 = [sys.executable, "-m", "tools.model.run1"]   # the copy's, run from the copy's root
    for defines, want in SPIN_SET:
        rc, out = run_command(run1 + defines, tree, timeout=300)
        if not re.search(r"errors=\d+", out):
            # no verdict at all (the runner itself broke): not a kill
            return "error", "%s: no verdict from run1.py: %s" % (" ".join(defines), out.strip()[-200:])
        if rc not in (0, 1):
            return "killed", "%s: run failed or incomplete (exit %d): %s" % (" ".join(defines), rc,
                                                                              first_fail(out, [r"rror", r"incomplete"]))
        if rc != want:
            what = first_fail(out, [r"assert", r"violated", r"invalid end", r"rror"]) if rc else "no error found"
            return "killed", "%s: expected %s, got %s: %s" % (" ".join(defines), ("violation" if want else "hold"),
                                                             ("violation" if rc else "hold"), what)
    for f, mm, want in SPIN_LITMUS:
        model = os.path.join(tree, "promela", "litmus", f)
        if not os.path.exists(model):
            continue
        rc, out = run_command(run1 + ["--model", model, mm], tree, timeout=300)
        if not re.search(r"errors=\d+", out):
            return "error", "litmus %s: no verdict from run1.py: %s" % (f, out.strip()[-200:])
        if rc != want:
            return "killed", "litmus %s %s: expected %s, got exit %d: %s" % (
                f, mm, "allowed" if want else "forbidden", rc, first_fail(out, [r"assert", r"rror"]))
    return "survived", "%d protocol and %d litmus runs as expected" % (len(SPIN_SET), len(SPIN_LITMUS))


WP_TIMEOUT = int(os.environ.get("MUTANTS_WP_TIMEOUT", "3600"))
WP_JOBS = 2                              # units at once inside one WP run (set by main)
WP_LOCK = threading.RLock()              # one WP run at a time: the provers fill both cores
WP_CONTROL = {}                          # the control's verdict and seed, once per campaign
STOP = threading.Event()                 # set on SIGTERM: the pool's threads start nothing new
WP_TIME = threading.local()              # seconds of this thread's last `make prove`
# Problems of the gate that are a tool's failure, not a verdict on the code (units.py wording)
WP_TOOL_FAILURE = re.compile(r"frama-c failed|function \S+ has a body but no unit proved it")


# The control's unit results and prover cache, kept between campaigns (the working tree's own
# build/proofs/ is as old as its last `make prove`).
WP_SEED = os.path.join(WORK, "_wp-seed")


def wp_seed(dst, sources):
    """Give the proof directory dst (a copy's build/proofs) the reuse state of the proof
    directories `sources`: for each unit the newest last-run result (units/<f>/unit.json;
    units.py reuses it only when its key is the copy's and it passed) and the union of their
    prover caches. Without any cache, a copy seeds its own from the committed
    proofs/wp-cache.tar.xz (make prove does)."""
    newest = {}
    for d in sources:
        units = os.path.join(d, "units")
        for f in (os.listdir(units) if os.path.isdir(units) else []):
            u = os.path.join(units, f, "unit.json")
            if os.path.isfile(u) and (f not in newest or os.path.getmtime(u) > os.path.getmtime(newest[f])):
                newest[f] = u
    for f, u in newest.items():
        os.makedirs(os.path.join(dst, "units", f), exist_ok=True)
        shutil.copy2(u, os.path.join(dst, "units", f, "unit.json"))
    for d in sources:      # entries are named by the goal's hash: a union is consistent
        if os.path.isdir(os.path.join(d, "cache")):
            shutil.copytree(os.path.join(d, "cache"), os.path.join(dst, "cache"), dirs_exist_ok=True)


def wp_keep(proofs_dir):
    """Keep a passing control's unit results and cache (with the older seed's) as the seed of
    the next campaign."""
    tmp = WP_SEED + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    wp_seed(tmp, [WP_SEED, proofs_dir])
    shutil.rmtree(WP_SEED, ignore_errors=True)
    os.rename(tmp, WP_SEED)


def wp_verdict(rc, out, proofs):
    """(result, evidence) of one `make prove` of a copy: rc its exit status, out its output,
    proofs its build/evidence/proofs.json (None when it wrote none)."""
    if rc == 124:
        return "error", "time limit: " + out.strip().splitlines()[-1][:200]
    if proofs is None:
        return "error", "no proofs.json (the gate did not finish): " + first_fail(
            out, [r"units: ", r"rror", r"No rule"])
    tool = [p for p in proofs.get("problems", []) if WP_TOOL_FAILURE.search(p)]
    if tool:
        return "error", "tool failure: " + tool[0][:250]
    # An unproved goal is a kill. (WP's report cannot tell a prover that crashed on a goal from
    # one that gave up: Z3's answer on a false goal is counted as "failed" too, e.g. in the
    # expected failure prove-neg-unlocked-status; a crash of frama-c itself is caught above.)
    bad = proofs.get("unproved", [])      # gate.py lists a failed smoke test as "smoke:f:goal"
    if bad:
        goal = bad[0]
        what = "smoke test failed" if goal.startswith("smoke:") else "unproved"
        more = " (+%d more: %s)" % (len(bad) - 1, ", ".join(bad[1:3])) if len(bad) > 1 else ""
        return "killed", "%s %s%s" % (what, goal[len("smoke:"):] if goal.startswith("smoke:") else goal, more)
    if proofs.get("problems"):
        return "killed", "gate: " + proofs["problems"][0][:250]
    if rc:
        return "error", "make prove exited %d with every goal proved: %s" % (rc, first_fail(out, [r"rror"]))
    reproved = sorted(f for f, u in (proofs.get("units") or {}).items() if u.get("source") != "reused")
    return "survived", "%d/%d goals proved, %d units proved again (%s), %d reused" % (
        proofs["proved"], proofs["total"], len(reproved), ",".join(reproved) or "none",
        len(proofs.get("units") or {}) - len(reproved))


def wp_run(tree, sources):
    rc, out = run_command(["make", "-n", "prove"], tree, timeout=60)
    if "src/core" not in out and "proofs/core.c" not in out:
        return "n/a", "make prove does not cover the core (src/core) at this commit"
    wp_seed(os.path.join(tree, "build", "proofs"), sources)
    evid = os.path.join(tree, "build", "evidence", "proofs.json")
    with WP_LOCK:
        t0 = time.time()
        rc, out = run_command(["make", "-s", "prove", "PROVE_CACHE=update", "JOBS=%d" % WP_JOBS],
                              tree, timeout=WP_TIMEOUT)
        WP_TIME.seconds = round(time.time() - t0, 1)   # the run alone, not the wait for the lock
    proofs = None
    if os.path.exists(evid):
        try:
            proofs = json.load(open(evid))
        except ValueError:
            pass
    return wp_verdict(rc, out, proofs)


def wp_control():
    """WP on the unmutated copy, once: a mutant's WP kill means something only when the control
    passes. It is seeded from the working tree's build/proofs/ and the kept seed (WP_SEED); its
    build/proofs/ then seeds every mutant's copy (the units a mutation leaves alone are reused,
    whatever the committed store holds for the tree being edited)."""
    with WP_LOCK:
        if not WP_CONTROL:
            t0 = time.time()
            tree = copy_tree({"id": PRIVATE["control"]})
            r, detail = wp_run(tree, [os.path.join(BUILD, "proofs"), WP_SEED])
            proofs = os.path.join(tree, "build", "proofs")
            if r == "survived":
                wp_keep(proofs)
            WP_CONTROL.update(result=r, detail=detail, seconds=round(time.time() - t0, 1),
                              proofs=proofs)
            print("wp control (unmutated copy): %s: %s (%.0f s)" % (r, detail, time.time() - t0),
                  flush=True)
    return WP_CONTROL


def t_wp(tree):
    c = wp_control()
    if c["result"] == "n/a":
        return c["result"], c["detail"]
    if c["result"] != "survived":
        return "error", "the unmutated copy does not pass make prove (%s: %s)" % (c["result"], c["detail"])
    return wp_run(tree, [c["proofs"]])


def applicable(m, t):
    if m["target"] == "c":
        return t in ("tests", "conformance", "wp")
    return t in ("spin", "conformance")


def run_one(m, techs):
    t0 = time.time()
    res = {}
    try:
        tree = copy_tree(m)
    except Exception as e:  # noqa: BLE001 - a catalog that no longer applies is reported
        shutil.rmtree(os.path.join(WORK, m["id"]), ignore_errors=True)
        return dict(m, results={"apply": {"result": "error", "detail": str(e)}}, killed_by=[], seconds=0)
    for t in TECHS:
        if t not in techs or not applicable(m, t) or STOP.is_set():
            continue
        t1 = time.time()
        fn = {"tests": t_tests, "spin": t_spin, "wp": t_wp,
              "conformance": t_conformance_c if m["target"] == "c" else t_conformance_model}[t]
        WP_TIME.seconds = None
        r, detail = fn(tree)
        res[t] = {"result": r, "detail": detail, "seconds": round(time.time() - t1, 1)}
        if t == "wp" and WP_TIME.seconds is not None:
            res[t]["seconds"] = WP_TIME.seconds   # its own `make prove` (a WP run waits its turn)
    shutil.rmtree(os.path.join(WORK, m["id"]), ignore_errors=True)
    killed_by = [t for t, r in res.items() if r["result"] == "killed"]
    return {"id": m["id"], "target": m["target"], "description": m["description"], "file": m["file"],
            "breaks": m["breaks"], "killed_by": killed_by, "results": res,
            "seconds": round(time.time() - t0, 1)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", default="")
    ap.add_argument("--techniques", default=",".join(TECHS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(BUILD, "evidence", "mutants.json"))
    ap.add_argument("--one", default="")
    ap.add_argument("--technique", default="")
    # e.g. a commit exported with `git archive` (the working tree is never changed)
    ap.add_argument("--source", default="", help="mutate this tree instead of the working tree")
    a = ap.parse_args()
    global WP_JOBS
    WP_JOBS = max(1, min(a.jobs, 2))     # one WP run at a time, at most 2 units at once: 2 cores
    # stopped (SIGTERM): start no further technique, and remove this campaign's scratch copies
    # (below); a run in progress is a child of its own, stopped with the campaign's process tree
    def stop(*_):
        STOP.set()
        sys.exit(143)
    signal.signal(signal.SIGTERM, stop)
    try:
        return campaign(a)
    finally:
        for d in PRIVATE.values():
            shutil.rmtree(os.path.join(WORK, d), ignore_errors=True)


def campaign(a):
    cat = load()
    if a.one:
        m = next((x for x in cat if x["id"] == a.one), None)
        if a.one == "null":
            m = {"id": "null", "target": "model" if a.technique == "spin" else "c", "file": "-",
                 "description": "no mutation (control)", "breaks": [], "expect": []}
        if m is None:
            print("campaign: no mutant %s" % a.one)
            return 2
        if a.technique == "wp" or a.source:
            take_snapshot(a.source)
        r = run_one(m, {a.technique})
        if a.technique not in r["results"]:
            print("campaign: %s: %s" % (a.one, r["results"].get("apply", {}).get("detail", "technique not applicable")))
            return 2
        x = r["results"][a.technique]
        print("%s [%s] %s by %s: %s" % (m["id"], " ".join(m["breaks"]), x["result"], a.technique, x["detail"]))
        if WP_CONTROL and m["id"] != "null":
            print("wp control (unmutated copy): %(result)s: %(detail)s (%(seconds).0f s)" % WP_CONTROL)
        return 1 if x["result"] == "killed" else 3 if x["result"] == "error" else 0
    ids = [i for i in a.ids.split(",") if i]
    todo = [m for m in cat if not ids or m["id"] in ids]
    techs = set(a.techniques.split(","))
    t0 = time.time()
    if a.source or ("wp" in techs and any(m["target"] == "c" for m in todo)):
        take_snapshot(a.source)
    if "conformance" in techs and any(m["target"] == "c" for m in todo):
        schedules()
        run_command(["make", "-s", "-j2", "conformance-bins"], ROOT, timeout=300)
    out = []
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        for r in pool.map(lambda m: run_one(m, techs), todo):
            res = "  ".join("%s=%s" % (t, v["result"]) for t, v in r["results"].items())
            print("%-36s %-5s %s  (%.0f s)" % (r["id"], r["target"], res, r["seconds"]), flush=True)
            if "wp" in r["results"]:
                print("    wp: %(result)s in %(seconds).0f s: %(detail)s" % r["results"]["wp"], flush=True)
            out.append(r)
    secs = round(time.time() - t0, 1)
    # a mutant is valid when it compiles and applies; a technique that errs (tooling failure)
    # neither kills nor clears it, and makes the campaign fail
    valid = [r for r in out if not any(v["result"] == "stillborn" for v in r["results"].values())
             and "apply" not in r["results"]]
    errors = [r["id"] for r in out if any(v["result"] == "error" for v in r["results"].values())]
    killed = [r for r in valid if r["killed_by"]]
    # the catalog's claim: each technique it names for a mutant, when it ran, killed it
    expected = {m["id"]: m["expect"] for m in cat}
    missed = ["%s by %s" % (r["id"], t) for r in valid for t in expected.get(r["id"], [])
              if t in r["results"] and r["results"][t]["result"] == "survived"]
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    matrix = {"techniques": [t for t in TECHS if t in techs], "mutants": len(out), "valid": len(valid),
              "killed": len(killed), "kill_rate": round(len(killed) / len(valid), 3) if valid else 0,
              "seconds": secs, "by_technique": {t: sum(1 for r in valid if t in r["killed_by"]) for t in TECHS},
              "survivors": [r["id"] for r in valid if not r["killed_by"]],
              "invalid": [r["id"] for r in out if r not in valid], "tool_errors": errors,
              "expected_kills_missed": missed,
              "rows": {r["id"]: {t: v["result"] for t, v in r["results"].items()} for r in out}}
    if "wp" in techs and any(r["target"] == "c" for r in out):
        # the WP column: every C row's verdict, its evidence (the goal) and its time
        matrix["wp"] = {"control": {k: WP_CONTROL.get(k) for k in ("result", "detail", "seconds")},
                        "rows": {r["id"]: r["results"].get("wp") for r in out if r["target"] == "c"},
                        "seconds": round(sum((r["results"].get("wp") or {}).get("seconds", 0)
                                             for r in out) + (WP_CONTROL.get("seconds") or 0), 1)}
    with open(os.path.splitext(a.out)[0] + "-matrix.json", "w") as f:
        json.dump(matrix, f, indent=1)
    print("mutants: %d (%d C, %d model), %d valid, %d killed (kill rate %.0f%%), survivors %s, invalid %s, "
          "technique errors %s; %.0f s"
          % (len(out), sum(r["target"] == "c" for r in out), sum(r["target"] == "model" for r in out),
             len(valid), len(killed), 100.0 * matrix["kill_rate"], matrix["survivors"] or "none",
             matrix["invalid"] or "none", errors or "none", secs))
    if "wp" in matrix:
        col = [v for v in matrix["wp"]["rows"].values() if v]
        print("wp column: %d C rows, %s; %.0f s (control %s)" % (
            len(col), ", ".join("%d %s" % (sum(v["result"] == k for v in col), k)
                                for k in ("killed", "survived", "error", "stillborn", "n/a")),
            matrix["wp"]["seconds"], WP_CONTROL.get("result")))
    if missed:
        print("expected kills missed (twins/catalog.yml techniques): %s" % ", ".join(missed))
    return 0 if len(killed) == len(valid) and not matrix["invalid"] and not errors and not missed else 1


if __name__ == "__main__":
    sys.exit(main())

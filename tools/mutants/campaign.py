#!/usr/bin/env python3
"""campaign.py - the mutation campaign (tests/mutants/catalog.json; spec/conformance.md).

Each mutant is an exact-once string edit of one file of src/ or promela/. It is applied to a
COPY of the tree (build/mutants/<id>/tree; the working tree is never touched), and the real
verification techniques run on that copy:

  tests        C mutants: the copy's unit tests (make unit-tests; build/tests/unit, unit-steps)
  conformance  C mutants: the copy's replay harnesses on the pristine model's schedules;
               model mutants: schedules from the copy's (mutated) model on the pristine C
  spin         model mutants: tools/model/run1.py of the copy on a fixed set of configurations
  wp           C mutants whose catalog entry expects it: `make prove` in the copy, when it
               covers src/core (else n/a)

A technique kills a mutant when it fails; the first failing line is kept as the evidence.

  python3 -m tools.mutants.campaign [--ids a,b] [--techniques t1,t2] [--jobs N]
                                    [--out build/evidence/mutants.json]
  python3 -m tools.mutants.campaign --one ID --technique T
        one mutant, one technique: exit 1 and print the killing failure if killed, 0 if it
        survived
"""
import argparse, concurrent.futures as cf, json, os, re, shutil, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(ROOT, "tests", "mutants", "catalog.json")
WORK = os.path.join(ROOT, "build", "mutants")
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
    try:
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + "\nTIMEOUT after %d s (a hang counts as a failure)" % timeout


def load():
    return json.load(open(CATALOG))


def copy_tree(m):
    """A fresh copy of the working tree (no build/, no .git) with the mutation applied."""
    dest = os.path.join(WORK, m["id"], "tree")
    shutil.rmtree(os.path.dirname(dest), ignore_errors=True)
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns("build", ".git", "__pycache__"), symlinks=True)
    if m["id"] == "null":
        return dest          # the control: the unmutated copy must survive every technique
    path = os.path.join(dest, m["file"])
    text = open(path).read()
    n = text.count(m["old"])
    if n != 1:
        raise RuntimeError("mutant %s does not apply: the text occurs %d times in %s (update the catalog)"
                           % (m["id"], n, m["file"]))
    open(path, "w").write(text.replace(m["old"], m["new"]))
    return dest


def first_fail(out, pats):
    """The first line matching the first pattern that matches any line (patterns by priority)."""
    for p in pats:
        for line in out.splitlines():
            if re.search(p, line):
                return line.strip()[:300]
    return out.strip().splitlines()[-1][:300] if out.strip() else "(no output)"


def t_tests(tree):
    rc, out = run_command(["make", "-s", "-j2", "build/tests/unit", "build/tests/unit-steps", "build/conformance/lockcheck"],
                 tree, timeout=300)
    if rc:
        return "stillborn", "does not compile: " + first_fail(out, [r"error"])
    for prog in ("build/tests/unit", "build/tests/unit-steps", "build/conformance/lockcheck"):
        rc, out = run_command([prog], tree, timeout=60)
        if rc:
            return "killed", "%s: %s" % (os.path.basename(prog), first_fail(out, [r"^not ok", r"TIMEOUT"]))
    return "survived", "unit, step-order and lock tests pass"


def schedules():
    base = os.path.join(ROOT, "build", "conformance", "schedules")
    if not all(os.path.exists("%s.v%d" % (base, v)) for v in (0, 1, 2)):
        rc, out = run_command([sys.executable, os.path.join(ROOT, "tests/conformance/gen.py"), "--tree", ROOT,
                      "--seeds", "20", "--trails", "10", "--out", base], ROOT, timeout=900)
        if rc:
            raise RuntimeError("cannot generate the pristine schedules: " + out[-500:])
    return base


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
    # the pristine C (the working tree's harnesses)
    rc, out = run_command(["make", "-s", "-j2", "conformance-bins"], ROOT, timeout=300)
    killed, ev = replay(os.path.join(ROOT, "build", "conformance"), base)
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


def t_wp(tree):
    rc, out = run_command(["make", "-n", "prove"], tree, timeout=60)
    if "src/core" not in out and "proofs/core.c" not in out:
        return "n/a", "make prove does not cover the core (src/core) at this commit"
    # Seed the copy's prover cache from the committed one: goals the mutation did not touch
    # replay, the changed ones go to the provers (a cold run takes 12 minutes or more).
    run_command(["make", "-s", "prove-cache-seed"], tree, timeout=120)
    rc, out = run_command(["make", "-s", "prove", "PROVE_CACHE=update"], tree, timeout=1800)
    if rc:
        return "killed", first_fail(out, [r"unproved", r"FAILED", r"rror"])
    return "survived", "every goal proved"


def applicable(m, t):
    if m["target"] == "c":
        # WP runs for minutes per copy: only on the mutants the catalog expects it to kill
        return t in ("tests", "conformance") or (t == "wp" and "wp" in m.get("expect", []))
    return t in ("spin", "conformance")


def run_one(m, techs):
    t0 = time.time()
    res = {}
    try:
        tree = copy_tree(m)
    except Exception as e:  # noqa: BLE001 - a catalog that no longer applies is reported
        return dict(m, results={"apply": {"result": "error", "detail": str(e)}}, killed_by=[], seconds=0)
    for t in TECHS:
        if t not in techs or not applicable(m, t):
            continue
        t1 = time.time()
        fn = {"tests": t_tests, "spin": t_spin, "wp": t_wp,
              "conformance": t_conformance_c if m["target"] == "c" else t_conformance_model}[t]
        r, detail = fn(tree)
        res[t] = {"result": r, "detail": detail, "seconds": round(time.time() - t1, 1)}
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
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "evidence", "mutants.json"))
    ap.add_argument("--one", default="")
    ap.add_argument("--technique", default="")
    a = ap.parse_args()
    cat = load()
    if a.one:
        m = next((x for x in cat if x["id"] == a.one), None)
        if a.one == "null":
            m = {"id": "null", "target": "model" if a.technique == "spin" else "c", "file": "-",
                 "old": "", "new": "", "description": "no mutation (control)", "breaks": []}
        if m is None:
            print("campaign: no mutant %s" % a.one)
            return 2
        r = run_one(m, {a.technique})
        if a.technique not in r["results"]:
            print("campaign: %s: %s" % (a.one, r["results"].get("apply", {}).get("detail", "technique not applicable")))
            return 2
        x = r["results"][a.technique]
        print("%s [%s] %s by %s: %s" % (m["id"], " ".join(m["breaks"]), x["result"], a.technique, x["detail"]))
        return 1 if x["result"] == "killed" else 0
    ids = [i for i in a.ids.split(",") if i]
    todo = [m for m in cat if not ids or m["id"] in ids]
    techs = set(a.techniques.split(","))
    t0 = time.time()
    if "conformance" in techs and any(m["target"] == "c" for m in todo):
        schedules()
        run_command(["make", "-s", "-j2", "conformance-bins"], ROOT, timeout=300)
    out = []
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        for r in pool.map(lambda m: run_one(m, techs), todo):
            res = "  ".join("%s=%s" % (t, v["result"]) for t, v in r["results"].items())
            print("%-36s %-5s %s  (%.0f s)" % (r["id"], r["target"], res, r["seconds"]), flush=True)
            out.append(r)
    secs = round(time.time() - t0, 1)
    # a mutant is valid when it compiles and applies; a technique that errs (tooling failure)
    # neither kills nor clears it, and makes the campaign fail
    valid = [r for r in out if not any(v["result"] == "stillborn" for v in r["results"].values())
             and "apply" not in r["results"]]
    errors = [r["id"] for r in out if any(v["result"] == "error" for v in r["results"].values())]
    killed = [r for r in valid if r["killed_by"]]
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    matrix = {"techniques": [t for t in TECHS if t in techs], "mutants": len(out), "valid": len(valid),
              "killed": len(killed), "kill_rate": round(len(killed) / len(valid), 3) if valid else 0,
              "seconds": secs, "by_technique": {t: sum(1 for r in valid if t in r["killed_by"]) for t in TECHS},
              "survivors": [r["id"] for r in valid if not r["killed_by"]],
              "invalid": [r["id"] for r in out if r not in valid], "tool_errors": errors,
              "rows": {r["id"]: {t: v["result"] for t, v in r["results"].items()} for r in out}}
    with open(os.path.splitext(a.out)[0] + "-matrix.json", "w") as f:
        json.dump(matrix, f, indent=1)
    print("mutants: %d (%d C, %d model), %d valid, %d killed (kill rate %.0f%%), survivors %s, invalid %s, "
          "technique errors %s; %.0f s"
          % (len(out), sum(r["target"] == "c" for r in out), sum(r["target"] == "model" for r in out),
             len(valid), len(killed), 100.0 * matrix["kill_rate"], matrix["survivors"] or "none",
             matrix["invalid"] or "none", errors or "none", secs))
    return 0 if len(killed) == len(valid) and not matrix["invalid"] and not errors else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""threaded.py - SPIN runs of promela/threaded.pml -> schedules replayed on the C core (REQ-IMPL-3).

The threaded protocol's conformance (tests/conformance/refinement.md, "Threaded schedules"):
random simulations of the shipped protocol's configurations (promela/properties.yml `threaded`,
the safety rows; SELF, whose refusal takes no step in the C, is left out) under SC, each a
schedule for tests/conformance/replay_threaded.c, which makes the real C take the same steps in
the same order and compares the values each step leaves and the end state.

The rewrites (the model is coarser or finer than the C; each listed in refinement.md):
  merge     a step the model splits into a load and a store (T_WAKE: the exchange, then the
            mask bit; D_CLEAR_INPROGRESS, T_FIN_CHECK, T_FIN_CLEAR, FREE_UNLINK) is one C step,
            placed at the model's first (the rest of it touches words under the lock only)
  recheck   the model asks the port S_CHIP under the lock and returns (S_RETURN) after the
            thread wait; the C returns from the hard wait (S_RETURN) after its S_UNLOCK and asks
            the port after that: S_UNLOCK and S_RETURN move to the model's S_CHIP (no lock step
            of another agent can fall in between: the lock is held there in the model), the
            model's S_RETURN goes; an S_CHIP after a re-check that saw INPROGRESS goes
  sleep     under SC the model's announce (mm_mb) prints nothing: the C's S_THREADS_SLEEP mark
            before the port's wait is put between the first two reads of a wait
  fold      a T_WAKEUP after a folded wake-up (T_FOLD) goes: the C kicks only a new episode; the
            model's thread, woken by it alone, tests run_pending and sleeps again: that test
            and sleep go too (a schedule where it took a run before its kick is not replayable:
            counted as `unreplayable`, at most UNREPLAYABLE_CAP per run)
Usage: threaded.py [--tree DIR] --seeds N --out FILE [--mapped FILE] [--harness BIN] [--json FILE]
  --tree: the tree whose promela/ is simulated (default: this one); the harness replays, prints
  one line per schedule and its summary; exit 1 when a schedule failed or none was made
"""
import argparse, concurrent.futures as cf, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROMELA = os.path.join(ROOT, "promela")
STEP_RE = re.compile(r"^\s*STEP (\d+) ([A-Z_]+)(?: addr=(\d+) val=(\d+))?\s*$")
VAR_RE = re.compile(r"^\s+(\w+)(?:\[(\d+)\])? = (-?\d+)\s*$")
# Simulations whose model thread takes a run before the C would have kicked it (the fold
# rewrite): not replayable, named in the summary; more than this many in one run fail it.
UNREPLAYABLE_CAP = 3
MERGE = {"T_WAKE", "D_CLEAR_INPROGRESS", "T_FIN_CHECK", "T_FIN_CLEAR", "FREE_UNLINK"}
# the model's words (promela/threaded.pml, read by layout()) -> the harness's names
WORDS = {"STATUS": "status", "FLAG": "flag", "WORK": "work", "TACT": "tact", "ACT": "act",
         "RUNP": "runp", "MASKW": "mask"}


def layout():
    """The model's addresses of the words the harness compares (#define NAME n)."""
    src = open(os.path.join(PROMELA, "threaded.pml")).read()
    addr = {}
    for macro, word in WORDS.items():
        m = re.search(r"^#define\s+%s\s+(\d+)\b" % macro, src, re.M)
        if not m:
            sys.exit(f"threaded.py: no #define {macro} in promela/threaded.pml")
        addr[int(m.group(1))] = word
    return addr


def configs():
    """The safety rows of properties.yml `threaded` that the harness can replay."""
    import yaml
    with open(os.path.join(PROMELA, "properties.yml")) as f:
        rows = yaml.safe_load(f)["threaded"]
    out = []
    for name, r in rows.items():
        d = dict(x.split("=", 1) if "=" in x else (x, "1") for x in r["defines"])
        if r["search"] != "dfs" or d.get("TH_SCEN") == "4":
            continue
        scen = {"1": "hard" if d.get("SYNC_HARD") == "1" else "sync", "2": "oneshot", "3": "free"}[d["TH_SCEN"]]
        oneshot = d.get("ONESHOT") == "1" or scen == "oneshot"
        out.append(dict(name=name, defines=r["defines"], scen=scen, oneshot=int(oneshot),
                        sharers=1 if oneshot else 2, reqs=r["requirements"]))
    return out


# Mapped replays (replay_threaded.c, mode=mapped): the counterexample of each known-bad model
# variant whose bug C can have, under SC, in the configuration [31-model-threaded] runs it in
# (its xfail line); the variant's switch is its twin's `defines` (twins/catalog.yml).  The
# shipped C must follow it without the race outcome; the C mutant with the same bug (the last
# column, a campaign mutant of the catalog) must show it ([80-conformance], the control).
# Left out: the early wake-up (68775ca79af3: the port's start-up, the harness's here), the
# waits from the line's own thread (the C refuses them before any step), the WEAK-only ones,
# and synchronize_hardirq used for synchronize_irq (a driver's bug, not the core's).
MAPPED = [
    ("threaded-self-count", ["TH_SCEN=1", "ARRIVALS=1", "ONLY_T1"], "c-thread-counts-itself"),
    ("threaded-count-after", ["TH_SCEN=1", "ARRIVALS=1", "ONLY_QUIET"], "c-count-after-raise"),
    ("threaded-fold-nowake", ["TH_SCEN=1", "ARRIVALS=2", "ONLY_QUIET"], "c-fold-nowake"),
    ("threaded-inflight", ["TH_SCEN=1", "ARRIVALS=1", "ONLY_HARD"], "c-inflight-ignored"),
    ("threaded-dec-early", ["TH_SCEN=1", "ONESHOT=1", "ARRIVALS=1", "ONLY_T1"], "c-uncount-before-finalisation"),
    ("threaded-fin-nowait", ["TH_SCEN=2", "ARRIVALS=2", "ONLY_OS_RUN"], "c-finalise-without-inprogress-wait"),
    ("threaded-no-unmask", ["TH_SCEN=2", "ARRIVALS=2", "ONLY_QUIET"], "c-no-unmask-when-not-woken"),
    ("threaded-stray-bit", ["TH_SCEN=1", "ARRIVALS=1", "ONLY_QUIET"], "c-stray-mask-bit"),
    ("threaded-stop", ["TH_SCEN=3", "FREE_WAIT=1", "ONLY_QUIET"], None),
]


def twin_defines(twin):
    import yaml
    with open(os.path.join(ROOT, "twins", "catalog.yml")) as f:
        for t in yaml.safe_load(f)["twins"]:
            if t.get("id") == twin:
                return t["defines"]
    sys.exit(f"threaded.py: no twin {twin} in twins/catalog.yml")


def counterexample(twin, conf, work):
    """The shortest counterexample (BFS) of the variant under SC: spin -t's output."""
    sys.path.insert(0, ROOT)
    from tools.model import pan
    defines = ["MM_SC"] + conf + twin_defines(twin)
    d = os.path.join(work, "pan-" + twin)
    res = pan.run(d, os.path.join(PROMELA, "threaded.pml"), defines,
                  ["-DMEMLIM=4096", "-DSAFETY", "-DBFS"], ["-m2000000"], timeout=600)
    result, detail = pan.verdict(res) if "fatal" not in res else ("fatal", res["fatal"])
    if result != "violate" or not res.get("trail_file"):
        raise RuntimeError(f"{twin}: no counterexample ({result}: {detail})")
    for f in os.listdir(PROMELA):     # spin -t needs the model's includes beside the trail
        src = os.path.join(PROMELA, f)
        if not os.path.exists(os.path.join(d, f)):
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(d, f))
    r = subprocess.run(["spin", "-t", "-k", res["trail_file"]] + ["-D" + x for x in defines] + ["threaded.pml"],
                       cwd=d, capture_output=True, text=True, timeout=120)
    if "STEP" not in r.stdout:
        raise RuntimeError(f"{twin}: spin -t printed no step: {r.stdout[-400:]}")
    return r.stdout, detail


def simulate(cfg, seed, work):
    cmd = ["spin", "-n%d" % seed, "-u20000", "-DMM_SC"] + ["-D" + d for d in cfg["defines"]] + ["threaded.pml"]
    r = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    if "assertion violated" in out or "STEP" not in out:
        raise RuntimeError("%s: %s" % (" ".join(cmd), out[-600:]))
    if "timeout" not in out:
        return None     # cut by -u before the end: no end state to compare
    return out


def parse(out, addr):
    steps, final = [], {}
    for line in out.splitlines():
        m = STEP_RE.match(line)
        if m:
            a, name = int(m.group(1)), m.group(2)
            chk = [(addr[int(m.group(3))], int(m.group(4)))] if m.group(3) and int(m.group(3)) in addr else []
            steps.append(dict(agent=a, step=name, chk=chk))
            continue
        m = VAR_RE.match(line)
        if m:
            final[(m.group(1), int(m.group(2)) if m.group(2) else None)] = int(m.group(3))
    return steps, final


def merge(steps):
    """merge: a model step split in two or three is one C step, at the model's first."""
    out, last = [], {}      # last: agent -> index in out of its last step
    for s in steps:
        i = last.get(s["agent"])
        if i is not None and s["step"] in MERGE and out[i]["step"] == s["step"]:
            out[i]["chk"] = [c for c in out[i]["chk"] if c[0] not in {w for w, _ in s["chk"]}] + s["chk"]
            continue
        out.append(dict(s, chk=list(s["chk"])))
        last[s["agent"]] = len(out) - 1
    return out


def drop_folded_wakeups(steps):
    """fold: the T_WAKEUP that follows a T_FOLD of the same agent goes."""
    out, folded = [], set()
    for s in steps:
        if s["step"] == "T_FOLD":
            folded.add(s["agent"])
        elif s["step"] == "T_WAKEUP" and s["agent"] in folded:
            folded.discard(s["agent"])
            continue
        out.append(s)
    return out


def move_recheck(steps):
    """recheck: S_UNLOCK (+ a C S_RETURN) move to the model's S_CHIP; an S_CHIP after a
    re-check that saw INPROGRESS goes; the model's S_RETURN goes."""
    out, pend = [], {}
    for s in steps:
        a, n = s["agent"], s["step"]
        if n == "S_RECHECK":
            st = next((v for w, v in s["chk"] if w == "status"), 0)
            pend[a] = "busy" if st & 1 else "clear"
        elif n == "S_CHIP":
            if pend.get(a) == "clear":
                out += [dict(agent=a, step="S_UNLOCK", chk=[]), dict(agent=a, step="S_RETURN", chk=[])]
                pend[a] = "moved"
            else:
                continue                        # busy: the C does not ask
        elif n == "S_UNLOCK":
            if pend.get(a) == "moved":
                pend.pop(a)
                continue
            if pend.pop(a, None) == "clear":    # no S_CHIP (synchronize_hardirq)
                out += [s, dict(agent=a, step="S_RETURN", chk=[])]
                continue
        elif n == "S_RETURN":
            continue
        out.append(s)
    return out


def insert_sleep_mark(steps):
    """sleep: the C's S_THREADS_SLEEP between the first two reads of a wait."""
    out, reads = [], {}
    for s in steps:
        a, n = s["agent"], s["step"]
        if n == "S_THREADS":
            reads[a] = reads.get(a, 0) + 1
            if reads[a] == 2:
                out.append(dict(agent=a, step="S_THREADS_SLEEP", chk=[]))
        elif n != "S_THREADS_SLEEP":
            reads.pop(a, None)
        out.append(s)
    return out


def drop_unkicked_tests(steps):
    """fold, the thread's side: the folded T_WAKEUP (gone) may have woken the model's thread,
    which then tests run_pending again (T_RUN) and sleeps (T_SLEEP): the C's thread, not
    kicked, sleeps on.  A test after a sleep with no kick or stop kept since the thread's last
    test goes with its T_SLEEP when it finds nothing; when it takes a run (the model's thread
    took a run raised before its kick) the C cannot follow: None."""
    out, woken, last, i = [], True, None, 0
    while i < len(steps):
        s = steps[i]
        if s["agent"] == 2 and s["step"] == "T_RUN":
            if last == "T_SLEEP" and not woken:
                nxt = next((t["step"] for t in steps[i + 1:] if t["agent"] == 2), None)
                if nxt != "T_SLEEP":
                    return None
                j = next(k for k in range(i + 1, len(steps)) if steps[k]["agent"] == 2)
                steps = steps[:j] + steps[j + 1:]
                i += 1
                continue
            woken = False
        elif s["step"] in ("T_WAKEUP", "T_STOP"):
            woken = True
        if s["agent"] == 2:
            last = s["step"]
        out.append(s)
        i += 1
    return out


def primary_answers(steps):
    """The primary's answer at each D_HANDLER: IRQ_WAKE_THREAD when the pass counts or wakes
    (its agent's T_COUNT / T_WAKE next)."""
    for i, s in enumerate(steps):
        if s["step"] == "D_HANDLER":
            nxt = [t["step"] for t in steps[i + 1:] if t["agent"] == s["agent"]][:3]
            s["w"] = int("T_COUNT" in nxt or "T_WAKE" in nxt)
    return steps


def rewrite(steps):
    """The model's steps -> the C's (module doc), or None when the C cannot follow them."""
    steps = insert_sleep_mark(move_recheck(drop_folded_wakeups(merge(steps))))
    steps = drop_unkicked_tests(steps)
    return None if steps is None else primary_answers(steps)


def mapped_schedule(twin, conf, mutant, addr, out):
    steps, _ = parse(out, addr)
    d = dict(x.split("=", 1) if "=" in x else (x, "1") for x in conf)
    scen = {"1": "hard" if d.get("SYNC_HARD") == "1" else "sync", "2": "oneshot", "3": "free"}[d["TH_SCEN"]]
    oneshot = int(d.get("ONESHOT") == "1" or scen == "oneshot")
    lines = [f"schedule trail/{twin}/sc" + (f" (C twin {mutant})" if mutant else ""),
             f"config scen={scen} oneshot={oneshot} sharers={1 if oneshot else 2} mode=mapped"]
    rw = rewrite(steps)
    if rw is None:
        raise RuntimeError(f"{twin}: the counterexample cannot be mapped (a run taken before its kick)")
    for s in rw:
        lines.append(" ".join(["S", str(s["agent"]), s["step"]] + ([f"w={s['w']}"] if "w" in s else [])))
    lines.append("end")
    return "\n".join(lines) + "\n"


def schedule(cfg, seed, addr, out):
    steps, final = parse(out, addr)
    mem = {w: final.get(("mem", a)) for a, w in addr.items()}
    lines = [f"schedule threaded/{cfg['name']}/sc/seed{seed}",
             f"config scen={cfg['scen']} oneshot={cfg['oneshot']} sharers={cfg['sharers']}"]
    rw = rewrite(steps)
    if rw is None:
        return None, len(steps)
    for s in rw:
        extra = ([f"w={s['w']}"] if "w" in s else []) + [f"{w}={v}" for w, v in s["chk"]]
        lines.append(" ".join(["S", str(s["agent"]), s["step"]] + extra))
    x = " ".join(f"{w}={v}" for w, v in mem.items() if v is not None)
    g = lambda k: final.get((k, None), 0)
    lines.append(f"expect {x} masked={g('hw_masked')} returned={g('returned') if cfg['scen'] != 'free' else g('freed')} exited={g('th_exited')}")
    lines.append("end")
    return "\n".join(lines) + "\n", len(steps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=ROOT)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--out", help="the schedule file (required but with --list-mapped)")
    ap.add_argument("--harness", help="replay the schedules with this binary")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--list-mapped", action="store_true", help="print TWIN|C MUTANT|ITS SOURCE "
                    "for each mapped counterexample with a C twin, and exit")
    ap.add_argument("--mapped", metavar="FILE", help="also write the mapped counterexamples here "
                    "(replayed with --harness after the simulations)")
    a = ap.parse_args()
    if a.list_mapped:
        import yaml
        with open(os.path.join(ROOT, "twins", "catalog.yml")) as f:
            src = {t["id"]: t["edit"]["file"] for t in yaml.safe_load(f)["twins"] if "edit" in t}
        for twin, _, mutant in MAPPED:
            if mutant:
                print(f"{twin}|{mutant}|{src[mutant]}")
        return
    if not a.out:
        ap.error("--out is required")
    global PROMELA
    PROMELA = os.path.join(os.path.abspath(a.tree), "promela")
    addr = layout()
    work = tempfile.mkdtemp(prefix="threaded-sched-")
    try:
        shutil.copytree(PROMELA, os.path.join(work, "p"))
        pdir = os.path.join(work, "p")
        jobs = [(c, s) for c in configs() for s in range(1, a.seeds + 1)]
        texts, cut, nsteps, unreplayable = [], 0, 0, []

        def one(job):
            c, s = job
            d = tempfile.mkdtemp(dir=work)
            for f in os.listdir(pdir):
                src = os.path.join(pdir, f)
                (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(d, f))
            return c, s, simulate(c, s, d)
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            for c, s, out in ex.map(one, jobs):
                if out is None:
                    cut += 1
                    continue
                t, n = schedule(c, s, addr, out)
                if t is None:
                    unreplayable.append(f"{c['name']}/seed{s}")
                    continue
                texts.append(t)
                nsteps += n
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(a.out, "w") as f:
        f.writelines(texts)
    mapped_texts = []
    if a.mapped:
        work = tempfile.mkdtemp(prefix="threaded-cex-")
        try:
            with cf.ThreadPoolExecutor(a.jobs) as ex:
                for (twin, conf, mutant), (out, detail) in zip(MAPPED, ex.map(
                        lambda m: counterexample(m[0], m[1], work), MAPPED)):
                    mapped_texts.append(mapped_schedule(twin, conf, mutant, addr, out))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        with open(a.mapped, "w") as f:
            f.writelines(mapped_texts)
    if len(unreplayable) > UNREPLAYABLE_CAP:
        sys.exit(f"threaded.py: {len(unreplayable)} simulations not replayable, more than the cap of "
                 f"{UNREPLAYABLE_CAP}: {', '.join(unreplayable)}")
    summary = dict(configs=[c["name"] for c in configs()], schedules=len(texts), cut=cut,
                   unreplayable=unreplayable,
                   model_steps=nsteps, memory_model="sc", mapped_schedules=len(mapped_texts),
                   mapped_twins=[m[0] for m in MAPPED] if a.mapped else [])
    if a.harness:
        r = subprocess.run([a.harness], input="".join(texts + mapped_texts), capture_output=True,
                           text=True, timeout=1800)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        summary.update(harness_rc=r.returncode,
                       failed=[l for l in r.stdout.splitlines() if l.startswith("FAIL")],
                       result=(r.stdout.strip().splitlines() or ["(no output)"])[-1])
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "failed"}))
    if not texts or (a.harness and summary["harness_rc"] != 0):
        sys.exit(1)


if __name__ == "__main__":
    main()

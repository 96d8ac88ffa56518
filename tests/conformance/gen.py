#!/usr/bin/env python3
"""gen.py - SPIN runs -> replay schedules, mapped through the refinement map (REQ-IMPL-3).

Two sources of schedules:
  * random simulations of the model:  spin -n<seed> -u<steps> [-p] -D... irqsync.pml
  * counterexample trails of the known-bad variants: spin -a; pan -e -c<N>; spin -t<k> -p
Each SPIN run's `STEP <cpu> <name>` lines (and, under TSO, the steps of the store-buffer
flushers) become a schedule; the final global state printed by SPIN becomes the expected end
state. The mapping (names, merges, stores, drains, held steps) comes from the refinement map,
spec/refinement.yml (its `replay` section and each step's accesses: load_map); the rewrites
(merge, EN_REPLAY, flush) are those of tests/conformance/refinement.md.

Usage: gen.py --tree DIR --seeds N --out FILE [--trails N] [--only sync,free,depth]
Writes the schedules (format: tests/conformance/replay.c) grouped by the build that must
replay them: FILE.v0, FILE.v1, FILE.v2 (which includes every v0/v1 counterexample as a mapped
schedule, also written alone to FILE.mapped for the v0 control); prints a JSON summary on stdout.
"""
import argparse, concurrent.futures as cf, json, os, re, shutil, subprocess, sys, tempfile, threading

_TMP = []

HERE = os.path.dirname(os.path.abspath(__file__))
STEP_RE = re.compile(r"^\s*STEP (\d+) ([A-Z_]+)(?: addr=(\d+) val=(\d+))?\s*$")
# TSO flushes the oldest entry; WEAK names the entry it drains (any order the model allows)
FLUSH_RE = re.compile(r"^\s*FLUSH (\d+) addr=(\d+) val=(\d+)(?: entry=(\d+))?\s*$")
VAR_RE = re.compile(r"^\s+(\w+)(?:\[(\d+)\])? = (-?\d+)\s*$")
ASSERT_RE = re.compile(r"text of failed assertion: assert\((.*)\)")
# the model's assertions -> the violation names the harness uses
VIOLATIONS = [("returned&&(stale>0)", "ltl-sync"), ("probe_hit", "none"), ("!(returned)", "sync3-read"), ("(stale==0)", "sync3-return"),
              ("(before==0)", "sync1"), ("(frun==0)", "lifecycle5"), ("(fl>=wmust[", "sync2"),
              ("dis_window", "depth1")]
# The model's addresses of line 0 (read from promela/irq.pml by layout(); defaults for the doc)
STATUS, FLAG, DLOCK0 = 0, 2, 6
WORDS = {0: "status", 2: "flag", 3: "act", 6: "lock"}


def layout(pdir):
    """Read the shared-memory layout of line 0 from promela/irq.pml (#define STATUS(l) ...)."""
    global STATUS, FLAG, DLOCK0, WORDS
    src = open(os.path.join(pdir, "irq.pml")).read()

    def addr(name, param):
        m = re.search(r"#define\s+%s%s\s+\(?\s*(\d+)?\s*\+?\s*\(?l?\)?\s*\)?" % (name, r"\(l\)" if param else ""), src)
        if not m:
            sys.exit("gen.py: no #define %s in promela/irq.pml: the refinement needs the layout" % name)
        return int(m.group(1) or 0)
    STATUS, FLAG, act, DLOCK0 = addr("STATUS", True), addr("FLAG", False), addr("ACT", True), addr("DLOCK", True)
    WORDS = {STATUS: "status", FLAG: "flag", act: "act", DLOCK0: "lock"}
    # REQ-SYNC-2's completion words, WORK(c) = base + c for handler CPUs c = 1..4 (if the model has them)
    m = re.search(r"#define\s+WORK\(c\)\s+\(\s*(\d+)\s*\+\s*\(c\)\s*\)", src)
    if m:
        WORDS.update({int(m.group(1)) + c: "work%d" % c for c in range(1, 5)})


def load_map(path):
    """The replay's rows, from the refinement map (spec/refinement.yml, its `replay` section):
    model step -> (C step, stores, flags), and the merged steps.  flags: 1 drain, 2 locked
    (held), 4 acquires the descriptor lock (what the mapped continuation must know, replay.c
    "the mapped continuation").  Derived from each step's model-side accesses."""
    import yaml
    with open(path) as f:
        rmap = yaml.safe_load(f)
    rp, objects = rmap.get("replay") or {}, rmap.get("objects") or {}
    skip, held = set(rp.get("not_scheduled") or {}), set(rp.get("held") or [])
    names = {st["step"] for st in rmap.get("steps", [])}
    for n in sorted((skip | held | set(rp.get("merge") or [])) - names):
        sys.exit(f"gen.py: {path}: replay names {n}, not a step of the map")
    rows = {}
    for st in rmap.get("steps", []):
        n = st["step"]
        if n in skip:
            continue
        acc = [a for a in st.get("access") or [] if a.get("only") != "c" and not a.get("model_in")]
        stores = set()
        for a in acc:
            if a["op"] in ("store", "unlock"):
                if "word" not in objects.get(a["object"], {}):
                    sys.exit(f"gen.py: {path}: step {n} stores {a['object']}, which has no replay word")
                stores.add(objects[a["object"]]["word"])
        drain = any(a["op"] in ("lock", "fence") for a in acc)
        acquires = any(a["op"] == "lock" and a["object"] == "desc.lock" for a in acc)
        rows[n] = (n, ",".join(sorted(stores)) or "-",
                   (1 if drain else 0) | (2 if n in held else 0) | (4 if acquires else 0))
    merge = set(rp.get("merge") or [])
    if not rows or not merge:
        sys.exit(f"gen.py: no replay rows or merge list in {path}")
    return rows, merge


def parse_run(text):
    """SPIN output -> (events, final globals, violation)."""
    events, final, violation = [], {}, "none"
    tail = False
    for line in text.splitlines():
        if line.startswith("#processes"):
            tail = True
            continue
        if tail:
            m = VAR_RE.match(line)
            if m:
                name, idx, val = m.group(1), m.group(2), int(m.group(3))
                if idx is None:
                    final[name] = val
                else:
                    final.setdefault(name, {})[int(idx)] = val
            continue
        m = STEP_RE.match(line)
        if m:
            acc = None if m.group(3) is None else (int(m.group(3)), int(m.group(4)))
            events.append(["S", int(m.group(1)), m.group(2), acc])
            continue
        m = FLUSH_RE.match(line)
        if m:
            if int(m.group(2)) not in WORDS:
                raise ValueError("a flush of address %s, which refinement.md does not map" % m.group(2))
            events.append(["F", int(m.group(1)), WORDS[int(m.group(2))],
                           None if m.group(4) is None else int(m.group(4))])
            continue
        m = ASSERT_RE.search(line)
        if m and violation == "none":      # spin -t goes on past the first; pan stopped there
            text_ = m.group(1).replace(" ", "")
            violation = next((v for k, v in VIOLATIONS if k in text_), "other:" + text_)
    return events, final, violation


def rewrite(events, merge, tso):
    """The three rewrites of refinement.md.  Returns the new list, or None if not replayable."""
    # merge: the first of each same-named pair of one CPU goes
    seen, out = {}, []
    for ev in events:
        if ev[0] == "S" and ev[2] in merge:
            key = (ev[1], ev[2])
            seen[key] = seen.get(key, 0) + 1
            if seen[key] % 2 == 1:
                continue
        out.append(ev)
    events = out
    # replay: EN_REPLAY after EN_UNLOCK; the next arrival's dispatch moves to the enabling CPU
    while any(ev[0] == "S" and ev[2] == "EN_REPLAY" and len(ev) == 4 for ev in events):
        if tso:
            return None          # the moved dispatch's stores would sit in another CPU's buffer
        i = next(i for i, ev in enumerate(events) if ev[0] == "S" and ev[2] == "EN_REPLAY" and len(ev) == 4)
        e = events[i][1]
        rep = events.pop(i)
        j = next((j for j in range(i, len(events)) if events[j][0] == "S" and events[j][1] == e
                  and events[j][2] == "EN_UNLOCK"), None)
        if j is None:
            return None
        events.insert(j + 1, rep + [("moved", 1)])
        k = next((k for k in range(i, len(events)) if events[k][0] == "S" and events[k][2] == "IRQ_ARRIVE"), None)
        if k is None:
            continue             # nobody took the re-raised line yet: C's CPU waits at D_LOCK
        cpu = events[k][1]
        del events[k]
        prev = None
        for ev in events[k:]:
            if ev[0] == "S" and ev[1] == cpu:
                ev[1] = e
                if ev[2] == "D_UNLOCK_END" or (ev[2] == "D_UNLOCK" and prev == "D_SET_PENDING"):
                    break
                prev = ev[2]
    return events


def insert_fences(events, cfg):
    """fence: SC's smp_mb is a no-op the model does not mark; the C marks it (DRV_MB, S_MB)."""
    if cfg["mm"] != "sc" or any(ev[0] == "S" and ev[2] in ("DRV_MB", "S_MB") for ev in events):
        return events
    out, need_drv, in_sync = [], cfg["scen"] == "sync" and cfg["caller_mb"], False
    for ev in events:
        if ev[0] == "S" and ev[1] == 0:
            if need_drv and ev[2] != "DRV_STORE_FLAG":
                out.append(["S", 0, "DRV_MB", None])
                need_drv = False
            if ev[2] == "S_SPIN_READ" and not in_sync and cfg["variant"] == 1:
                out.append(["S", 0, "S_MB", None])
            if ev[2].startswith("S_"):
                in_sync = ev[2] != "S_RETURN"
        out.append(ev)
    return out


def relax_masks(events):
    """relax: after an enable_irq that replays, the C keeps PENDING set until the replayed
    dispatch's D_SET_INPROGRESS; the model clears it at EN_DEPTH_DEC. Status values compared
    in between ignore PENDING (mask 5). Returns the mask in force at the end."""
    mask = 7
    for i, ev in enumerate(events):
        if ev[0] != "S":
            continue
        if ev[2] == "EN_DEPTH_DEC":
            later = [e for e in events[i + 1:] if e[0] == "S" and e[1] == ev[1]]
            if len(later) > 1 and later[0][2] == "EN_UNLOCK" and later[1][2] == "EN_REPLAY":
                mask = 5
        elif ev[2] == "D_SET_INPROGRESS" and mask == 5:
            ev.append(("mask", 5))   # the replay's own D_SET_INPROGRESS clears it in the C
            mask = 7
            continue
        if mask != 7:
            ev.append(("mask", mask))
    return mask


def expected(final, events, violation, ncpu):
    mem = final.get("mem", {})
    sb_a, sb_v, sb_n = final.get("sb_a", {}), final.get("sb_v", {}), final.get("sb_n", {})
    sbd = len(sb_a) // ncpu if sb_a else 0

    def view(c, a):
        for i in reversed(range(sb_n.get(c, 0))):
            if sb_a.get(c * sbd + i) == a:
                return sb_v.get(c * sbd + i)
        return mem.get(a, 0)
    inst = final.get("inst", {})
    return ("expect status=%s depth=%d flag0=%d stale=%d returned=%d inst=%s lock=%d passes=%d violation=%s"
            % (",".join(str(view(c, STATUS) & 7) for c in range(ncpu)), view(0, STATUS) >> 3,
               view(0, FLAG), final.get("stale", 0), final.get("returned", 0),
               ",".join("1" if inst.get(c, 0) else "0" for c in range(ncpu)),
               1 if final.get("lk_owner", {}).get(DLOCK0, 0) else 0,
               sum(1 for ev in events if ev[0] == "S" and ev[2] == "D_RELOCK"), violation))


def to_schedule(sid, cfg, events, final, violation, table, mode="match"):
    events = insert_fences(events, cfg)
    smask = relax_masks(events)
    lines = [f"schedule {sid}",
             "config variant=%d tso=%d scen=%s ncpu=%d sharers=%d caller_mb=%d mode=%s "
             "check_sync1=%d check_flag=%d ltl_sync=%d sync2=%d weak=%d"
             % (cfg["variant"], cfg["mm"] != "sc", cfg["scen"], cfg["ncpu"], cfg["sharers"],
                cfg["caller_mb"], mode, cfg.get("check_sync1", 1), cfg.get("check_flag", 1),
                cfg.get("ltl_sync", 0), cfg.get("sync2", 0), cfg["mm"] == "weak")]
    for ev in events:
        if ev[0] == "F":
            lines.append(f"F {ev[1]} {ev[2]}" + ("" if ev[3] is None else f" {ev[3]}"))
            continue
        if ev[2] not in table:
            raise ValueError(f"model step {ev[2]} has no replay row in spec/refinement.yml")
        c, stores, drain = table[ev[2]]
        if c == "-":
            continue
        # the value the model read or wrote, for the words the harness can see
        acc = ev[3]
        val = ""
        word = WORDS.get(acc[0], "") if acc else ""
        if word in ("status", "flag") or word.startswith("work"):
            own = word.startswith("work") and "work" in stores.split(",")   # a CPU's own WORK(c)
            kind = "st" if word in stores.split(",") or own else "ld"
            mask = next((x[1] for x in ev[4:] if isinstance(x, tuple) and x[0] == "mask"), 7)
            val = " %s=%s:%d/%d" % (kind, WORDS[acc[0]], acc[1], mask)
        lines.append(f"S {ev[1]} {c} {stores} {drain}{val}")
    lines.append(expected(final, events, violation, cfg["ncpu"]) + " smask=%d" % smask)
    lines.append("end")
    return "\n".join(lines) + "\n"


def mapped_prefix(events):
    """A v0/v1 counterexample as a mapped schedule for any build (spec/conformance.md, "Mapped
    replays"): the events before the driver's S_RETURN, where v0/v1 return from synchronize_irq,
    without v1's S_MB (v2 has no such step; the flushes it waited for stay).  From there the
    harness runs its continuation.  None if the driver never returns in the trail."""
    end = next((i for i, ev in enumerate(events) if ev[0] == "S" and ev[1] == 0 and ev[2] == "S_RETURN"), None)
    if end is None:
        return None
    return [ev for ev in events[:end] if not (ev[0] == "S" and ev[1] == 0 and ev[2] == "S_MB")]


def to_mapped(sid, cfg, events, violation, table):
    """The mapped schedule of a counterexample, with the rows of refinement.md the continuation
    needs (`M` lines); every property is checked (replay.c), so no check_* flags."""
    prefix = mapped_prefix(events)
    if prefix is None:
        return None
    lines = to_schedule(sid, dict(cfg, variant=2), prefix, {}, violation, table, "mapped").splitlines()
    lines = [l for l in lines if not l.startswith(("expect ", "end"))]
    rows = sorted(set((c, stores, flags) for c, stores, flags in table.values() if c != "-"))
    lines += ["M %s %s %d" % r for r in rows]
    # the harness reads only `violation` here: the counterexample's, named in its messages
    lines += ["expect violation=%s" % violation, "end"]
    return "\n".join(lines) + "\n"


SCEN_D = {"sync": "SCEN_SYNC", "free": "SCEN_FREE", "depth": "SCEN_DEPTH"}


def dflags(cfg):
    return ["-DMM_" + cfg["mm"].upper(), "-DVARIANT=%d" % cfg["variant"], "-DSCEN=" + SCEN_D[cfg["scen"]],
            "-DNCPU=%d" % cfg["ncpu"], "-DARRIVALS=%d" % cfg["arrivals"], "-DSHARERS=%d" % cfg["sharers"],
            "-DCALLER_MB=%d" % cfg["caller_mb"], "-DNLINES=1"] + \
        (["-DCHECK_SYNC2=1", "-DCHECK_SYNC1=0", "-DCHECK_FLAG=0"] if cfg.get("sync2") else [])


def cfg_name(cfg):
    return "%s-v%d-%s-mb%d-c%d-a%d-s%d" % (cfg["scen"] + ("2" if cfg.get("sync2") else ""), cfg["variant"],
                                         cfg["mm"], cfg["caller_mb"], cfg["ncpu"], cfg["arrivals"], cfg["sharers"])


def seeds_of(cfg, seeds):
    """The SYNC-2 runs take half the seeds (at least 1): 15 configurations on top of the 72,
    within 80-conformance's time budget; their WEAK counterexamples are all replayed."""
    return max(1, seeds // 2) if cfg.get("sync2") and seeds else seeds


def configs(only):
    out = []
    for v in (0, 1, 2):
        for mm in ("sc", "tso"):
            for mb in (0, 1):
                for n in (2, 3):
                    for a in (1, 3):
                        out.append(dict(scen="sync", variant=v, mm=mm, caller_mb=mb, ncpu=n, arrivals=a, sharers=1))
            for n in (2, 3):
                out.append(dict(scen="free", variant=v, mm=mm, caller_mb=1, ncpu=n, arrivals=2, sharers=2))
        for n in (2, 3):
            for a in (1, 2):
                out.append(dict(scen="depth", variant=v, mm="sc", caller_mb=1, ncpu=n, arrivals=a, sharers=1))
        # REQ-SYNC-2 runs (CHECK_SYNC2, its check alone, as the model matrix's sync-visible):
        # the handler's completion H_DONE and the driver's reads DRV_READ_DONE after the return
        # (WEAK: 2 CPUs, its buffers drained in the model's order, early loads; refinement.md)
        for mm, n in (("sc", 2), ("sc", 3), ("tso", 2), ("tso", 3), ("weak", 2)):
            out.append(dict(scen="sync", variant=v, mm=mm, caller_mb=0, ncpu=n, arrivals=2, sharers=1,
                            sync2=1, check_sync1=0, check_flag=0))
    return [c for c in out if c["scen"] in only or (c.get("sync2") and "sync2" in only)]


_local = threading.local()


def copy_model(pdir, dest):
    for f in os.listdir(pdir):
        s = os.path.join(pdir, f)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(dest, f))
        elif f.endswith(".pml"):
            shutil.copy(s, os.path.join(dest, f))


def simulate(pdir, cfg, seed):
    # spin preprocesses into a file of its working directory: one private copy per worker
    if getattr(_local, "dir", None) is None:
        _local.dir = tempfile.mkdtemp(prefix="sim-")
        copy_model(pdir, _local.dir)
        _TMP.append(_local.dir)
    cmd = ["spin", "-n%d" % seed, "-u4000"] + dflags(cfg) + ["irqsync.pml"]
    r = subprocess.run(cmd, cwd=_local.dir, capture_output=True, text=True, timeout=60)
    if "STEP" not in r.stdout:
        raise RuntimeError("spin produced no STEP line: %s\n%s" % (" ".join(cmd), (r.stdout + r.stderr)[-800:]))
    return r.stdout


def trails(pdir, cfg, n):
    """Counterexample trails of one known-bad configuration: [(k, spin -t output)]."""
    work = tempfile.mkdtemp(prefix="trail-")
    try:
        copy_model(pdir, work)
        subprocess.run(["spin", "-a"] + dflags(cfg) + ["irqsync.pml"], cwd=work, check=True,
                       capture_output=True, timeout=120)
        # -O0: these state spaces are tiny (thousands of states), so -O2's compile time (about
        # 6x longer) is most of a trail's cost and buys nothing
        subprocess.run(["gcc", "-O0", "-DSAFETY", "-o", "pan", "pan.c"], cwd=work, check=True,
                       capture_output=True, timeout=300)
        r = subprocess.run(["./pan", "-m20000", "-e", "-c%d" % n], cwd=work, capture_output=True, text=True,
                           timeout=300)
        m = re.search(r"errors: (\d+)", r.stdout)
        if not m:
            raise RuntimeError("pan: " + r.stdout[-500:])
        out = []
        names = sorted((f for f in os.listdir(work) if re.match(r"irqsync\.pml\d*\.trail$", f)),
                       key=lambda f: int(re.sub(r"\D", "", f) or 0))
        for f in names:
            k = int(re.sub(r"\D", "", f) or 0)
            t = subprocess.run(["spin", "-t%d" % k if k else "-t"] + dflags(cfg) + ["irqsync.pml"],
                               cwd=work, capture_output=True, text=True, timeout=60)
            out.append((k, t.stdout))
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def saved_trails(tdir):
    """The model runner's saved trails (build/evidence/trails/<run>.replay.sh + .trail) that the
    harness can replay: protocol runs of the SYNC/FREE/DEPTH scenarios, SC or TSO, one line."""
    out, skipped = [], {}
    for f in sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []:
        if not (f.startswith("protocol-") and f.endswith(".replay.sh")):
            continue
        line = next((l for l in open(os.path.join(tdir, f)) if "exec spin" in l), "")
        d = dict(re.findall(r"-D(\w+)(?:=(\S+))?", line))
        trail = os.path.join(tdir, f[:-len(".replay.sh")] + ".trail")
        why = None
        if d.get("SCEN", "SCEN_SYNC") not in ("SCEN_SYNC", "SCEN_FREE", "SCEN_DEPTH"):
            why = "scenario"
        elif d.get("NLINES", "1") != "1":
            why = "two lines"
        elif d.get("SCEN") == "SCEN_FREE" and d.get("SHARERS", "1") == "1":
            why = "free of the last action (refinement.md: not replayed)"
        elif "LTL_TERM" in d:
            why = "liveness claim"
        elif "CHAIN_BUG" in d:
            why = "a bug seeded in the model (CHAIN_BUG): the C has not got it"
        elif not os.path.exists(trail):
            why = "no trail"
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        scen = {"SCEN_SYNC": "sync", "SCEN_FREE": "free", "SCEN_DEPTH": "depth"}[d.get("SCEN", "SCEN_SYNC")]
        mm = "weak" if "MM_WEAK" in d else "tso" if "MM_TSO" in d else "sc"
        cfg = dict(scen=scen, variant=int(d.get("VARIANT", 2)), mm=mm,
                   caller_mb=int(d.get("CALLER_MB", 1)), ncpu=int(d.get("NCPU", 2)),
                   arrivals=int(d.get("ARRIVALS", 1)), sharers=int(d.get("SHARERS", 1)),
                   check_sync1=int(d.get("CHECK_SYNC1", 1)), check_flag=int(d.get("CHECK_FLAG", 1)),
                   ltl_sync=1 if "LTL_SYNC" in d else 0, sync2=int(d.get("CHECK_SYNC2", 0)))
        flags = ["-D%s" % k + ("=%s" % v if v else "") for k, v in d.items()]
        out.append((f[:-len(".replay.sh")], cfg, flags, trail))
    return out, skipped


def replay_saved(pdir, flags, trail):
    if getattr(_local, "dir", None) is None:
        _local.dir = tempfile.mkdtemp(prefix="sim-")
        copy_model(pdir, _local.dir)
        _TMP.append(_local.dir)
    r = subprocess.run(["spin", "-t", "-k", trail] + flags + ["irqsync.pml"], cwd=_local.dir,
                       capture_output=True, text=True, timeout=60)
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default=".")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--trails", type=int, default=10, help="trails per known-bad configuration")
    ap.add_argument("--only", default="sync,free,depth")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--saved", default="", help="the model runner's trail directory (build/evidence/trails)")
    ap.add_argument("--out")
    ap.add_argument("--print-table", action="store_true",
                    help="print the replay rows derived from spec/refinement.yml and exit")
    a = ap.parse_args()
    tree = os.path.abspath(a.tree)
    table, merge = load_map(os.path.join(tree, "spec/refinement.yml"))
    if a.print_table:
        flags = ((1, "drain"), (2, "locked"), (4, "acquires"))
        print("| model | C | stores | flags |\n|---|---|---|---|")
        for n, (c, st, f) in table.items():
            print(f"| {n}{' (merged)' if n in merge else ''} | {c} | {st} | "
                  f"{' '.join(w for b, w in flags if f & b)} |")
        return 0
    if not a.out:
        ap.error("--out is required")
    pdir = os.path.join(tree, "promela")
    if not os.path.exists(os.path.join(pdir, "irqsync.pml")):
        sys.exit("gen.py: no promela/irqsync.pml in " + tree)
    layout(pdir)
    cfgs = configs(a.only.split(","))
    groups = {0: [], 1: [], 2: [], "mapped": []}
    stats = {"simulations": 0, "trails": 0, "skipped": 0, "by_scenario": {}, "mapped": 0,
             "mapped_skipped": 0}

    def add_mapped(sid, cfg, ev, viol):
        """A v0/v1 counterexample, mapped for v2 (and for the v0 control, FILE.mapped)."""
        sched = to_mapped(sid + "/mapped", cfg, ev, viol, table)
        if sched is None:
            stats["mapped_skipped"] += 1      # the driver never returns in it: nothing to map
            return
        groups[2].append(sched)
        groups["mapped"].append(sched)
        stats["mapped"] += 1

    def one(cfg, seed):
        ev, final, viol = parse_run(simulate(pdir, cfg, seed))
        ev = rewrite(ev, merge, cfg["mm"] != "sc")
        if ev is None:
            return cfg, None
        return cfg, to_schedule("sim/%s/seed%d" % (cfg_name(cfg), seed), cfg, ev, final, viol, table)

    with cf.ThreadPoolExecutor(a.jobs) as pool:
        futs = [pool.submit(one, c, s) for c in cfgs for s in range(1, seeds_of(c, a.seeds) + 1)]
        for f in futs:
            cfg, sched = f.result()
            if sched is None:
                stats["skipped"] += 1
                continue
            groups[cfg["variant"]].append(sched)
            stats["simulations"] += 1
            scen = cfg["scen"] + ("2" if cfg.get("sync2") else "")     # sync2: the REQ-SYNC-2 runs
            stats["by_scenario"][scen] = stats["by_scenario"].get(scen, 0) + 1
        # counterexample trails of the known-bad variants (TSO, the tg3 scenario)
        bad = [dict(scen="sync", variant=v, mm="tso", caller_mb=mb, ncpu=2, arrivals=1, sharers=1)
               for v in (0, 1) for mb in (0, 1)] if a.trails and "sync" in a.only else []
        # WEAK: v0 and v1 break REQ-SYNC-2 (the completion store drains after INPROGRESS clear)
        bad += [dict(scen="sync", variant=v, mm="weak", caller_mb=0, ncpu=2, arrivals=2, sharers=1,
                     sync2=1, check_sync1=0, check_flag=0)
                for v in (0, 1)] if a.trails and "sync" in a.only else []
        tfuts = [(cfg, pool.submit(trails, pdir, cfg, a.trails)) for cfg in bad]
        stats["trail_configs"] = {}
        for cfg, f in tfuts:
            got = f.result()
            stats["trail_configs"][cfg_name(cfg)] = len(got)
            for k, text in got:
                ev, final, viol = parse_run(text)
                ev = rewrite(ev, merge, True)
                sid = "trail/%s/%d" % (cfg_name(cfg), k)
                groups[cfg["variant"]].append(to_schedule(sid, cfg, ev, final, viol, table))
                add_mapped(sid, cfg, ev, viol)
                stats["trails"] += 1
        # the model runner's saved counterexamples (and probe witnesses)
        stats["saved"], stats["saved_skipped"] = 0, {}
        if a.saved:
            runs, stats["saved_skipped"] = saved_trails(a.saved)
            for name, cfg, flags, trail in runs:
                text = pool.submit(replay_saved, pdir, flags, trail).result()
                if "no matching stmnt" in text or "STEP" not in text:
                    stats["saved_skipped"]["stale trail (model changed since)"] = \
                        stats["saved_skipped"].get("stale trail (model changed since)", 0) + 1
                    continue
                try:
                    ev, final, viol = parse_run(text)
                except ValueError as e:
                    key = "unmapped: " + str(e)
                    stats["saved_skipped"][key] = stats["saved_skipped"].get(key, 0) + 1
                    continue
                ev = rewrite(ev, merge, cfg["mm"] != "sc")
                if ev is None:
                    stats["saved_skipped"]["tso replay"] = stats["saved_skipped"].get("tso replay", 0) + 1
                    continue
                sid = "saved/" + name
                try:
                    sched = to_schedule(sid, cfg, ev, final, viol, table)
                except ValueError as e:          # a step the C does not mark (yet)
                    key = "unmapped: " + str(e)
                    stats["saved_skipped"][key] = stats["saved_skipped"].get(key, 0) + 1
                    continue
                groups[cfg["variant"]].append(sched)
                if cfg["variant"] in (0, 1) and viol != "none":
                    add_mapped(sid, cfg, ev, viol)
                stats["saved"] += 1
    for d in _TMP:
        shutil.rmtree(d, ignore_errors=True)
    for v, scheds in groups.items():
        with open("%s.%s" % (a.out, v if v == "mapped" else "v%d" % v), "w") as f:
            f.write("".join(scheds))
    stats["schedules"] = {(v if v == "mapped" else "v%d" % v): len(s) for v, s in groups.items()}
    print(json.dumps(stats))


if __name__ == "__main__":
    main()

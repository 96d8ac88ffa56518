"""tools/model/matrix.py -- the SPIN matrix of irqsync (driven by mk/model.mk).

  python3 -m tools.model.matrix --set full|quick     every litmus test under every memory model,
                                        and the protocol scenarios x variants x memory models
  python3 -m tools.model.matrix --cpus 4 --lines 2 --mm weak --variant v2
                                        one configuration (protocol rows)
  python3 -m tools.model.matrix --threaded-cases
                                        the threaded holds, a line each ([31-model-threaded])
  python3 -m tools.model.matrix --set quick --shard 1/2
                                        shard 1 of 2 of that matrix -> build/model/shards/
                                        quick-1-of-2.json (merge: tools/model/merge.py)

Both sets also hold: the chain walk on a line of 2 sharers and its seeded bugs (REQ-DISPATCH-4),
the ticket lock against the test-and-set lock (promela/ticket.pml, REQ-LOCK-2) and concurrent
request_irq with its seeded bugs (promela/request.pml, REQ-LIFECYCLE-2), and the threaded
protocol's holding runs (promela/threaded.pml, REQ-THREAD-*, REQ-ONESHOT-*); the full set adds the
store-buffer depth / history saturation rows and their derived checks (REQ-MM-6).

Each row is one pan run; the row passes when its result equals its expected result, and an
expected violation passes only when pan reports the specific assertion or claim of the row
(its `match` regex).  A run cut short by the depth or memory limit is "incomplete", never
"hold" (the rule is pan.verdict's).  Results: build/evidence/model.json (the format of
spec/evidence-schema.md, every path in it relative to the repository); each violation's shortest
(-DBFS) trail, its one-command replay and a text rendering under build/evidence/trails/.
A shard runs the rows the deterministic, cost-balanced split (shard_assignment) gives it and
writes a partial result: its runs, the trails they left, a hash of the model sources, the tool
versions and a hash of the whole matrix definition; merge.py checks and joins the shards and
applies the same verdict rule (spec/memory-models.md, "Shards").  A shard exits 1 when one of its
rows is not as expected.  pan binaries are reused by content (build/model/pan-cache).
Exit status: 0 all rows as expected, 1 otherwise, 2 bad arguments.
"""
import argparse, base64, hashlib, json, os, re, subprocess, sys, time, zlib
from concurrent.futures import ThreadPoolExecutor

from tools import stamp
from tools.model import pan

ROOT = pan.ROOT
PROMELA = os.path.join(ROOT, "promela")
MODEL = os.path.join(PROMELA, "irqsync.pml")
LIMITS = {"cpus": (2, 5), "lines": (1, 2), "arrivals": (1, 4), "sharers": (1, 2)}
MMS = ("sc", "tso", "weak")
VARIANTS = ("v0", "v1", "v2")
MM_REQ = {"sc": "REQ-MM-1", "tso": "REQ-MM-2", "weak": "REQ-MM-3"}
# pan -m: the deepest matrix run reaches depth ~900; a run deeper than the limit is reported
# "incomplete" (pan: "max search depth too small"), never "hold".  pan -w: 2^20 hash slots
# (the largest matrix run stores ~160K states; a fuller table only chains).  Neither changes a
# state count; both keep pan's start-up (it clears its stack and hash table) to milliseconds.
DEPTH_LIMIT = 100000
HASH_W = 20
MEMLIM_MB = 4096

# ---------------------------------------------------------------------------------------
# properties of the protocol model: promela/properties.yml, beside the model, is their one
# source (scenario, defines, requirement IDs, the violation they look for, where they fail)
PROPERTIES_FILE = os.path.join(PROMELA, "properties.yml")


def _load_properties(path=PROPERTIES_FILE):
    import yaml
    with open(path) as f:
        d = yaml.safe_load(f)
    props = {}
    for name, p in d["properties"].items():
        props[name] = dict(scen=p["scenario"], d=list(p.get("defines", [])),
                           reqs=list(p["requirements"]), match=p["violation"],
                           violates=p.get("violates"))
        for k in ("ltl", "fair"):
            if p.get(k):
                props[name][k] = True
    probes = {}
    for name, p in d["probes"].items():
        probes[name] = dict(scen=p["scenario"], n=p["probe"], d=list(p.get("defines", [])),
                            what=p["what"], reqs=list(p["requirements"]))
        for k in ("min_cpus", "min_arrivals"):
            if k in p:
                probes[name][k] = p[k]
        if "variants" in p:
            probes[name]["variants"] = tuple(p["variants"])
    bugs = {name: (b["bug"], b["what"], b["violation"]) for name, b in d["chain_bugs"].items()}
    threaded = {}
    for name, t in d.get("threaded", {}).items():
        if t["search"] not in ("dfs", "fair"):
            raise SystemExit(f"model: threaded {name}: search {t['search']!r} is not dfs or fair")
        threaded[name] = dict(search=t["search"], d=list(t["defines"]), reqs=list(t["requirements"]))
    return list(d["safety_requirements"]), props, probes, bugs, threaded


SAFETY_REQS, PROPS, PROBES, CHAIN_BUGS, THREADED = _load_properties()


def expected(prop, variant, mm):
    """The verdict properties.yml states for a run: `violates` always, or for its variants x
    memory models; every other run holds.  (The free/depth/hazard-fixed guarantees rest on
    the lock their own path takes, so they hold for every variant: spec/memory-models.md.)"""
    v = PROPS[prop].get("violates")
    if v == "always":
        return "violate"
    if v and variant in v["variants"] and mm in v["memory_models"]:
        return "violate"
    return "hold"


def cfg_defines(cfg):
    return [f"NCPU={cfg['cpus']}", f"NLINES={cfg['lines']}", f"ARRIVALS={cfg['arrivals']}",
            f"SHARERS={cfg['sharers']}"]


def protocol_rows(cfg, mms, variants, props, probes=True):
    rows = []
    for prop in props:
        p = PROPS[prop]
        vs = variants if p["scen"] in ("SCEN_SYNC", "SCEN_FREE", "SCEN_DEPTH") else ("v2",)
        for mm in mms:
            for v in vs:
                exp = expected(prop, v, mm)
                reqs = p["reqs"] + [MM_REQ[mm]] + (SAFETY_REQS if exp == "hold" else [])
                if exp == "hold" and cfg["sharers"] >= 2:
                    reqs = reqs + ["REQ-DISPATCH-4"]   # the chain-walk assertions saw 2 sharers
                rows.append(dict(kind="protocol", name=f"{prop}", variant=v, memory_model=mm,
                                 config=dict(cfg), property=prop, requirements=reqs,
                                 expected=exp, match=p["match"], ltl=p.get("ltl", False),
                                 fair=p.get("fair", False),
                                 defines=[f"MM_{mm.upper()}", f"VARIANT={v[1]}",
                                          f"SCEN={p['scen']}"] + p["d"] + cfg_defines(cfg)))
    if probes:
        for name, p in PROBES.items():
            c = dict(cfg)
            c["cpus"] = max(c["cpus"], p.get("min_cpus", 2))
            c["arrivals"] = max(c["arrivals"], p.get("min_arrivals", 1))
            for mm in mms:
                for v in p.get("variants", ("v2",)):
                    if v not in variants:
                        continue
                    rows.append(dict(kind="protocol", name=name, variant=v, memory_model=mm,
                                     config=c, property="probe: " + p["what"],
                                     requirements=p["reqs"] + [MM_REQ[mm]], expected="violate",
                                     match=r"assertion violated\s+!\(probe_hit\)", ltl=False,
                                     defines=[f"MM_{mm.upper()}", f"VARIANT={v[1]}",
                                              f"SCEN={p['scen']}", f"PROBE={p['n']}"] + p["d"]
                                     + cfg_defines(c)))
    return rows


def litmus_rows(mms):
    rows = []
    d = os.path.join(PROMELA, "litmus")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".pml") or f == "lib.pml":
            continue
        text = open(os.path.join(d, f)).read()
        m = re.search(r"VERDICT\s+sc=(\w+)\s+tso=(\w+)\s+weak=(\w+)", text)
        if not m:
            raise SystemExit(f"model: {f} states no VERDICT line")
        verdict = dict(zip(MMS, m.groups()))
        reqs = re.findall(r"REQ-[A-Z]+-\d+", text.split("*/")[0])
        ncpu = int(re.search(r"#define NCPU (\d)", text).group(1))
        for mm in mms:
            exp = "violate" if verdict[mm] == "allowed" else "hold"
            rows.append(dict(kind="litmus", name=f[:-4], variant="", memory_model=mm,
                             config=dict(cpus=ncpu, lines=0, arrivals=0, sharers=0),
                             property="relaxed outcome " + ("observed" if exp == "violate"
                                                            else "never observed"),
                             requirements=sorted(set(reqs + [MM_REQ[mm]])), expected=exp,
                             match=r"assertion violated\s+!\(", ltl=False,
                             defines=[f"MM_{mm.upper()}"], file=os.path.join(d, f)))
    return rows


# REQ-DISPATCH-4: the chain walk and its seeded bugs (CHAIN_BUGS, from promela/properties.yml)
def sharer_rows(cfg, mms, bug_mms=MMS):
    c = dict(cfg)
    c["sharers"] = 2
    rows = []
    for mm in mms:
        base = [f"MM_{mm.upper()}", "VARIANT=2", "SCEN=SCEN_SYNC"] + cfg_defines(c)
        rows.append(dict(kind="protocol", name="chain", variant="v2", memory_model=mm, config=c,
                         property="each pass calls every action of its snapshot once, in "
                                  "registration order, with its own dev_id",
                         requirements=["REQ-DISPATCH-4", MM_REQ[mm]] + SAFETY_REQS,
                         expected="hold", match=r"ch_", ltl=False, defines=base))
        for name, (n, what, match) in CHAIN_BUGS.items():
            if mm not in bug_mms:
                continue
            rows.append(dict(kind="protocol", name=name, variant="v2", memory_model=mm, config=c,
                             property=what, requirements=["REQ-DISPATCH-4", MM_REQ[mm]],
                             expected="violate", match=match, ltl=False,
                             defines=base + [f"CHAIN_BUG={n}"]))
    return rows


# Small models of their own (promela/ticket.pml, promela/request.pml): the file, the rows, the
# requirement IDs; a known-bad variant must fail with the named assertion
SMALL = [
    # REQ-LOCK-2: the ticket lock serves CPUs in queue order; REQ-LOCK-1 mutual exclusion and
    # the hand-over of the protected counter
    dict(file="ticket.pml", kind="lock", name="ticket", variant="", cfg=dict(cpus=3, rounds=2),
         d=[], expected="hold", reqs=["REQ-LOCK-2", "REQ-LOCK-1"],
         property="acquisitions in ticket order; mutual exclusion; no lost update"),
    dict(file="ticket.pml", kind="lock", name="ticket", variant="tas", cfg=dict(cpus=3, rounds=2),
         d=["TAS_LOCK=1"], expected="violate", reqs=["REQ-LOCK-2"],
         match=r"assertion violated \(ord==served\)",
         property="known-bad: a test-and-set lock lets a later CPU overtake"),
    # the ticket counters wrap (TMOD=4: 6 tickets per run); too narrow a counter (TMOD=2 for 3
    # CPUs) gives two waiters one ticket (full set only)
    dict(file="ticket.pml", kind="lock", name="ticket", variant="wrap4",
         cfg=dict(cpus=3, rounds=2), d=["TMOD=4"], expected="hold", full_only=True,
         reqs=["REQ-LOCK-2", "REQ-LOCK-1"],
         property="tickets counted modulo 4 (they wrap): FIFO, mutual exclusion, no lost update"),
    dict(file="ticket.pml", kind="lock", name="ticket", variant="wrap2",
         cfg=dict(cpus=3, rounds=2), d=["TMOD=2"], expected="violate", full_only=True,
         reqs=["REQ-LOCK-2", "REQ-LOCK-1"], mms=("sc",),
         match=r"assertion violated \((ord==served|holder==0)\)",
         property="known-bad: tickets modulo 2 for 3 CPUs (two waiters hold one ticket)"),
    # REQ-LIFECYCLE-2: concurrent request_irq, exclusive vs shared, -EBUSY
    dict(file="request.pml", kind="lifecycle", name="request", variant="",
         cfg=dict(cpus=3), d=[], expected="hold", reqs=["REQ-LIFECYCLE-2"],
         property="an exclusive action is alone; success iff installed; -EBUSY iff incompatible"),
    dict(file="request.pml", kind="lifecycle", name="request", variant="unlocked-check",
         cfg=dict(cpus=3), d=["REQ_BUG=1"], expected="violate", reqs=["REQ-LIFECYCLE-2"],
         match=r"assertion violated\s+!\(excl_broken\)",
         property="known-bad: the check reads the chain before taking the lock"),
    dict(file="request.pml", kind="lifecycle", name="request", variant="new-flag-only",
         cfg=dict(cpus=3), d=["REQ_BUG=2"], expected="violate", reqs=["REQ-LIFECYCLE-2"],
         match=r"assertion violated\s+!\(excl_broken\)", mms=("sc",),
         property="known-bad: the check ignores the flags of the actions already there"),
]


def small_rows(mms, bad_mms=MMS, full=True):
    rows = []
    for m in SMALL:
        if m.get("full_only") and not full:
            continue
        for mm in mms:
            if mm not in m.get("mms", MMS) or (m["expected"] == "violate" and mm not in bad_mms):
                continue
            c = m["cfg"]
            d = [f"MM_{mm.upper()}", f"NCPU={c['cpus']}"] + \
                ([f"ROUNDS={c['rounds']}"] if "rounds" in c else []) + m["d"]
            rows.append(dict(kind=m["kind"], name=m["name"], variant=m["variant"],
                             memory_model=mm, config=dict(c), property=m["property"],
                             requirements=m["reqs"] + [MM_REQ[mm]], expected=m["expected"],
                             match=m.get("match", r"assertion violated"), ltl=False,
                             defines=d, file=os.path.join(PROMELA, m["file"])))
    return rows


def threaded_rows(mms):
    """The threaded protocol's holding runs (promela/threaded.pml; properties.yml `threaded`),
    under each memory model: the same runs as [31-model-threaded]'s holds (run1 --dfs/--fair)."""
    rows = []
    for name, t in THREADED.items():
        for mm in mms:
            rows.append(dict(kind="threaded", name=name, variant="", memory_model=mm, config={},
                             property=f"the threaded protocol, {name} ({'LTL under weak fairness' if t['search'] == 'fair' else 'every assertion'})",
                             requirements=t["reqs"] + [MM_REQ[mm]], expected="hold",
                             match=r"assertion violated", ltl=t["search"] == "fair",
                             fair=t["search"] == "fair",
                             defines=[f"MM_{mm.upper()}"] + t["d"],
                             file=os.path.join(PROMELA, "threaded.pml")))
    return rows


def threaded_cases():
    """[31-model-threaded]'s holding cases, one line each: NAME|IDS|--dfs or --fair|DEFINES."""
    for name, t in THREADED.items():
        print(f"{name}|{' '.join(t['reqs'])}|--{t['search']}|{' '.join(t['d'])}")


# REQ-MM-6: the store-buffer depth and WEAK history saturate at the defaults (SBD=3, HIST=3):
# the exhaustive v2 run has the same state count one step above the default, and each v1 run
# gives the verdict spec/memory-models.md states (at SBD=1 TSO hides v1's race: the pitfall).
# (mm, knob, values, cpus, arrivals, extra defines, default, v1 verdict per value)
SATURATION = [
    ("tso", "SBD", (1, 2, 3, 4), 2, 2, ["CHECK_SYNC2=1"], 3,
     {1: "hold", 2: "violate", 3: "violate", 4: "violate"}),
    ("weak", "SBD", (2, 3, 4), 2, 2, ["CHECK_SYNC2=1"], 3,
     {2: "violate", 3: "violate", 4: "violate"}),
    ("weak", "HIST", (2, 3, 4), 2, 1, [], 3, {2: "violate", 3: "violate", 4: "violate"}),
]


def saturation_rows():
    rows = []
    for mm, knob, values, cpus, arr, extra, dflt, v1 in SATURATION:
        c = dict(cpus=cpus, lines=1, arrivals=arr, sharers=1)
        for k in values:
            for v in ("v2", "v1"):
                exp = "hold" if v == "v2" else v1[k]
                # v1: the tg3 flag property (REQ-SYNC-3), the race the depth can hide
                dd = ([] if v == "v2" else ["CHECK_SYNC1=0"]) + extra + [f"{knob}={k}"]
                prop = (f"{knob}={k}: " + ("v2 holds (state count for the saturation check)"
                                          if v == "v2" else
                                          f"v1's stale-flag race {'found' if exp == 'violate' else 'HIDDEN by the bound'}"))
                rows.append(dict(kind="saturation", name=f"sat-{mm}-{knob}{k}", variant=v,
                                 memory_model=mm, config=dict(c), property=prop,
                                 requirements=["REQ-MM-6", MM_REQ[mm]], expected=exp,
                                 match=r"assertion violated (\s*!\(returned\)|\(stale==0\))",
                                 ltl=False, knob=knob, value=k,
                                 defines=[f"MM_{mm.upper()}", f"VARIANT={v[1]}", "SCEN=SCEN_SYNC",
                                          "CALLER_MB=1"] + dd + cfg_defines(c)))
    return rows


# REQ-MM-6, B1/B2 by argument: v2's guarantees with UNBOUNDED store buffers and load history.  A
# bound changes behaviours only when it bites: a store that finds the buffer full waits (B1), a
# load whose view reaches the oldest kept version loses older ones (B2).  The monitors
# -DMM_SB_CHECK and -DMM_VIEW_CHECK (promela/mm/mm.pml, weak.pml) assert that neither ever
# happens, at SBD=4 (TSO) or 5 (WEAK) and HIST=4; the unlocked spin of synchronize_irq, whose value only decides
# when the driver leaves for its locked re-check, is over-approximated by leaving at any time
# (-DSPIN_HAVOC, promela/irq.pml).  A "hold" therefore checks the scenario's own assertions
# exactly for unbounded buffers and history (spec/memory-models.md, B1, B2).  The last three rows
# show each monitor able to fail: a TSO buffer does hold 3 stores and a WEAK one 4 (on a replay
# pass), and without the over-approximation the spin reads past every history (B2).
# (mm, name, scenario, cpus, lines, arrivals, sharers, extra defines, expected, match)
_SYNC2 = ["CALLER_MB=1", "CHECK_SYNC2=1"]
# the monitor's depth: one above the most stores a CPU holds (TSO 3; WEAK 4, on a replay pass)
_SBD = {"tso": 4, "weak": 5}


def unbounded_defines(mm):
    """The -D flags that make a v2 safety run exact for unbounded buffers (and, under WEAK,
    history): the spin over-approximated, both monitors one step above what is ever used."""
    return (["SPIN_HAVOC=1", "MM_SB_CHECK", f"SBD={_SBD[mm]}"] +
            (["MM_VIEW_CHECK", "HIST=4"] if mm == "weak" else []))


UNBOUNDED = [
    (mm, name, scen, c, l, a, sh, extra + unbounded_defines(mm), "hold", None)
    for mm in ("tso", "weak")
    for name, scen, c, l, a, sh, extra in (
        ("sync", "SCEN_SYNC", 2, 1, 2, 1, _SYNC2),
        ("sync-3cpus", "SCEN_SYNC", 3, 1, 2, 1, _SYNC2),
        ("sync-2lines", "SCEN_SYNC", 3, 2, 1, 2, _SYNC2),
        ("free-3cpus", "SCEN_FREE", 3, 1, 2, 1, ["CHECK_SYNC1=0"]),
        ("free-2lines", "SCEN_FREE", 3, 2, 1, 2, ["CHECK_SYNC1=0"]),
        ("depth-3cpus", "SCEN_DEPTH", 3, 1, 2, 1, ["CHECK_SYNC1=0"]),
        ("depth-2lines", "SCEN_DEPTH", 3, 2, 1, 2, ["CHECK_SYNC1=0"]))
] + [
    ("tso", "sbd3-fills", "SCEN_SYNC", 2, 1, 2, 1,
     _SYNC2 + ["SPIN_HAVOC=1", "MM_SB_CHECK", "SBD=3"], "violate", r"assertion violated \(sb_n\["),
    ("weak", "sbd4-fills-on-replay", "SCEN_SYNC", 3, 1, 2, 1,
     _SYNC2 + ["SPIN_HAVOC=1", "MM_SB_CHECK", "SBD=4"], "violate", r"assertion violated \(sb_n\["),
    ("weak", "spin-reads-past-history", "SCEN_SYNC", 2, 1, 2, 1,
     _SYNC2 + ["SPIN_HAVOC=0", "MM_VIEW_CHECK", "HIST=4"], "violate",
     r"assertion violated .*view\["),
]


def unbounded_rows():
    rows = []
    for mm, name, scen, cpus, lines, arr, sh, extra, exp, match in UNBOUNDED:
        c = dict(cpus=cpus, lines=lines, arrivals=arr, sharers=sh)
        prop = ("v2's assertions hold with unbounded store buffers" +
                (" and load history" if mm == "weak" else "") +
                " (no store finds the buffer full, no view reaches the oldest version)"
                if exp == "hold" else
                f"a store finds a {'3' if mm == 'tso' else '4'}-entry buffer full: depth "
                f"{'2' if mm == 'tso' else '3'} would not be exact"
                if "MM_SB_CHECK" in extra else
                "the unlocked spin reads versions past a 4-deep history: it needs its "
                "over-approximation")
        rows.append(dict(kind="saturation", name=f"unbounded-{mm}-{name}", variant="v2",
                         memory_model=mm, config=dict(c), property=prop,
                         requirements=["REQ-MM-6", MM_REQ[mm]], expected=exp,
                         match=match or r"assertion violated", ltl=False,
                         defines=[f"MM_{mm.upper()}", "VARIANT=2", f"SCEN={scen}"] + extra
                         + cfg_defines(c)))
    return rows


def saturation_checks(results):
    """Two derived rows per SATURATION entry, built from the runs above (exhaustive only if they
    are): the v2 state count at the default equals the one a step above it ("hold", else
    "changes"), and one step below the default it still changes (expected "changes": the comparison
    is shown able to fail)."""
    out = []
    for mm, knob, values, cpus, arr, extra, dflt, v1 in SATURATION:
        runs = {r["value"]: r for r in results
                if r["kind"] == "saturation" and r["memory_model"] == mm
                and r.get("knob") == knob and r["variant"] == "v2"}
        seq = ", ".join(f"{knob}={k}: {runs[k]['states']}" for k in values if k in runs)
        below, default, above = runs.get(dflt - 1), runs.get(dflt), runs.get(dflt + 1)
        out.append(_saturation_row(
            mm, f"sat-{mm}-{knob}-below", "changes", _compare_states(below, default), default,
            below, seq, f"{knob}={dflt - 1} is below saturation: v2 state count changes "
                        f"from {knob}={dflt - 1} to {knob}={dflt}"))
        out.append(_saturation_row(
            mm, f"sat-{mm}-{knob}", "hold", _compare_states(default, above), default, default,
            seq, f"{knob} saturated at the default {dflt}: v2 state count "
                 f"equal at {knob}={dflt} and {knob}={dflt + 1}"))
    return out


def _compare_states(low, high):
    """"hold" when two exhaustive runs stored as many states, "changes" when they did not,
    "incomplete" when either is missing or not exhaustive (then nothing is compared)."""
    if not (low and high and low["exhaustive"] and high["exhaustive"]):
        return "incomplete"
    return "hold" if low["states"] == high["states"] else "changes"


def _saturation_row(mm, name, expected, result, config_run, states_run, seq, prop):
    """A derived saturation row of model.json (no pan run of its own: no trail, no timing)."""
    return dict(kind="saturation", name=name, variant="v2", memory_model=mm,
                config=dict(config_run["config"]) if config_run else {}, property=prop,
                requirements=["REQ-MM-6", MM_REQ[mm]], expected=expected, result=result,
                exhaustive=result != "incomplete",
                states=states_run["states"] if states_run else None, transitions=None,
                depth=None, memory_mb=None, seconds=None, trail=None,
                detail="v2 states " + seq, ok=(result == expected))


def row_id(r):
    c = r["config"]
    base = f"{r['kind']}-{r['name']}-{r['variant'] or 'x'}-{r['memory_model']}"
    if r["kind"] in ("protocol", "saturation"):
        base += f"-c{c['cpus']}l{c['lines']}a{c['arrivals']}s{c['sharers']}"
    elif r["kind"] in ("lock", "lifecycle"):
        base += f"-c{c['cpus']}" + (f"r{c['rounds']}" if "rounds" in c else "")
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", base)


def pan_settings(r):
    """The pan compile flags and run arguments of a row (part of the matrix definition)."""
    # shortest counterexamples: BFS for safety; LTL runs need the nested DFS
    if r["ltl"]:
        # weak fairness (-f) needs room for every process (init, driver, CPUs, flushers)
        cc = [f"-DMEMLIM={MEMLIM_MB}", "-DNFAIR=4"]
        args = [f"-m{DEPTH_LIMIT}", f"-w{HASH_W}", "-a"] + (["-f"] if r.get("fair") else [])
    elif r["expected"] == "violate" and not r["name"].startswith("probe"):
        cc = ["-DSAFETY", "-DBFS", f"-DMEMLIM={MEMLIM_MB}"]   # the shortest trail
        args = [f"-m{DEPTH_LIMIT}", f"-w{HASH_W}"]
    else:
        # depth-first with partial-order reduction (BFS weakens it); a violation still
        # leaves a (not necessarily shortest) trail
        cc = ["-DSAFETY", "-DCOLLAPSE", f"-DMEMLIM={MEMLIM_MB}"]
        args = [f"-m{DEPTH_LIMIT}", f"-w{HASH_W}"]
    return cc, args


def row_ok(r):
    """The verdict rule: the result is the expected one, and an expected violation is the
    specific one (its `match`)."""
    return r["result"] == r["expected"] and not r.get("wrong_violation")


def run_row(r, build, trails, cc_opt):
    model = r.get("file", MODEL)
    rid = row_id(r)
    work = os.path.join(build, "model", rid)
    cc, args = pan_settings(r)
    res = pan.run(work, model, r["defines"], cc, args, cc_opt=cc_opt,
                  cache_dir=os.path.join(build, "model", "pan-cache"))
    out = {k: r[k] for k in ("kind", "name", "variant", "memory_model", "config", "property",
                             "requirements", "expected") + tuple(k for k in ("knob", "value")
                                                                  if k in r)}
    out.update(result="incomplete", exhaustive=False, states=None, transitions=None,
               depth=None, memory_mb=None, seconds=None, trail=None, detail="")
    if "fatal" in res:
        out["detail"] = res["fatal"]
        out["ok"] = False
        return out
    out.update(states=res["states"], transitions=res["transitions"], depth=res["depth"],
               memory_mb=res["memory_mb"], seconds=res["seconds"])
    out["result"], out["detail"] = pan.verdict(res)
    out["exhaustive"] = out["result"] == "hold"
    if out["result"] == "violate":
        if not re.search(r["match"], res["output"]):
            out["detail"] = "a different violation than expected: " + res["message"]
            out["wrong_violation"] = True
        if res["trail_file"]:
            out["trail"] = save_trail(r, rid, res["trail_file"], model, trails)
    out["ok"] = row_ok(out)
    return out


def save_trail(r, rid, trail, model, trails):
    os.makedirs(trails, exist_ok=True)
    dst = os.path.join(trails, rid + ".trail")
    with open(trail, "rb") as a, open(dst, "wb") as b:
        b.write(a.read())
    relmodel = os.path.relpath(model, ROOT)
    reldst = os.path.relpath(dst, ROOT)
    dflags = " ".join(f"-D{d}" for d in r["defines"])
    cmd = f"spin -t -p -k {reldst} {dflags} {relmodel}"
    with open(os.path.join(trails, rid + ".replay.sh"), "w") as f:
        f.write("#!/bin/sh\n# replay the shortest counterexample of "
                f"{r['name']} ({r['variant']} {r['memory_model']}) with the same -D flags\n"
                f'cd "$(dirname "$0")/{os.path.relpath(ROOT, trails)}" && exec {cmd}\n')
    os.chmod(os.path.join(trails, rid + ".replay.sh"), 0o755)
    full = pan.replay(dst, model, r["defines"], os.path.join(trails, rid + ".full.txt"))
    # the readable rendering: steps with values, buffer drains, late-load bindings, the failure
    keep = [ln.strip() for ln in full.splitlines()
            if re.match(r"\s*(STEP|FLUSH|BIND)\b", ln) or "assertion violated" in ln
            or "text of failed" in ln]
    with open(os.path.join(trails, rid + ".txt"), "w") as f:
        f.write(f"# {r['name']} {r['variant']} {r['memory_model']} {r['config']}\n# replay: {cmd}\n")
        f.write("# STEP <cpu> <step> [addr= val=] : the access as the CPU performs it\n"
                "# FLUSH <cpu> addr= val=          : a buffered store reaches memory\n")
        f.write("\n".join(keep) + "\n")
    return os.path.relpath(os.path.join(trails, rid + ".txt"), ROOT)


SHARER_CONFIG = {"quick": dict(cpus=2, lines=1, arrivals=1, sharers=2),
                 "full": dict(cpus=3, lines=2, arrivals=1, sharers=2)}
CONFIGS = {
    "quick": [dict(cpus=2, lines=1, arrivals=1, sharers=1)],
    "full": [dict(cpus=2, lines=1, arrivals=1, sharers=1),
             dict(cpus=3, lines=1, arrivals=2, sharers=1),
             dict(cpus=3, lines=2, arrivals=1, sharers=2)],
}
OPTION_KEYS = ("set",) + tuple(LIMITS) + ("mm", "variant")


def parse_options(opts):
    """The matrix a set of options selects (the command line, or a shard file's record).
    Returns (errors, matrix) with matrix = dict(set, rows, out) -- out is the file name of the
    result under build/evidence/."""
    errs = []
    cfg = dict(cpus=2, lines=1, arrivals=1, sharers=1)
    single = False
    for k, (lo, hi) in LIMITS.items():
        v = opts.get(k)
        if v in (None, ""):
            continue
        single = True
        if not re.fullmatch(r"\d+", str(v)) or not lo <= int(v) <= hi:
            errs.append(f"{k.upper()}={v} is out of range: valid values are {lo}..{hi}")
        else:
            cfg[k] = int(v)
    mms, variants = MMS, VARIANTS
    if opts.get("mm") not in (None, ""):
        if opts["mm"] not in MMS:
            errs.append(f"MM={opts['mm']} is not a memory model: valid values are sc, tso, weak")
        else:
            mms = (opts["mm"],)
    if opts.get("variant") not in (None, ""):
        if opts["variant"] not in VARIANTS:
            errs.append(f"VARIANT={opts['variant']} is not a variant: valid values are v0, v1, v2")
        else:
            variants = (opts["variant"],)
    if opts.get("set") not in (None, "") and opts["set"] not in ("quick", "full", "litmus"):
        errs.append(f"SET={opts['set']} is not a matrix: valid values are quick, full, litmus")
    if cfg["sharers"] > 1 and cfg["lines"] < 1:
        errs.append("SHARERS needs at least one line")
    if errs:
        return errs, None
    if opts.get("mm") or opts.get("variant"):
        single = True
    if single and opts.get("set") in (None, ""):
        rows = protocol_rows(cfg, mms, variants, list(PROPS), probes=True)
        name, out = "single", "model-run.json"
    else:
        name = opts.get("set") or "full"
        rows = litmus_rows(mms)
        if name != "litmus":
            for c in CONFIGS[name]:
                rows += protocol_rows(c, mms, variants, list(PROPS), probes=True)
            # the seeded bugs are logic bugs: `make check` (quick) runs them under SC only
            bad = MMS if name == "full" else ("sc",)
            rows += sharer_rows(SHARER_CONFIG[name], mms, bad)  # REQ-DISPATCH-4
            rows += small_rows(mms, bad, name == "full")        # REQ-LOCK-2, REQ-LIFECYCLE-2
            rows += threaded_rows(mms)                          # REQ-THREAD-*, REQ-ONESHOT-*
            if name == "full":
                rows += saturation_rows()                       # REQ-MM-6
                rows += unbounded_rows()                        # REQ-MM-6, B1/B2 exact
        out = "model.json"
    # de-duplicate (probes raise small configs to the same larger one)
    seen, uniq = set(), []
    for r in rows:
        k = (row_id(r), tuple(r["defines"]))
        if k not in seen:
            seen.add(k)
            uniq.append(r)
    ids = [row_id(r) for r in uniq]
    if len(set(ids)) != len(ids):   # a row's id names its work directory and its trail
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise SystemExit(f"model: two different rows share the id {dup[0]}")
    return [], dict(set=name, rows=uniq, out=out)


# ---------------------------------------------------------------------------------------
# sharding (`make model SHARD=i/N`, `make model-merge`; spec/memory-models.md, "Shards")

# what a row's result depends on besides its definition: the model producer's sources, as the
# producer table of tools/stamp.py lists them (the freshness stamp fingerprints the same files)
MODEL_SOURCES = stamp.PRODUCERS["model"]["sources"]
SHARD_FORMAT = "irqsync-model-shard/1"


def source_files():
    """The model's source files: tracked plus untracked-not-ignored (git), else a walk."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                             capture_output=True, check=True).stdout.decode()
        files = [p for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, subs, names in os.walk(ROOT):
            subs[:] = [x for x in subs if x not in (".git", "build", "__pycache__")]
            files += [os.path.relpath(os.path.join(d, n), ROOT) for n in names]
    return sorted(p for p in set(files) if p.startswith(MODEL_SOURCES)
                  and "__pycache__/" not in p and not p.endswith(".pyc")
                  and os.path.isfile(os.path.join(ROOT, p)))


def inputs_fingerprint():
    """sha256 over the path and content of every model source file."""
    h = hashlib.sha256()
    files = source_files()
    for p in files:
        with open(os.path.join(ROOT, p), "rb") as f:
            h.update(f"{p}\0{hashlib.sha256(f.read()).hexdigest()}\n".encode())
    return {"sha256": h.hexdigest(), "files": len(files)}


def row_spec(r):
    """Everything that defines a row's run and its verdict (for the matrix hash)."""
    d = {k: v for k, v in r.items() if k != "file"}
    d["id"] = row_id(r)
    d["model"] = os.path.relpath(r.get("file", MODEL), ROOT)
    d["pan"] = pan_settings(r)
    return d


def matrix_fingerprint(rows, cc_opt):
    text = json.dumps({"cc_opt": cc_opt, "rows": [row_spec(r) for r in rows]}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def row_cost(r):
    """Expected cost of a row in centiseconds, from its definition only (every shard must
    compute the same split): gcc on pan.c dominates the small rows; the state space grows with
    CPUs, lines, arrivals and the memory model; LTL and BFS runs cost more per state."""
    c = r["config"]
    cost = 150 + 5 * len(r["defines"])
    if r["kind"] in ("protocol", "saturation"):
        grow = ({"sc": 1, "tso": 2, "weak": 5}[r["memory_model"]] * 3 ** (c["cpus"] - 2)
                * 8 ** (c["lines"] - 1) * 3 ** (c["arrivals"] - 1) * c["sharers"])
        cost += grow * (3 if r["ltl"] else 1) * (2 if r.get("fair") else 1)
    elif r["kind"] in ("lock", "lifecycle"):
        cost += 20 * {"sc": 1, "tso": 2, "weak": 5}[r["memory_model"]]
    return int(cost)


def shard_assignment(rows, n):
    """Rows to shards, balanced by expected cost: the most expensive row first, each to the
    shard with the least cost so far (ties: the lower shard; rows of equal cost: by id).
    Deterministic: it reads the matrix definition only.  Returns (shard of each row, loads)."""
    order = sorted(range(len(rows)), key=lambda k: (-row_cost(rows[k]), row_id(rows[k])))
    load, owner = [0] * n, [0] * len(rows)
    for k in order:
        s = min(range(n), key=lambda j: (load[j], j))
        owner[k] = s
        load[s] += row_cost(rows[k])
    return owner, load


def parse_shard(text):
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m or not (1 <= int(m.group(1)) <= int(m.group(2))):
        return None
    return int(m.group(1)), int(m.group(2))


def pack_trails(results, trails):
    """The files of each result's trail (same stem: .trail, .replay.sh, .txt, .full.txt),
    compressed, so that a shard file is the whole result of its runs."""
    out = {}
    for r in results:
        if not r.get("trail"):
            continue
        stem = os.path.basename(r["trail"])[:-len(".txt")]
        for ext in (".trail", ".replay.sh", ".txt", ".full.txt"):
            p = os.path.join(trails, stem + ext)
            if os.path.exists(p):
                with open(p, "rb") as f:
                    out[stem + ext] = base64.b64encode(zlib.compress(f.read(), 6)).decode()
    return out


def shard_record(m, opts, i, n, cc_opt):
    owner, load = shard_assignment(m["rows"], n)
    return dict(format=SHARD_FORMAT, set=m["set"], shard=i, of=n, options=opts,
                inputs=inputs_fingerprint(),
                settings=dict(spin=pan.spin_version(), gcc=pan.gcc_version(), cc_opt=cc_opt),
                matrix=dict(sha256=matrix_fingerprint(m["rows"], cc_opt), rows=len(m["rows"]),
                            ids=[row_id(r) for r in m["rows"]]),
                cost=dict(unit="centiseconds (estimated)", shards=load),
                assigned=[row_id(r) for k, r in enumerate(m["rows"]) if owner[k] == i - 1])


# ---------------------------------------------------------------------------------------

def print_row(k, n, res):
    c = res["config"]
    cs = (f"cpus={c['cpus']} lines={c['lines']} arr={c['arrivals']} sh={c['sharers']}"
          if "lines" in c else f"cpus={c.get('cpus')}" if c.get("cpus") else "")
    print(f"[{k:3d}/{n}] {'ok  ' if res['ok'] else 'FAIL'} {res['kind']:8s} "
          f"{res['name']:22s} {res['variant'] or '--':2s} {res['memory_model']:4s} {cs:32s} "
          f"{res['result']:10s} (expected {res['expected']}) "
          f"states={res['states']} {res['seconds']}s"
          + ("" if res["ok"] else f"  <- {res['detail']}"), flush=True)


def finish(results, print_line=print):
    """The rows of model.json from the runs (in matrix order): the derived saturation checks
    appended, the verdict rule applied.  Returns (rows, rows not as expected).  The unsharded
    run and the merge of shards both end here."""
    results = [dict(r) for r in results]
    for r in results:
        r["ok"] = row_ok(r)
    n = len(results)
    if any(r["kind"] == "saturation" for r in results):
        for chk in saturation_checks(results):          # REQ-MM-6: derived from the runs
            results.append(chk)
            n += 1
            print_line(f"[{n:3d}/{n}] {'ok  ' if chk['ok'] else 'FAIL'} saturation "
                       f"{chk['name']:22s} {chk['result']:10s} (expected {chk['expected']}) "
                       f"{chk['detail']}")
    bad = [r for r in results if not r["ok"]]
    for r in results:
        r.pop("ok", None)
        r.pop("wrong_violation", None)
    return results, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", choices=("quick", "full", "litmus"), default=None)
    for k in LIMITS:
        ap.add_argument(f"--{k}", default=None)
    ap.add_argument("--mm", default=None)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--shard", default=None, help="i/N: run the rows of shard i of N only")
    ap.add_argument("--out", default=None)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--threaded-cases", action="store_true",
                    help="print the threaded holds ([31-model-threaded] runs them) and exit")
    a = ap.parse_args()
    if a.threaded_cases:
        threaded_cases()
        return 0

    # --- validate the user's values (REQ-ERR-7 spirit: clear message, nothing run) ---
    opts = {k: getattr(a, k) for k in OPTION_KEYS}
    opts = {k: (v if v not in ("",) else None) for k, v in opts.items()}
    errs, m = parse_options(opts)
    if not re.fullmatch(r"[1-9]\d*", a.jobs or ""):
        errs.append(f"JOBS={a.jobs} is not a positive number")
    shard = None
    if a.shard not in (None, ""):
        shard = parse_shard(a.shard)
        if not shard:
            errs.append(f"SHARD={a.shard} is not a shard: write i/N with 1 <= i <= N "
                        "(e.g. SHARD=1/2)")
    if errs:
        for e in errs:
            print(f"model: error: {e}", file=sys.stderr)
        return 2

    evidence = os.path.join(a.build, "evidence")
    trails = os.path.join(evidence, "trails")
    os.makedirs(evidence, exist_ok=True)
    rows, cc_opt = m["rows"], "-O0"
    idx = list(range(len(rows)))
    if shard:
        i, nsh = shard
        rec = shard_record(m, opts, i, nsh, cc_opt)
        owner, _ = shard_assignment(rows, nsh)
        idx = [k for k in idx if owner[k] == i - 1]
        out = a.out or os.path.join(a.build, "model", "shards", f"{m['set']}-{i}-of-{nsh}.json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        print(f"model: shard {i}/{nsh} of the {m['set']} matrix: {len(idx)} of {len(rows)} runs, "
              f"{a.jobs} in parallel -> {os.path.relpath(out, ROOT)}", flush=True)
    else:
        out = a.out or os.path.join(evidence, m["out"])
        print(f"model: {len(rows)} runs, {a.jobs} in parallel -> {os.path.relpath(out, ROOT)}",
              flush=True)
    n = len(idx)
    t0 = time.time()
    results = {}
    done = [0]

    def run_and_print(k):
        res = run_row(rows[k], a.build, trails, cc_opt)
        results[k] = res
        done[0] += 1
        print_row(done[0], n, res)
        return res

    with ThreadPoolExecutor(max_workers=int(a.jobs)) as ex:
        list(ex.map(run_and_print, idx))

    if shard:
        runs = [dict(index=k, id=row_id(rows[k]), wrong_violation=bool(
                    results[k].get("wrong_violation")),
                     row={x: v for x, v in results[k].items()
                          if x not in ("ok", "wrong_violation")}) for k in idx]
        bad = [r for r in runs if not row_ok(dict(r["row"], wrong_violation=r["wrong_violation"]))]
        rec.update(runs=runs, trails=pack_trails([results[k] for k in idx], trails),
                   seconds=round(time.time() - t0, 1),
                   date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        tmp = out + ".tmp"
        with open(tmp, "w") as f:
            json.dump(rec, f, indent=1)
        os.replace(tmp, out)
        print(f"model: shard {shard[0]}/{shard[1]}: {n - len(bad)}/{n} as expected, {len(bad)} not, "
              f"{time.time() - t0:.0f}s; partial result in {os.path.relpath(out, ROOT)} "
              f"(merge: make model-merge)", flush=True)
        return 1 if bad else 0

    final, bad = finish([results[k] for k in idx], print_line=lambda x: print(x, flush=True))
    with open(out, "w") as f:
        json.dump(final, f, indent=1)
    print(f"model: {len(final) - len(bad)}/{len(final)} as expected, {len(bad)} not, "
          f"{time.time() - t0:.0f}s; results in {os.path.relpath(out, ROOT)}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

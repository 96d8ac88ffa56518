"""tools/model/scale.py -- the model's scale benchmark (`make model-scale`, `make bench-model`).

A benchmark, not a test: it measures and reports; it fails only when a run's verdict is wrong
(a "hold" configuration that violates).  Sections of build/evidence/model-scale.json:
  saturation  store-buffer depth SBD and WEAK history HIST against state counts (REQ-MM-6)
  target      v2 under WEAK, SYNC scenario, 4 CPUs x 2 lines (line 0 shared by 2) x 2 arrivals
  scenarios   the FREE and DEPTH scenarios at the largest size that fits the same budget
  table       v2 SYNC, CPUs 2..5 x arrivals 1..4, TSO and WEAK, partial-order reduction +
              -DCOLLAPSE; beyond exhaustive reach a bitstate run, reported non-exhaustive
  symmetry    the symmetry reduction R14 (-DSYMM=1) against the plain model: same verdicts,
              never more states; its premise checked in every state; the CPU cutoff
  frontier    v2 WEAK SYNC at 4 CPUs x 2 lines x 3 arrivals and 6 (7, 8) CPUs x 2 lines x 2
              arrivals: exhaustive within --frontier-budget s and --memlim MB, under nice -n 15,
              with and without R14; a known-bad v1 twin at each size
  python3 -m tools.model.scale [--build DIR] [options]
Options: --only saturation,table,...  --budget SECONDS (per exhaustive run, default 90)
         --tags b-symm,a  (frontier rows to rerun; the others are kept)
A frontier run that hits its time or memory cap is "incomplete", never "hold" (pan.verdict,
the rule of every model runner).
"""
import argparse, json, os, re, sys, time

from tools.model import pan
from tools.model.matrix import unbounded_defines

ROOT = pan.ROOT
MODEL = os.path.join(ROOT, "promela", "irqsync.pml")
MEMLIM = 4096
NICE = ("nice", "-n", "15")   # heavy runs yield to the other work of a shared machine


def verify(build, tag, defines, budget, bitstate=False, collapse=True, opt=None, memlim=MEMLIM,
           w=None, heavy=False, cc_extra=()):
    """One pan run of a scale row, judged by pan.verdict.  heavy: a frontier run -- pan under
    `nice -n 15`, its memory capped by -DMEMLIM (memlim MB; pan stops and the run is
    "incomplete" at the cap)."""
    work = os.path.join(build, "model-scale", tag)
    cc = ["-DSAFETY", f"-DMEMLIM={memlim}"] + list(cc_extra)
    args = ["-m10000000"] + ([f"-w{w}"] if w else [])
    if bitstate:
        cc = ["-DSAFETY", "-DBITSTATE"]
        args += ["-w30"]          # 2^30 bits = 128 MB of hash array
    elif collapse:
        cc.append("-DCOLLAPSE")
    if opt is None:   # a fast compile for small runs, an optimised pan for the long ones
        opt = "-O2" if any(d in defines for d in ("NCPU=4", "NCPU=5", "NCPU=6", "NCPU=7",
                                                   "NCPU=8")) else "-O0"
    r = pan.run(work, MODEL, defines, cc, args, cc_opt=opt, timeout=budget,
                prefix=NICE if heavy else ())
    if "fatal" in r:
        return {"defines": defines, "result": "error", "detail": r["fatal"]}
    result, detail = pan.verdict(r)
    out = {"defines": defines, "result": result, "exhaustive": result == "hold",
           "states": r["states"], "transitions": r["transitions"], "depth": r["depth"],
           "memory_mb": r["memory_mb"], "seconds": r["seconds"], "wall": r["wall"],
           "reduction": "POR" + ("+BITSTATE" if bitstate else "+COLLAPSE" if collapse else "")
           + "".join("+" + x[2:] for x in cc_extra) + ("+SYMM(R14)" if "SYMM=1" in defines else ""),
           "pan": " ".join(cc + args), "detail": detail}
    if bitstate:
        out["hash_factor"] = r["hash_factor"]
    return out


def model_defines(mm, v, cpus, lines, arr, sh, scen="SCEN_SYNC", extra=()):
    """The -D flags of irqsync.pml for memory model mm, variant v and the given size."""
    return [f"MM_{mm.upper()}", f"VARIANT={v}", f"SCEN={scen}", f"NCPU={cpus}",
            f"NLINES={lines}", f"ARRIVALS={arr}", f"SHARERS={sh}"] + list(extra)


def print_result(title, r):
    """One progress line: the run, its verdict and its size."""
    print(f"  {title:46s} {r['result']:10s} states={r.get('states')} "
          f"mem={r.get('memory_mb')}MB t={r.get('seconds')}s", flush=True)


def saturation(build, budget):
    rows = []
    print("saturation (REQ-MM-6): exhaustive v2 state counts; v1 verdict", flush=True)
    # the SYNC-2 check adds a third store per handler instance (H_DONE): the deepest buffer use
    for mm, knob, values, sizes, more in (
            ("tso", "SBD", range(1, 6), ((2, 1), (3, 2)), []),
            ("weak", "SBD", range(1, 6), ((2, 1), (3, 1)), []),
            ("weak", "SBD", range(1, 6), ((2, 2),), ["CHECK_SYNC2=1"]),
            ("tso", "SBD", range(1, 6), ((2, 2),), ["CHECK_SYNC2=1"]),
            ("weak", "HIST", range(1, 5), ((2, 1), (3, 1)), [])):
        for cpus, arr in sizes:
            for k in values:
                extra = [f"{knob}={k}"] + more
                r2 = verify(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v2",
                            model_defines(mm, 2, cpus, 1, arr, 1, extra=extra), budget)
                r1 = verify(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v1",
                            model_defines(mm, 1, cpus, 1, arr, 1, extra=extra + ["CHECK_SYNC1=0"]),
                            budget)
                # every reachable state of v1 (its assertions compiled out): grows with the
                # bound until no behaviour is left to add
                r1a = verify(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v1all",
                             model_defines(mm, 1, cpus, 1, arr, 1,
                                           extra=extra + ["CHECK_SYNC1=0", "CHECK_FLAG=0"]),
                             budget)
                row = {"memory_model": mm, "knob": knob, "value": k, "cpus": cpus,
                       "scenario": "sync" + ("+sync2" if more else ""),
                       "arrivals": arr, "v2": r2, "v1_result": r1["result"],
                       "v1_states_no_asserts": r1a.get("states")}
                rows.append(row)
                print_result(f"{mm} {knob}={k} cpus={cpus} arr={arr} {' '.join(more)} "
                             f"(v1 {r1['result']}, v1 states {r1a.get('states')})", r2)
    return rows


def table(build, budget):
    rows = []
    print("scaling table: v2 SYNC, 1 line (1 handler) and 2 lines (line 0 shared by 2), "
          "POR + COLLAPSE", flush=True)
    for lines, sh in ((1, 1), (2, 2)):
      for mm in ("tso", "weak"):
        for cpus in range(2, 6):
            cut = False
            for arr in range(1, 5):
                d = model_defines(mm, 2, cpus, lines, arr, sh)
                tag = f"table-{mm}-c{cpus}l{lines}a{arr}"
                if cut:   # a smaller size already did not fit: go straight to bitstate
                    r = {"result": "incomplete", "detail": "skipped: smaller size exceeded budget"}
                else:
                    r = verify(build, tag, d, budget)
                if r["result"] == "incomplete":
                    cut = True
                    rb = verify(build, tag + "-bit", d, min(budget, 60), bitstate=True)
                    r = dict(rb, exhaustive_attempt=r.get("detail"))
                rows.append({"memory_model": mm, "cpus": cpus, "lines": lines, "sharers": sh,
                             "arrivals": arr, **r})
                print_result(f"{mm} lines={lines} cpus={cpus} arrivals={arr} "
                             f"[{r.get('reduction', '')}]", r)
    return rows


def rerun_bitstate(build, rows, budget):
    """Redo the bitstate run of every table cell that exhaustive search could not finish."""
    print(f"bitstate runs for the cells beyond exhaustive reach ({budget} s each)", flush=True)
    for i, r in enumerate(rows):
        if r.get("exhaustive") or r.get("result") == "violate":
            continue
        d = model_defines(r["memory_model"], 2, r["cpus"], r.get("lines", 1), r["arrivals"],
                          r.get("sharers", 1))
        rb = verify(build, f"bit-{r['memory_model']}-c{r['cpus']}l{r.get('lines', 1)}"
                    f"a{r['arrivals']}", d, budget, bitstate=True)
        rows[i] = {k: r[k] for k in ("memory_model", "cpus", "lines", "sharers", "arrivals")
                   if k in r}
        rows[i].update(rb, exhaustive_attempt=r.get("exhaustive_attempt", r.get("detail")))
        print_result(f"{r['memory_model']} lines={r.get('lines')} cpus={r['cpus']} "
                     f"arrivals={r['arrivals']} [bitstate]", rb)
    return rows


def target(build, budget):
    print("target: v2 WEAK SYNC, 4 CPUs x 2 lines (line 0 shared by 2) x 2 arrivals", flush=True)
    r = verify(build, "target-weak-c4l2a2s2", model_defines("weak", 2, 4, 2, 2, 2), budget)
    print_result("v2 weak cpus=4 lines=2 sharers=2 arrivals=2", r)
    return r


def scenarios(build, budget):
    rows = []
    print("FREE / DEPTH scenarios, v2 WEAK, growing until the budget", flush=True)
    sizes = [(2, 1, 1, 2), (3, 1, 1, 2), (3, 1, 2, 2), (3, 2, 1, 2), (4, 1, 2, 2),
             (4, 2, 1, 2), (4, 2, 2, 2), (5, 2, 1, 2), (4, 2, 3, 2), (5, 2, 2, 2)]
    for scen in ("SCEN_FREE", "SCEN_DEPTH"):
        for cpus, lines, arr, sh in sizes:
            d = model_defines("weak", 2, cpus, lines, arr, sh, scen=scen, extra=["CHECK_SYNC1=0"])
            r = verify(build, f"{scen}-c{cpus}l{lines}a{arr}s{sh}", d, budget)
            rows.append({"scenario": scen, "cpus": cpus, "lines": lines, "arrivals": arr,
                         "sharers": sh, **r})
            print_result(f"{scen} cpus={cpus} lines={lines} arr={arr} sh={sh}", r)
            if r["result"] != "hold":
                break
    return rows


# ---------------------------------------------------------------------------------------
# The frontier (issue 13): v2 SYNC under WEAK, exhaustive within 30 min and the memory cap,
# with SPIN's reductions alone and with the symmetry reduction R14 (spec/memory-models.md).
# (tag, size label, cpus, lines, arrivals, sharers, SYMM, variant, expected)
FRONTIER = [
    ("b-symm", "6 CPUs x 2 lines x 2 arrivals", 6, 2, 2, 2, True, 2, "hold"),
    ("b-symm-v1", "6 CPUs x 2 lines x 2 arrivals", 6, 2, 2, 2, True, 1, "violate"),
    ("b7-symm", "7 CPUs x 2 lines x 2 arrivals", 7, 2, 2, 2, True, 2, "hold"),
    ("b8-symm", "8 CPUs x 2 lines x 2 arrivals", 8, 2, 2, 2, True, 2, "hold"),
    ("b5-symm", "5 CPUs x 2 lines x 2 arrivals", 5, 2, 2, 2, True, 2, "hold"),
    ("a-symm", "4 CPUs x 2 lines x 3 arrivals", 4, 2, 3, 2, True, 2, "hold"),
    ("a-symm-v1", "4 CPUs x 2 lines x 3 arrivals", 4, 2, 3, 2, True, 1, "violate"),
    ("a", "4 CPUs x 2 lines x 3 arrivals", 4, 2, 3, 2, False, 2, "hold"),
    ("b", "6 CPUs x 2 lines x 2 arrivals", 6, 2, 2, 2, False, 2, "hold"),
]


def frontier(build, budget, memlim, only=None):
    rows = []
    print(f"frontier: v2 WEAK SYNC (line 0 shared by 2), exhaustive within {budget} s and "
          f"{memlim} MB (pan -DMEMLIM), POR + COLLAPSE [+ SYMM], nice -n 15, one run at a time",
          flush=True)
    for tag, size, cpus, lines, arr, sh, symm, v, exp in FRONTIER:
        if only and tag not in only:
            continue
        extra = (["SYMM=1"] if symm else []) + (["CHECK_SYNC1=0"] if v == 1 else [])
        r = verify(build, f"frontier-{tag}",
                   model_defines("weak", v, cpus, lines, arr, sh, extra=extra),
                   budget if v == 2 else min(budget, 600), memlim=memlim, w=26, heavy=True)
        row = {"tag": tag, "size": size, "variant": f"v{v}", "memory_model": "weak",
               "cpus": cpus, "lines": lines, "arrivals": arr, "sharers": sh, "symmetry": symm,
               "expected": exp, "budget_s": budget, "memlim_mb": memlim, **r}
        row["as_expected"] = r["result"] == exp
        rows.append(row)
        print_result(f"{tag}: v{v} {size}{' SYMM' if symm else ''} (expected {exp})", r)
    return rows


# v2 with UNBOUNDED store buffers and load history at the sizes of the target and beyond
# (spec/memory-models.md, B1/B2; the small sizes are rows unbounded-* of make model): the
# unlocked spin over-approximated (SPIN_HAVOC), the monitors MM_SB_CHECK at SBD=5 and
# MM_VIEW_CHECK at HIST=4.  A hold checks SYNC-1/3 and SYNC-2 exactly for any buffer and history.
# (tag, cpus, lines, arrivals, sharers)
UNBOUNDED = [("c4l2a2s2", 4, 2, 2, 2), ("c5l2a2s2", 5, 2, 2, 2)]


def unbounded(build, budget, memlim):
    rows = []
    print("unbounded: v2 WEAK SYNC+SYNC2, spin over-approximated, SBD=5 and HIST=4 monitored",
          flush=True)
    for tag, cpus, lines, arr, sh in UNBOUNDED:
        d = model_defines("weak", 2, cpus, lines, arr, sh,
                          extra=["CALLER_MB=1", "CHECK_SYNC2=1"] + unbounded_defines("weak"))
        r = verify(build, f"unbounded-{tag}", d, budget, memlim=memlim, heavy=True)
        rows.append({"tag": tag, "cpus": cpus, "lines": lines, "arrivals": arr, "sharers": sh,
                     **r})
        print_result(f"unbounded {tag}", r)
        if r["result"] != "hold":
            break
    return rows


# R14 checked against the plain model on sizes both finish: the same verdict for every
# scenario, property and known-bad variant, and SYMM never stores more states; and its premise
# (a monitor process, -DSYMM_CHECK, without partial-order reduction) holds in every state.
SYMM_CFGS = [(3, 1, 2, 1), (4, 1, 2, 1), (3, 2, 1, 2), (4, 2, 1, 2)]
SYMM_PROPS = [  # label, scenario, variant, defines, expected
    ("sync v2", "SCEN_SYNC", 2, [], "hold"),
    ("sync2 v2", "SCEN_SYNC", 2, ["CHECK_SYNC2=1"], "hold"),
    ("sync v1 flag", "SCEN_SYNC", 1, ["CHECK_SYNC1=0"], "violate"),
    ("sync v0 began", "SCEN_SYNC", 0, ["CHECK_FLAG=0"], "violate"),
    ("free v2", "SCEN_FREE", 2, ["CHECK_SYNC1=0"], "hold"),
    ("depth v2", "SCEN_DEPTH", 2, ["CHECK_SYNC1=0"], "hold"),
    ("hazard", "SCEN_HAZARD", 2, ["HAZARD_FIX=0"], "violate"),
    ("hazard fixed", "SCEN_HAZARD", 2, ["HAZARD_FIX=1"], "hold"),
    ("probe old flag", "SCEN_SYNC", 2, ["CHECK_SYNC1=0", "CHECK_FLAG=0", "PROBE=1"], "violate"),
    ("probe pending", "SCEN_SYNC", 2, ["CHECK_SYNC1=0", "CHECK_FLAG=0", "PROBE=2"], "violate"),
    ("probe after return", "SCEN_SYNC", 2, ["CHECK_SYNC1=0", "CHECK_FLAG=0", "PROBE=3"],
     "violate"),
    ("probe recheck", "SCEN_SYNC", 2, ["CHECK_SYNC1=0", "CHECK_FLAG=0", "PROBE=4"], "violate"),
    ("probe replay", "SCEN_DEPTH", 2, ["CHECK_SYNC1=0", "PROBE=5"], "violate"),
]
PREMISE_CFGS = [(3, 2, 1, 2), (4, 1, 2, 1), (3, 1, 3, 1)]
PREMISE_SCENS = [("SCEN_SYNC", ["CHECK_SYNC2=1"]), ("SCEN_FREE", ["CHECK_SYNC1=0"]),
                 ("SCEN_DEPTH", ["CHECK_SYNC1=0"]), ("SCEN_HAZARD", ["HAZARD_FIX=1"])]
# the cutoff: with A arrivals in all, CPUs above A are never needed under R14, so the state count
# stops growing at NCPU = A + 1 (interrupt CPUs 1..A)
CUTOFF = [("weak", 1, 2, 1, range(3, 9)), ("tso", 1, 3, 1, range(4, 9)),
          ("weak", 2, 1, 2, range(3, 9))]


def symmetry(build, budget):
    out = {"compare": [], "premise": [], "cutoff": []}
    print("symmetry (R14): plain vs SYMM=1 verdicts and states", flush=True)
    for cpus, lines, arr, sh in SYMM_CFGS:
        for mm in ("tso", "weak"):
            for label, scen, v, d, exp in SYMM_PROPS:
                if label == "probe pending" and (cpus < 3 or arr < 2):
                    continue
                if label == "probe after return" and arr < 2:
                    continue
                base = model_defines(mm, v, cpus, lines, arr, sh, scen=scen, extra=d)
                tag = f"symm-{mm}-c{cpus}l{lines}a{arr}-{label.replace(' ', '_')}"
                rp = verify(build, tag, base, budget, opt="-O0")
                rs = verify(build, tag + "-symm", base + ["SYMM=1"], budget, opt="-O0")
                # a violation must be the same assertion (not R14's own checks)
                msg = [re.sub(r"\s*\(at depth \d+\)", "", x.get("detail") or "") for x in (rp, rs)]
                ok = (rp["result"] == rs["result"] == exp and
                      (exp != "hold" or (rs["states"] or 0) <= (rp["states"] or 0)) and
                      (exp != "violate" or msg[0] == msg[1]))
                out["compare"].append({"memory_model": mm, "cpus": cpus, "lines": lines,
                                       "arrivals": arr, "sharers": sh, "property": label,
                                       "expected": exp, "plain": rp["result"],
                                       "plain_states": rp["states"], "symm": rs["result"],
                                       "symm_states": rs["states"], "violation": msg[1],
                                       "ok": ok})
                print(f"  {'ok  ' if ok else 'FAIL'} {mm:4s} c{cpus} l{lines} a{arr} {label:20s} "
                      f"plain {rp['result']:9s} {rp['states']}  symm {rs['result']:9s} "
                      f"{rs['states']}", flush=True)
    print("symmetry (R14): the premise monitor (-DSYMM_CHECK, -DNOREDUCE) in every state",
          flush=True)
    for cpus, lines, arr, sh in PREMISE_CFGS:
        for mm in ("sc", "tso", "weak"):
            for scen, d in PREMISE_SCENS:
                r = verify(build, f"premise-{mm}-c{cpus}l{lines}a{arr}-{scen}",
                           model_defines(mm, 2, cpus, lines, arr, sh, scen=scen,
                                         extra=d + ["SYMM=1", "SYMM_CHECK"]),
                           budget, opt="-O0", cc_extra=["-DNOREDUCE"])
                ok = r["result"] == "hold"
                out["premise"].append({"memory_model": mm, "cpus": cpus, "lines": lines,
                                       "arrivals": arr, "sharers": sh, "scenario": scen,
                                       "result": r["result"], "states": r["states"], "ok": ok,
                                       "detail": r.get("detail", "")})
                print(f"  {'ok  ' if ok else 'FAIL'} premise {mm:4s} c{cpus} l{lines} a{arr} "
                      f"{scen:12s} {r['result']} states={r['states']}", flush=True)
    print("symmetry (R14): the cutoff -- states stop growing at NCPU = arrivals + 1", flush=True)
    for mm, lines, arr, sh, cpus_range in CUTOFF:
        seq = []
        for cpus in cpus_range:
            r = verify(build, f"cutoff-{mm}-c{cpus}l{lines}a{arr}",
                       model_defines(mm, 2, cpus, lines, arr, sh, extra=["SYMM=1"]), budget)
            seq.append({"cpus": cpus, "result": r["result"], "states": r["states"],
                        "seconds": r["seconds"]})
        total = lines * arr
        at = [x["states"] for x in seq if x["cpus"] >= total + 1]
        plain = verify(build, f"cutoff-{mm}-c{max(cpus_range)}l{lines}a{arr}-plain",
                       model_defines(mm, 2, max(cpus_range), lines, arr, sh), budget)
        ok = (all(x["result"] == "hold" for x in seq) and len(set(at)) == 1
              and plain["result"] in ("hold", "incomplete")
              and (plain["states"] or 0) > at[0])
        out["cutoff"].append({"memory_model": mm, "lines": lines, "arrivals": arr,
                              "sharers": sh, "runs": seq, "plain_at_max": plain["states"],
                              "plain_result": plain["result"], "ok": ok})
        print(f"  {'ok  ' if ok else 'FAIL'} cutoff {mm} lines={lines} arrivals={arr}: "
              + ", ".join(f"{x['cpus']}:{x['states']}" for x in seq)
              + f"; plain at {max(cpus_range)}: {plain['states']} ({plain['result']})",
              flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="saturation,target,scenarios,table,symmetry,frontier,unbounded")
    ap.add_argument("--budget", type=int, default=90)
    ap.add_argument("--target-budget", type=int, default=900)
    ap.add_argument("--frontier-budget", type=int, default=1800)
    ap.add_argument("--memlim", type=int, default=14000, help="MB, the frontier runs' cap")
    ap.add_argument("--tags", default=None, help="frontier: only these tags (comma list)")
    a = ap.parse_args()
    out = os.path.join(a.build, "evidence", "model-scale.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    data = {}
    if os.path.exists(out):
        data = json.load(open(out))
    t0 = time.time()
    for part in a.only.split(","):
        if part == "saturation":
            data["saturation"] = saturation(a.build, a.budget)
        elif part == "target":
            data["target"] = target(a.build, a.target_budget)
        elif part == "scenarios":
            data["scenarios"] = scenarios(a.build, a.budget)
        elif part == "table":
            data["table"] = table(a.build, a.budget)
        elif part == "frontier":
            new = frontier(a.build, a.frontier_budget, a.memlim,
                           a.tags.split(",") if a.tags else None)
            keep = [r for r in data.get("frontier", []) if a.tags and r["tag"] not in a.tags.split(",")]
            data["frontier"] = sorted(keep + new, key=lambda r: [f[0] for f in FRONTIER].index(r["tag"]))
        elif part == "unbounded":
            data["unbounded"] = unbounded(a.build, a.frontier_budget, a.memlim)
        elif part == "symmetry":
            data["symmetry"] = symmetry(a.build, a.budget)
        elif part == "bitstate":
            data["table"] = rerun_bitstate(a.build, data.get("table", []), a.budget)
        else:
            print(f"model-scale: unknown part {part}", file=sys.stderr)
            return 2
    data["host"] = {"nproc": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M")}
    json.dump(data, open(out, "w"), indent=1)
    print(f"model-scale: {time.time() - t0:.0f}s -> {os.path.relpath(out, ROOT)}")
    bad = [r for sec in ("table", "scenarios") for r in data.get(sec, [])
           if r.get("result") == "violate"]
    bad += [r for r in data.get("frontier", []) if r.get("result") not in (r["expected"], "incomplete")]
    bad += [r for r in data.get("unbounded", []) if r.get("result") == "violate"]
    sy = data.get("symmetry", {})
    bad += [r for sec in ("compare", "premise", "cutoff") for r in sy.get(sec, []) if not r["ok"]]
    if data.get("target", {}).get("result") == "violate":
        bad.append(data["target"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

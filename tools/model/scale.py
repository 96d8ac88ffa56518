#!/usr/bin/env python3
"""tools/model/scale.py -- the model's scale benchmark (`make model-scale`, `make bench-model`).

A benchmark, not a test: it measures and reports; it fails only when a run's verdict is wrong
(a "hold" configuration that violates).  Sections of build/evidence/model-scale.json:
  saturation  store-buffer depth SBD and WEAK history HIST against state counts (REQ-MM-6)
  target      v2 under WEAK, SYNC scenario, 4 CPUs x 2 lines (line 0 shared by 2) x 2 arrivals
  scenarios   the FREE and DEPTH scenarios at the largest size that fits the same budget
  table       v2 SYNC, CPUs 2..5 x arrivals 1..4, TSO and WEAK, partial-order reduction +
              -DCOLLAPSE; beyond exhaustive reach a bitstate run, reported non-exhaustive
Options: --only saturation,table,...  --budget SECONDS (per exhaustive run, default 120)
"""
import argparse, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pan  # noqa: E402

ROOT = pan.ROOT
MODEL = os.path.join(ROOT, "promela", "irqsync.pml")
MEMLIM = 4096


def one(build, tag, defines, budget, bitstate=False, collapse=True, opt=None):
    work = os.path.join(build, "model-scale", tag)
    cc = ["-DSAFETY", f"-DMEMLIM={MEMLIM}"]
    args = ["-m10000000"]
    if bitstate:
        cc = ["-DSAFETY", "-DBITSTATE"]
        args += ["-w30"]          # 2^30 bits = 128 MB of hash array
    elif collapse:
        cc.append("-DCOLLAPSE")
    if opt is None:   # a fast compile for small runs, an optimised pan for the long ones
        opt = "-O2" if any(d in defines for d in ("NCPU=4", "NCPU=5")) else "-O0"
    r = pan.run(work, MODEL, defines, cc, args, cc_opt=opt, timeout=budget)
    if "fatal" in r:
        return {"defines": defines, "result": "error", "detail": r["fatal"]}
    if r["errors"]:
        res = "violate"
    elif r["errors"] is None or r["cut"]:
        res = "incomplete"
    else:
        res = "hold"
    out = {"defines": defines, "result": res, "exhaustive": res == "hold" and not bitstate,
           "states": r["states"], "transitions": r["transitions"], "depth": r["depth"],
           "memory_mb": r["memory_mb"], "seconds": r["seconds"], "wall": r["wall"],
           "reduction": "POR" + ("+BITSTATE" if bitstate else "+COLLAPSE" if collapse else ""),
           "detail": r["message"] or "; ".join(r["cut"])}
    if bitstate:
        out["hash_factor"] = r["hash_factor"]
        out["result"] = "incomplete" if res != "violate" else res
        out["exhaustive"] = False
    return out


def cfgd(mm, v, cpus, lines, arr, sh, scen="SCEN_SYNC", extra=()):
    return [f"MM_{mm.upper()}", f"VARIANT={v}", f"SCEN={scen}", f"NCPU={cpus}",
            f"NLINES={lines}", f"ARRIVALS={arr}", f"SHARERS={sh}"] + list(extra)


def show(title, r):
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
                r2 = one(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v2",
                         cfgd(mm, 2, cpus, 1, arr, 1, extra=extra), budget)
                r1 = one(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v1",
                         cfgd(mm, 1, cpus, 1, arr, 1, extra=extra + ["CHECK_SYNC1=0"]), budget)
                # every reachable state of v1 (its assertions compiled out): grows with the
                # bound until no behaviour is left to add
                r1a = one(build, f"sat-{mm}-{knob}{k}-c{cpus}a{arr}-v1all",
                          cfgd(mm, 1, cpus, 1, arr, 1,
                               extra=extra + ["CHECK_SYNC1=0", "CHECK_FLAG=0"]), budget)
                row = {"memory_model": mm, "knob": knob, "value": k, "cpus": cpus,
                       "scenario": "sync" + ("+sync2" if more else ""),
                       "arrivals": arr, "v2": r2, "v1_result": r1["result"],
                       "v1_states_no_asserts": r1a.get("states")}
                rows.append(row)
                show(f"{mm} {knob}={k} cpus={cpus} arr={arr} {' '.join(more)} (v1 {r1['result']}, "
                     f"v1 states {r1a.get('states')})", r2)
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
                d = cfgd(mm, 2, cpus, lines, arr, sh)
                tag = f"table-{mm}-c{cpus}l{lines}a{arr}"
                if cut:   # a smaller size already did not fit: go straight to bitstate
                    r = {"result": "incomplete", "detail": "skipped: smaller size exceeded budget"}
                else:
                    r = one(build, tag, d, budget)
                if r["result"] == "incomplete":
                    cut = True
                    rb = one(build, tag + "-bit", d, min(budget, 60), bitstate=True)
                    r = dict(rb, exhaustive_attempt=r.get("detail"))
                rows.append({"memory_model": mm, "cpus": cpus, "lines": lines, "sharers": sh,
                             "arrivals": arr, **r})
                show(f"{mm} lines={lines} cpus={cpus} arrivals={arr} "
                     f"[{r.get('reduction', '')}]", r)
    return rows


def bitstate(build, rows, budget):
    """Redo the bitstate run of every table cell that exhaustive search could not finish."""
    print(f"bitstate runs for the cells beyond exhaustive reach ({budget} s each)", flush=True)
    for i, r in enumerate(rows):
        if r.get("exhaustive") or r.get("result") == "violate":
            continue
        d = cfgd(r["memory_model"], 2, r["cpus"], r.get("lines", 1), r["arrivals"],
                 r.get("sharers", 1))
        rb = one(build, f"bit-{r['memory_model']}-c{r['cpus']}l{r.get('lines', 1)}"
                 f"a{r['arrivals']}", d, budget, bitstate=True)
        rows[i] = {k: r[k] for k in ("memory_model", "cpus", "lines", "sharers", "arrivals")
                   if k in r}
        rows[i].update(rb, exhaustive_attempt=r.get("exhaustive_attempt", r.get("detail")))
        show(f"{r['memory_model']} lines={r.get('lines')} cpus={r['cpus']} "
             f"arrivals={r['arrivals']} [bitstate]", rb)
    return rows


def target(build, budget):
    print("target: v2 WEAK SYNC, 4 CPUs x 2 lines (line 0 shared by 2) x 2 arrivals", flush=True)
    r = one(build, "target-weak-c4l2a2s2", cfgd("weak", 2, 4, 2, 2, 2), budget)
    show("v2 weak cpus=4 lines=2 sharers=2 arrivals=2", r)
    return r


def scenarios(build, budget):
    rows = []
    print("FREE / DEPTH scenarios, v2 WEAK, growing until the budget", flush=True)
    sizes = [(2, 1, 1, 2), (3, 1, 1, 2), (3, 1, 2, 2), (3, 2, 1, 2), (4, 1, 2, 2),
             (4, 2, 1, 2), (4, 2, 2, 2), (5, 2, 1, 2), (4, 2, 3, 2), (5, 2, 2, 2)]
    for scen in ("SCEN_FREE", "SCEN_DEPTH"):
        for cpus, lines, arr, sh in sizes:
            d = cfgd("weak", 2, cpus, lines, arr, sh, scen=scen, extra=["CHECK_SYNC1=0"])
            r = one(build, f"{scen}-c{cpus}l{lines}a{arr}s{sh}", d, budget)
            rows.append({"scenario": scen, "cpus": cpus, "lines": lines, "arrivals": arr,
                         "sharers": sh, **r})
            show(f"{scen} cpus={cpus} lines={lines} arr={arr} sh={sh}", r)
            if r["result"] != "hold":
                break
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--only", default="saturation,target,scenarios,table")
    ap.add_argument("--budget", type=int, default=90)
    ap.add_argument("--target-budget", type=int, default=900)
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
        elif part == "bitstate":
            data["table"] = bitstate(a.build, data.get("table", []), a.budget)
        else:
            print(f"model-scale: unknown part {part}", file=sys.stderr)
            return 2
    data["host"] = {"nproc": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M")}
    json.dump(data, open(out, "w"), indent=1)
    print(f"model-scale: {time.time() - t0:.0f}s -> {os.path.relpath(out, ROOT)}")
    bad = [r for sec in ("table", "scenarios") for r in data.get(sec, [])
           if r.get("result") == "violate"]
    if data.get("target", {}).get("result") == "violate":
        bad.append(data["target"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

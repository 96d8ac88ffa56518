"""tools/model/swarm.py -- swarm-style bitstate runs beyond exhaustive reach (`make model-swarm`).

  python3 -m tools.model.swarm [--jobs-per-config K] [--minutes M] [--shard i/N] [--smoke]
  python3 -m tools.model.swarm --merge [--shards FILE...]
                                        the shards -> build/evidence/model-swarm.json

Many short bitstate searches of one model, each with another randomisation seed (transition
order, -DT_RAND), process scheduling order (-p_reverse / -p_rotateN / -p_permute), hash seed
(-hN), bits per state (-kN) and bit-array size (-wN), explore different parts of a state space
too large for an exhaustive search (Holzmann, Joshi, Groce: "Swarm verification").  The result
is COVERAGE, never "hold": each job reports the states it explored, its hash factor and the
probability bound below; a job that finds an error reports it (and fails the run when the
configuration is expected to hold).  pan's -rhash mode is not used: under SPIN 6.5.2 its
"RandRotated" scheduling reports invalid end states that do not exist in this model.

Configurations (v2 under WEAK, SYNC, line 0 shared by 2 handlers, the plain model: no R14):
6 CPUs x 2 lines x 2 arrivals (its exhaustive count is in model-scale.json: the calibration),
6, 7 and 8 CPUs x 2 lines x 3 arrivals; plus one known-bad job (v1 at 8 CPUs) that must report
the stale-flag violation.  Jobs are numbered; shard i of N runs the jobs k with k % N == i-1
(jobs have equal time budgets).  Each job's pan runs under `nice -n 15`, one at a time.

Probability statement (per job, bitstate with k bits per state in an array of m bits): when the
array holds n states, a new state is wrongly taken as already visited -- and its successors
possibly never explored -- with probability about (1 - e^(-k n / m))^k, at most the value at the
job's final n (`p_omit`).  This bounds the loss from hashing within the part of the space the
job's order reached before its time limit; the part it did not reach is not covered at all, which
is why no bitstate run is ever reported as "hold".
Exit status: 0 every job as expected (no error where none is expected); 1 otherwise; 2 usage.
"""
import argparse, glob, hashlib, json, math, os, re, sys

from tools.model import matrix, pan

ROOT = pan.ROOT
MODEL = os.path.join(ROOT, "promela", "irqsync.pml")
FORMAT = "irqsync-model-swarm-shard/1"
# (tag, cpus, lines, arrivals, sharers, variant, expected)
CONFIGS = [("c6l2a2", 6, 2, 2, 2, 2, "no error"),
           ("c6l2a3", 6, 2, 3, 2, 2, "no error"),
           ("c7l2a3", 7, 2, 3, 2, 2, "no error"),
           ("c8l2a3", 8, 2, 3, 2, 2, "no error")]
BAD = ("c8l2a3-v1", 8, 2, 3, 2, 1, "violate")
SMOKE = [("smoke-c3l1a2", 3, 1, 2, 1, 2, "no error")]
SMOKE_BAD = ("smoke-c3l1a2-v1", 3, 1, 2, 1, 1, "violate")
ORDERS = ([], ["-p_reverse"], ["-p_rotate1"], ["-p_permute"], ["-p_rotate2"], ["-t_reverse"])


def job_defines(cpus, lines, arr, sh, v):
    return (["MM_WEAK", f"VARIANT={v}", "SCEN=SCEN_SYNC", f"NCPU={cpus}", f"NLINES={lines}",
             f"ARRIVALS={arr}", f"SHARERS={sh}"] + (["CHECK_SYNC1=0"] if v == 1 else []))


def plan(per_config, minutes, smoke=False):
    """The numbered jobs: deterministic, so every shard computes the same list."""
    jobs = []
    cfgs, bad = (SMOKE, SMOKE_BAD) if smoke else (CONFIGS, BAD)
    for tag, cpus, lines, arr, sh, v, exp in cfgs:
        for j in range(per_config):
            seed = 1 + 7919 * (len(jobs) + 1) % 100003
            args = [f"-RS{seed}", f"-h{(37 * seed) % 500}", f"-k{2 + j % 3}",
                    f"-w{(24 if smoke else 31) + j % 2}"] + ORDERS[j % len(ORDERS)]
            jobs.append(dict(id=f"{tag}-j{j}", config=tag, cpus=cpus, lines=lines, arrivals=arr,
                             sharers=sh, variant=f"v{v}", expected=exp, pan_args=args,
                             minutes=minutes, smoke=smoke,
                             defines=job_defines(cpus, lines, arr, sh, v)))
    tag, cpus, lines, arr, sh, v, exp = bad
    jobs.append(dict(id=f"{tag}-j0", config=tag, cpus=cpus, lines=lines, arrivals=arr,
                     sharers=sh, variant=f"v{v}", expected=exp,
                     pan_args=["-RS7", "-h3", "-k3", f"-w{24 if smoke else 30}"],
                     minutes=minutes, smoke=smoke, defines=job_defines(cpus, lines, arr, sh, v)))
    return jobs


CC = ["-DSAFETY", "-DBITSTATE", "-DPERMUTED", "-DT_RAND"]


def run_job(job, build):
    work = os.path.join(build, "model-swarm", job["id"])
    args = job["pan_args"] + ["-m100000", f"-Q{job['minutes']}"]
    # pan checks its time limit at each progress line (every 10^6 states): allow slack
    r = pan.run(work, MODEL, job["defines"], CC, args, cc_opt="-O0" if job["smoke"] else "-O2",
                timeout=job["minutes"] * 120 + 300, prefix=("nice", "-n", "15"),
                cache_dir=os.path.join(build, "model", "pan-cache"))
    out = {k: v for k, v in job.items() if k != "defines"}
    out["defines"] = job["defines"]
    out["pan"] = " ".join(CC + args)
    if "fatal" in r:
        return dict(out, result="error", detail=r["fatal"], as_expected=False)
    k = int(re.search(r"-k(\d+)", " ".join(args)).group(1))
    w = int(re.search(r"-w(\d+)", " ".join(args)).group(1))
    n = r["states"] or 0
    m = 2.0 ** w
    p_omit = (1.0 - math.exp(-k * n / m)) ** k if n else 0.0
    finished = "Search not completed" not in r["output"] and "Time limit" not in r["output"]
    # pan.verdict never says "hold" of a bitstate search; what it found is coverage: "no error"
    # when pan reported errors: 0, "error" when it reported nothing
    verdict, _ = pan.verdict(r)
    res = "violate" if verdict == "violate" else "error" if r["errors"] is None else "no error"
    out.update(result=res, exhaustive=False, states=r["states"], transitions=r["transitions"],
               depth=r["depth"], seconds=r["seconds"], hash_factor=r["hash_factor"],
               bits_per_state=k, bit_array_bits=int(m), p_omit=p_omit,
               search_finished=finished, detail=r["message"] or ("time limit reached"
                                                                 if not finished else ""))
    out["as_expected"] = res == job["expected"]
    return out


def model_inputs():
    """The fingerprint of the model sources, the matrix's (a merge refuses other sources)."""
    return matrix.inputs_fingerprint()


def plan_hash(jobs):
    return hashlib.sha256(json.dumps(jobs, sort_keys=True).encode()).hexdigest()


def summarize(results, scale):
    """Per configuration: jobs, the states each explored (largest, sum), errors; for the
    calibration configuration, the exhaustive count from model-scale.json."""
    exact = {}
    for r in (scale or {}).get("frontier", []):
        if r.get("exhaustive") and not r.get("symmetry") and r.get("variant") == "v2":
            exact[f"c{r['cpus']}l{r['lines']}a{r['arrivals']}"] = r["states"]
    out = []
    for tag in dict.fromkeys(r["config"] for r in results):
        rs = [r for r in results if r["config"] == tag]
        st = [r["states"] or 0 for r in rs]
        s = dict(config=tag, jobs=len(rs), variant=rs[0]["variant"], expected=rs[0]["expected"],
                 errors=sum(r["result"] == "violate" for r in rs),
                 states_max=max(st), states_sum=sum(st),
                 p_omit_max=max(r.get("p_omit") or 0 for r in rs),
                 finished=sum(bool(r.get("search_finished")) for r in rs),
                 seconds=round(sum(r.get("seconds") or 0 for r in rs), 1),
                 verdict=("violation found (as expected)" if rs[0]["expected"] == "violate"
                          and any(r["result"] == "violate" for r in rs) else
                          "VIOLATION FOUND" if any(r["result"] == "violate" for r in rs) else
                          "no error found in %d bitstate runs: coverage, not exhaustive"
                          % len(rs)))
        if tag in exact:
            s["exhaustive_states"] = exact[tag]
            s["best_job_fraction"] = round(max(st) / exact[tag], 4)
        out.append(s)
    return out


def write_evidence(path, results, meta, build):
    scale = None
    try:
        with open(os.path.join(build, "evidence", "model-scale.json")) as f:
            scale = json.load(f)
    except (OSError, ValueError):
        pass
    data = dict(meta, jobs=results, summary=summarize(results, scale),
                note="bitstate runs: coverage, never 'hold'; see tools/model/swarm.py for "
                     "the probability statement (p_omit)")
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs-per-config", type=int, default=3)
    ap.add_argument("--minutes", type=int, default=3)
    ap.add_argument("--shard", default=None)
    ap.add_argument("--smoke", action="store_true", help="a tiny configuration (the test)")
    ap.add_argument("--merge", action="store_true")
    ap.add_argument("--shards", nargs="*", default=None)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    ev = os.path.join(a.build, "evidence")
    os.makedirs(ev, exist_ok=True)
    sdir = os.path.join(a.build, "model", "swarm-shards")

    if a.merge:
        files = a.shards or sorted(glob.glob(os.path.join(sdir, "swarm-*-of-*.json")))
        if not files:
            print("model-swarm-merge: error: no shard files (make model-swarm SHARD=i/N first)",
                  file=sys.stderr)
            return 1
        shards = []
        for p in files:
            try:
                with open(p) as f:
                    shards.append(json.load(f))
            except (OSError, ValueError) as e:
                print(f"model-swarm-merge: error: {p}: not a readable shard file ({e})",
                      file=sys.stderr)
                return 1
            if shards[-1].get("format") != FORMAT:
                print(f"model-swarm-merge: error: {p}: not a swarm shard file", file=sys.stderr)
                return 1
        n = shards[0]["of"]
        have = sorted(s["shard"] for s in shards)
        for key, what in (("of", "number of shards"), ("plan", "job plan"),
                          ("inputs", "model sources")):
            if any(s[key] != shards[0][key] for s in shards):
                print(f"model-swarm-merge: error: shards with different {what}", file=sys.stderr)
                return 1
        if have != list(range(1, n + 1)):
            miss = [i for i in range(1, n + 1) if i not in have]
            print(f"model-swarm-merge: error: shards {have} of {n}: missing "
                  f"{', '.join(f'{i}/{n}' for i in miss) or 'none'}"
                  + (", duplicated" if len(set(have)) != len(have) else ""), file=sys.stderr)
            return 1
        if model_inputs()["sha256"] != shards[0]["inputs"]["sha256"]:
            print("model-swarm-merge: error: the shards were made from other model sources "
                  "than this tree's", file=sys.stderr)
            return 1
        byid = {}
        for s in shards:
            for r in s["jobs"]:
                byid[r["id"]] = r
        order = shards[0]["job_ids"]
        if sorted(byid) != sorted(order):
            print("model-swarm-merge: error: the shards do not hold every job exactly once",
                  file=sys.stderr)
            return 1
        results = [byid[i] for i in order]
        meta = {k: shards[0][k] for k in ("plan", "inputs", "settings", "minutes",
                                          "jobs_per_config", "smoke")}
        meta["shards"] = n
        out = a.out or os.path.join(ev, "model-swarm.json")
        data = write_evidence(out, results, meta, a.build)
    else:
        shard = matrix.parse_shard(a.shard) if a.shard else None
        if a.shard and not shard:
            print(f"model-swarm: error: SHARD={a.shard} is not a shard: write i/N", file=sys.stderr)
            return 2
        jobs = plan(a.jobs_per_config, a.minutes, a.smoke)
        mine = [j for k, j in enumerate(jobs) if not shard or k % shard[1] == shard[0] - 1]
        print(f"model-swarm: {len(mine)} of {len(jobs)} bitstate jobs"
              + (f" (shard {shard[0]}/{shard[1]})" if shard else "")
              + f", up to {a.minutes} min each, one at a time under nice -n 15", flush=True)
        results = []
        for j in mine:
            r = run_job(j, a.build)
            results.append(r)
            print(f"  {'ok  ' if r['as_expected'] else 'FAIL'} {r['id']:18s} {r['variant']} "
                  f"{r['result']:9s} states={r['states']} depth={r.get('depth')} "
                  f"hash factor={r.get('hash_factor')} p_omit={r.get('p_omit', 0):.2g} "
                  f"{r.get('seconds')}s  [{' '.join(r['pan_args'])}]", flush=True)
        meta = dict(plan=plan_hash(jobs), inputs=model_inputs(),
                    settings=dict(spin=pan.spin_version(), gcc=pan.gcc_version(), cc=CC),
                    minutes=a.minutes, jobs_per_config=a.jobs_per_config, smoke=a.smoke,
                    job_ids=[j["id"] for j in jobs])
        if shard:
            os.makedirs(sdir, exist_ok=True)
            out = a.out or os.path.join(sdir, f"swarm-{shard[0]}-of-{shard[1]}.json")
            with open(out, "w") as f:
                json.dump(dict(meta, format=FORMAT, shard=shard[0], of=shard[1], jobs=results),
                          f, indent=1)
            data = {"jobs": results, "summary": summarize(results, None)}
        else:
            out = a.out or os.path.join(ev, "model-swarm.json")
            data = write_evidence(out, results, meta, a.build)
    for s in data["summary"]:
        print(f"model-swarm: {s['config']} ({s['variant']}): {s['jobs']} jobs, states explored "
              f"max {s['states_max']:,} / sum {s['states_sum']:,}, p_omit <= {s['p_omit_max']:.2g}"
              + (f", best job {s['best_job_fraction']:.1%} of the exhaustive "
                 f"{s['exhaustive_states']:,}" if "exhaustive_states" in s else "")
              + f" -- {s['verdict']}")
    bad = [r for r in data["jobs"] if not r["as_expected"]]
    print(f"model-swarm: {len(data['jobs']) - len(bad)}/{len(data['jobs'])} jobs as expected; "
          f"-> {os.path.relpath(out, ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

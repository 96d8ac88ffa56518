#!/usr/bin/env python3
"""proofs/units.py — the core's proof as units, one per function, reused by key.

spec/proof.md ("Proof units") is the design; in short:

  units.py prove [--shard i/N] [--reuse store|none] [--jobs J] [gate options] -- FRAMA-C INPUTS
      1. Inventory (two frama-c runs, about a second): the program as Frama-C parsed it
         (`-print`), the functions that have a body (clang's AST of that printed program), and
         every property of the program with its current file and line (`-rte -report-untried`).
      2. A key per unit (function f): SHA-256 of f's name, KEY_VERSION and the unit's inputs,
         each a hash: the printed program with every other function's body removed and the
         contracts of the functions f never names removed ("text"), every Frama-C and WP
         option, the tool and prover versions, the cvc5 driver, and the code of the gate
         itself (GATE_CODE: what decides pass or fail).  Whatever WP reads to make f's goals
         is in that text: types, globals, logic, axioms, f's contract and body, the
         contracts of what f calls.  A stored unit records its inputs next to its key; one
         whose key does not derive from them (edited by hand) is a problem, never reused.
      3. A unit whose key matches a stored passing result (proofs/units/<f>.json), or the
         passing result of the last local run (build/proofs/units/<f>/unit.json, e.g. of a
         run that failed on another unit), is reused; the others run as separate
         `gate.py run --fct f` jobs, J at a time.
      4. Without --shard: the gate over the union (below) -> proofs.json and the ledger.
         With --shard i/N: only the units of shard i (a deterministic split) run, and the
         partial result goes to build/proofs/shards/shard-i-of-N.json.

  units.py merge [PARTIAL.json ...]
      Merges the partial results of shards 1..N (each exactly once, made from this checkout's
      inventory) and applies the same gate.

  units.py status
      Each unit's key now and whether its stored result is current, behind (and which
      inputs changed) or inconsistent, also in OUTDIR/status.json; no prover runs (exit 1
      unless all are current).

  units.py store
      Copies the units proved now (passing) from the last run into proofs/units/, drops the
      stored units whose function is gone, and rewrites proofs/ledger.md.

The gate over the union fails (exit 1) unless: every function with a body (but the skipped
ones) is exactly one unit; every unit, rerun or reused, has all goals proved, all smoke tests
passed and no problem; every property of the inventory that a function's own proof discharges
(all kinds but `precondition`, whose obligations are the call-site goals of the callers' units,
and `behavior assumption`, a hypothesis)
is Valid in that function's unit; every assumed contract is in the trusted base and every
trusted-base entry is used.  Exit 2: a tool failed.

With --compare-store (the cold proof of CI: make prove-cold, PROVE_REUSE=none and no prover
cache) every unit proved now is also compared with its stored result: same key, same goals
and smoke tests (names and counts), same properties and assumptions, all proved now.  A
stored unit that the run does not reproduce fails by name (COLD-MISMATCH), and so does a
stored unit of no function.  --compare-evidence PATH compares the union with the proofs.json
of a run that reused the store (make check's): same units, keys and goal counts.
"""
import argparse, collections, concurrent.futures as cf, hashlib, json, os, re
import subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gate  # noqa: E402  (proofs/gate.py: one WP job, its readers and writers)

ROOT = gate.ROOT
KEY_VERSION = 2          # bump when the key's derivation changes: every stored unit reruns
# The gate's own code: it decides what passes, so a change to it invalidates every stored
# result (the trusted base and the assumptions are not here: gate_union checks them against
# the current source on every run, reused units included).
GATE_CODE = ["proofs/gate.py", "proofs/units.py"]
# A unit's inputs, each hashed into its key (what a mismatch means, for the messages).
INPUT_NAMES = {"text": "its program text (body, contracts it names, logic, types)",
               "frama_c_args": "the Frama-C inputs", "wp_options": "the WP options",
               "tools": "the tool or prover versions", "cvc5_driver": "the cvc5 driver",
               "gate_code": "the gate's code (" + ", ".join(GATE_CODE) + ")"}
STORE = os.path.join(ROOT, "proofs", "units")
CONTRACT_WORDS = {"requires", "ensures", "assigns", "behavior", "behaviour", "terminates",
                  "decreases", "allocates", "frees", "exits", "complete", "disjoint",
                  "check", "admit", "assumes", "breaks", "continues", "returns"}
IDENT = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")
# Property kinds that are no obligation of the function's own proof: a precondition is proved
# at each call (a goal of the caller's unit); a behavior's `assumes` is a hypothesis that
# selects the behavior, proved nowhere.
NOT_OWN_OBLIGATIONS = {"precondition", "behavior assumption"}


def log(*a):
    print(*a, flush=True)


def sha(data):
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()


# --------------------------------------------------------------------------- inventory
def frama_c(args, logf):
    with open(logf, "w") as lf:
        rc = subprocess.call(["frama-c"] + args, stdout=lf, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.stdout.write(open(logf).read()[-3000:])
        raise SystemExit(f"units: frama-c failed (exit {rc}); log: {logf}")


def functions_of(printed, workdir):
    """Top-level function declarations of the printed program, from clang's AST (byte offsets):
    {name: {"decls": [(begin, end)], "body": (begin, end) or None}}."""
    src = os.path.join(workdir, "printed.c")
    r = subprocess.run(["clang", "-fsyntax-only", "-w", "-Xclang", "-ast-dump=json", src],
                       capture_output=True)
    if r.returncode != 0:
        sys.stdout.write(r.stderr.decode(errors="replace")[-3000:])
        raise SystemExit("units: clang could not parse Frama-C's printed program")
    ast = json.loads(r.stdout)
    out = {}
    for d in ast.get("inner", []):
        if d.get("kind") != "FunctionDecl" or d.get("isImplicit"):
            continue
        rng = d["range"]
        if "offset" not in rng["begin"] or "offset" not in rng["end"]:
            continue      # declared in a header clang found itself, not in the printed text
        f = out.setdefault(d["name"], {"decls": [], "body": None})
        f["decls"].append((rng["begin"]["offset"], rng["end"]["offset"] + 1))
        for c in d.get("inner", []):
            if c.get("kind") == "CompoundStmt":
                b, e = c["range"]["begin"]["offset"], c["range"]["end"]["offset"] + 1
                if printed[b:b + 1] != b"{" or printed[e - 1:e] != b"}":
                    raise SystemExit(f"units: body of {d['name']} not where clang says")
                f["body"] = (b, e)
                f["calls"] = sorted(referenced_functions(c))
    return out


def referenced_functions(node):
    """Names of the functions a body refers to (calls and addresses), from the AST."""
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        ref = n.get("referencedDecl") if isinstance(n, dict) else None
        if ref and ref.get("kind") == "FunctionDecl":
            out.add(ref["name"])
        stack.extend(n.get("inner", []))
    return out


def contract_before(printed, begin):
    """The span of the ACSL contract comment right before a declaration, or None. A comment
    counts as a contract only if its first word is a contract clause: a predicate or any other
    global annotation stays in every key."""
    j = begin
    while j > 0 and printed[j - 1:j] in b" \t\r\n":
        j -= 1
    if printed[j - 2:j] != b"*/":
        return None
    i = printed.rfind(b"/*@", 0, j)
    if i < 0:
        return None
    m = IDENT.search(printed, i + 3, j)
    if not m or m.group(0).decode() not in CONTRACT_WORDS:
        return None
    return (i, j)


class Inventory:
    """The program as Frama-C sees it, and the keys of its units."""

    def __init__(self, fc_args, workdir, skip):
        os.makedirs(workdir, exist_ok=True)
        pr = os.path.join(workdir, "printed.c")
        frama_c(fc_args + ["-print", "-ocode", pr], os.path.join(workdir, "print.log"))
        self.printed = open(pr, "rb").read()
        self.funcs = functions_of(self.printed, workdir)
        csvf = os.path.join(workdir, "inventory.csv")
        frama_c(fc_args + ["-rte", "-rte-initialized", "@all", "-then", "-report",
                           "-report-untried", "-report-csv", csvf],
                os.path.join(workdir, "inventory.log"))
        self.props = gate.read_props(csvf)
        self.skip = set(skip)
        self.units = sorted(f for f, v in self.funcs.items() if v["body"] and f not in self.skip)
        lemmas = [p for p in self.props if p["kind"] in ("lemma", "global invariant", "axiom")
                  and p["status"] != "Considered valid"]
        if lemmas:     # no -wp-fct unit proves these: refuse rather than skip them silently
            raise SystemExit(f"units: properties outside any function ({len(lemmas)}, e.g. "
                             f"{lemmas[0]['property']}): add a unit for them to proofs/units.py")
        self.digest = sha(self.printed)

    def names(self, span):
        return {m.group(0).decode() for m in IDENT.finditer(self.printed, *span)}

    def unit_text(self, f):
        """The printed program as unit f's goals see it: other bodies out, the contracts of
        functions f never names out (WP uses a callee's contract only at a call)."""
        body = self.funcs[f]["body"]
        named = self.names(body) | {f}
        cut = []
        for g, v in self.funcs.items():
            if g != f and v["body"]:
                cut.append(v["body"])
            if g not in named:
                for d in v["decls"]:
                    c = contract_before(self.printed, d[0])
                    if c:
                        cut.append(c)
        out, pos = [], 0
        for b, e in sorted(set(cut)):
            if b < pos:
                raise SystemExit(f"units: overlapping spans while keying {f}")
            out.append(self.printed[pos:b])
            out.append(b"/*cut*/")
            pos = e
        out.append(self.printed[pos:])
        return b"".join(out)

    def inputs(self, f, context):
        """Unit f's inputs, each as a hash: what its key is made of."""
        return {"text": sha(self.unit_text(f)),
                **{k: sha(json.dumps(v, sort_keys=True)) for k, v in context.items()}}

    def call_cycle(self):
        """A cycle of the call graph among the units (clang's references from each body; ghost
        code has no calls of C functions), or None."""
        graph = {f: sorted(set(self.funcs[f]["calls"]) & set(self.units)) for f in self.units}
        state, stack = {}, []

        def visit(f):
            state[f] = 1
            stack.append(f)
            for g in graph[f]:
                if state.get(g) == 1:
                    return stack[stack.index(g):] + [g]
                if g not in state:
                    c = visit(g)
                    if c:
                        return c
            stack.pop()
            state[f] = 2
            return None
        for f in self.units:
            if f not in state:
                c = visit(f)
                if c:
                    return c
        return None

    def assumptions(self):
        """Assumed contracts, from the current source: body-less functions ('Considered valid')
        and the functions whose bodies WP skips."""
        by_fn = collections.defaultdict(list)
        for p in self.props:
            if p["status"] == "Considered valid" or p["function"] in self.skip:
                by_fn[p["function"]].append(p)
        for f in self.skip:
            by_fn.setdefault(f, [])
        return dict(sorted(by_fn.items()))


def key_of(f, inputs, version=KEY_VERSION):
    """The key of unit f from its inputs (recomputable from a stored record)."""
    return sha(json.dumps({"key_version": version, "unit": f, "inputs": inputs},
                          sort_keys=True))


def store_state(f, s, key, inputs):
    """(state, why) of stored record s against unit f's key and inputs now: state is
    'current', 'missing', 'behind' (the source or the context moved on: prove it again) or
    'inconsistent' (its key does not derive from its own recorded inputs: edited by hand)."""
    if not s:
        return "missing", "no stored result"
    if s.get("key_version") != KEY_VERSION or not isinstance(s.get("inputs"), dict):
        return "behind", (f"stored under key derivation {s.get('key_version', 1)}, "
                          f"now {KEY_VERSION}")
    if key_of(f, s["inputs"]) != s.get("key"):
        return "inconsistent", "its key does not derive from its recorded inputs (edited by hand?)"
    if s["key"] == key:
        return "current", ""
    changed = [INPUT_NAMES.get(k, k) for k in sorted(set(inputs) | set(s["inputs"]))
               if inputs.get(k) != s["inputs"].get(k)]
    return "behind", "changed: " + "; ".join(changed)


def key_context(a, fc_args):
    """Everything but the program text that a unit's result depends on."""
    conf = os.path.abspath(a.why3conf)
    if not os.path.exists(conf):
        gate.why3_config(conf)
    env = dict(os.environ, WHY3CONFIG=conf)
    provers, missing = gate.select_provers(a, env)
    if missing:
        raise SystemExit(f"units: required prover(s) {missing} not configured in {conf}")
    opts = argparse.Namespace(**vars(a))
    opts.fct = "<unit>"
    tools = gate.tool_versions(env)
    return {
        "frama_c_args": fc_args,
        "wp_options": gate.wp_options(opts, provers),
        "tools": {t: tools.get(t) for t in ["frama-c", "why3"] + provers if t != "qed"},
        "cvc5_driver": sha(open(gate.CVC5_DRIVER, "rb").read()) if "cvc5" in provers else None,
        "gate_code": {p: sha(open(os.path.join(ROOT, p), "rb").read()) for p in GATE_CODE},
    }, provers


# --------------------------------------------------------------------------- running units
def shard_of(units, weights, i, n):
    """Deterministic split: heaviest first (stored goal counts, 100 for a new unit), each to
    the lightest shard so far; ties by name and shard number."""
    load = [0] * n
    part = [[] for _ in range(n)]
    for u in sorted(units, key=lambda u: (-weights.get(u, 100), u)):
        k = min(range(n), key=lambda s: (load[s], s))
        part[k].append(u)
        load[k] += weights.get(u, 100)
    return sorted(part[i - 1])


def load_json(path):
    """The JSON at `path`, or None when it is missing or unreadable."""
    try:
        return json.load(open(path)) if os.path.exists(path) else None
    except ValueError:
        return None


def load_local(outdir, f):
    """The unit result the last run on this machine left in OUTDIR/<f>/unit.json, or None."""
    return load_json(os.path.join(outdir, f, "unit.json"))


def load_stored(f):
    return load_json(os.path.join(STORE, f + ".json"))


def unit_record(f, key, inputs, res):
    """What the store keeps of one unit's run (gate.py's result.json)."""
    return {
        "unit": f, "key": key, "key_version": KEY_VERSION, "inputs": inputs,
        "goals": [{k: g[k] for k in ("goal", "total", "proved", "by")} for g in res["goals"]],
        "smoke": [{k: g[k] for k in ("goal", "total", "proved")} for g in res["smoke_tests"]],
        "props": [[p["kind"], p["property"], p["status"]] for p in res["props"]
                  if p["function"] == f],
        "assumed": sorted({x["function"] for x in res["assumptions"]}),
        "problems": res["problems"],
        "seconds": res["wall_seconds"],
        "slowest_goal_seconds": res.get("slowest_goal_seconds"),
        "slow_goals": res.get("slow_goals", []),
        "provers": res["provers_used"],
        "tools": res["tools"],
    }


def run_unit(a, f, key, inputs, fc_args):
    outdir = os.path.join(a.outdir, f)
    os.makedirs(outdir, exist_ok=True)
    cmd = [sys.executable, os.path.join(ROOT, "proofs", "gate.py"), "run", "--job", f,
           "--outdir", outdir, "--why3conf", a.why3conf, "--provers", a.provers,
           "--optional-provers", a.optional_provers, "--steps", str(a.steps),
           "--timeout", str(a.timeout), "--smoke-timeout", str(a.smoke_timeout),
           "--par", str(a.unit_par), "--cache", a.cache, "--cache-dir", a.cache_dir,
           "--initialized", a.initialized, "--fct", f, "--skip-fct", a.skip_fct,
           "--trusted", a.trusted] + (["--run-all-provers"] if a.run_all_provers else []) \
        + ["--"] + fc_args
    t0 = time.time()
    with open(os.path.join(outdir, "gate.log"), "w") as lf:
        rc = subprocess.call(cmd, stdout=lf, stderr=subprocess.STDOUT)
    resf = os.path.join(outdir, "result.json")
    if rc == 2 or not os.path.exists(resf):
        return {"unit": f, "key": key, "inputs": inputs, "goals": [], "smoke": [], "props": [], "assumed": [],
                "problems": [f"frama-c failed (exit {rc}); log: {outdir}/gate.log"],
                "seconds": round(time.time() - t0, 1), "source": "proved"}
    rec = unit_record(f, key, inputs, json.load(open(resf)))
    with open(os.path.join(outdir, "unit.json"), "w") as fh:
        json.dump(rec, fh, indent=0)
    rec["source"] = "proved"
    return rec


def unit_passes(u):
    return bool(u["goals"]) and not u["problems"] \
        and all(g["proved"] == g["total"] for g in u["goals"]) \
        and all(g["proved"] == g["total"] for g in u["smoke"])


def progress(u):
    goals = sum(g["total"] for g in u["goals"])
    proved = sum(g["proved"] for g in u["goals"])
    how = ("reused" + (" (local)" if u.get("reused_from") == "local" else "")
           if u["source"] == "reused" else "proved now")
    verdict = "" if unit_passes(u) else "  FAILED"
    log(f"prove: {u['unit']:<32} {goals:5d} goals {proved:5d} proved  {how:<10} "
        f"{u['seconds'] if u['source'] != 'reused' else 0.0:7.1f} s{verdict}")


def prove(a, fc_args):
    t0 = time.time()
    inv = Inventory(fc_args, os.path.join(a.outdir, "_inventory"), a.skip_fct.split(","))
    context, provers = key_context(a, fc_args)
    inputs = {f: inv.inputs(f, context) for f in inv.units}
    keys = {f: key_of(f, inputs[f]) for f in inv.units}
    stored = {f: load_stored(f) for f in inv.units}
    if a.shard:
        i, n = (int(x) for x in a.shard.split("/"))
        if not 1 <= i <= n:
            raise SystemExit(f"units: bad shard {a.shard} (want i/N with 1 <= i <= N)")
        weights = {f: sum(g["total"] for g in s["goals"]) for f, s in stored.items() if s}
        mine = shard_of(inv.units, weights, i, n)
    else:
        mine = list(inv.units)
    results, todo, local = {}, [], []
    states = {f: store_state(f, stored[f], keys[f], inputs[f]) for f in mine}
    store_problems = report_store(states)
    moved = sorted(f for f, (st, why) in states.items()
                   if st == "behind" and why != "changed: " + INPUT_NAMES["text"])
    if a.reuse == "store" and a.stale_context == "fail" and moved:
        # Every unit is invalid at once (gate code, options, tools, KEY_VERSION): proving
        # them all is the job of make prove + make prove-store, not of make check.
        log(f"prove: FAILED: the store was made under another key context ({len(moved)} of "
            f"{len(mine)} units, e.g. {moved[0]}: {states[moved[0]][1]}); not proving them "
            f"here: run make prove, then make prove-store, and commit proofs/units/")
        return 1

    def reusable(f, s):
        return (a.reuse == "store" and f not in a.rerun and s
                and store_state(f, s, keys[f], inputs[f])[0] == "current" and unit_passes(s))

    for f in mine:
        if reusable(f, stored[f]):
            results[f] = dict(stored[f], source="reused")
        elif reusable(f, last := load_local(a.outdir, f)):
            # The last local run's result of this very key (a passing unit of a run that failed
            # elsewhere): reused as a stored one would be, and stored by the next prove-store.
            results[f] = dict(last, source="reused", reused_from="local")
            local.append(f)
        else:
            todo.append(f)
            continue
        progress(results[f])
    # longest first (stored seconds), so that the pool ends together
    todo.sort(key=lambda f: -(stored[f] or {}).get("seconds", 1e9))
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_unit, a, f, keys[f], inputs[f], fc_args): f for f in todo}
        for fu in cf.as_completed(futs):
            u = fu.result()
            results[u["unit"]] = u
            progress(u)
    part = {"shard": a.shard or "1/1", "inventory": inv.digest, "units": mine,
            "results": {f: results[f] for f in sorted(results)},
            "seconds": round(time.time() - t0, 1), "provers": provers,
            "context": context, "store_problems": store_problems}
    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, "last-run.json"), "w") as fh:
        json.dump({"proved_now": sorted(todo + local)}, fh)
    if a.shard:
        os.makedirs(a.shard_dir, exist_ok=True)
        i, n = a.shard.split("/")
        path = os.path.join(a.shard_dir, f"shard-{i}-of-{n}.json")
        with open(path, "w") as fh:
            json.dump(part, fh, indent=0)
        bad = [f for f in mine if not unit_passes(results[f])]
        for p in store_problems:
            log(f"PROBLEM {p}")
        cold_bad = compare_store(results, mine) if a.compare_store else []
        log(f"prove: shard {a.shard}: {len(mine)} units ({len(mine) - len(todo)} reused, "
            f"{len(todo)} proved now), {len(bad)} failing, {part['seconds']} s -> {path}")
        return 1 if bad or store_problems or cold_bad else 0
    rc = gate_union(a, inv, [part], time.time() - t0)
    return cold_verdict(a, rc, results, inv)


def report_store(states):
    """One line on the stored units that are behind (why, grouped), and the problems: a stored
    record whose key does not derive from its own inputs was edited by hand."""
    behind = collections.defaultdict(list)
    problems = []
    for f, (st, why) in sorted(states.items()):
        if st == "behind":
            behind[why].append(f)
        elif st == "inconsistent":
            problems.append(f"stored unit {f}: {why}; proved again (proofs/units/{f}.json)")
    for why, fs in behind.items():
        log(f"prove: {len(fs)} stored unit(s) behind the source ({why}): "
            f"{', '.join(fs) if len(fs) <= 6 else ', '.join(fs[:6]) + ', ...'} (make prove proves "
            f"them; then make prove-store, and commit proofs/units/)")
    return problems


# --------------------------------------------------------------------------- the gate over units
def gate_union(a, inv, parts, wall):
    problems = []
    if len({p["inventory"] for p in parts}) != 1 or parts[0]["inventory"] != inv.digest:
        problems.append("partial results made from another program than this checkout's "
                        "(inventory digests differ): rerun the shards")
    results = {}
    for p in parts:
        problems += p.get("store_problems", [])
        for f, u in p["results"].items():
            if f in results:
                problems.append(f"unit {f} appears in more than one partial result")
            results[f] = u
    missing = [f for f in inv.units if f not in results]
    extra = [f for f in results if f not in inv.units]
    for f in missing:
        problems.append(f"function {f} has a body but no unit proved it")
    for f in extra:
        problems.append(f"unit {f} is not a function with a body of this program")
    unproved, smoke_failed = [], []
    for f in sorted(results):
        u = results[f]
        unproved += [f"{f}:{g['goal']}" for g in u["goals"] if g["proved"] < g["total"]]
        smoke_failed += [f"{f}:{g['goal']}" for g in u["smoke"] if g["proved"] < g["total"]]
        if not u["goals"]:
            problems.append(f"unit {f} has no goal")
        problems += [f"unit {f}: {x}" for x in u["problems"]]
    cycle = inv.call_cycle()
    if cycle:
        problems.append("recursion among the units (" + " -> ".join(cycle) + "): per-function "
                        "proofs assume the callee's contract, which is circular here")
    # Every property a function's own proof discharges must be Valid in its unit.
    for f in inv.units:
        if f not in results:
            continue
        have = collections.Counter((k, p) for k, p, s in results[f]["props"] if s == "Valid")
        for p in inv.props:
            if p["function"] != f or p["kind"] in NOT_OWN_OBLIGATIONS:
                continue
            k = (p["kind"], p["property"])
            if have[k] > 0:
                have[k] -= 1
            else:
                problems.append(f"property {f}:{p['kind']} at {p['file']}:{p['line']} is not "
                                f"Valid in unit {f} ({results[f]['source']})")
    # Assumptions: from the current source; the trusted base lists exactly them.
    assumed = inv.assumptions()
    trusted = gate.read_trusted(a.trusted)
    for f in sorted(assumed):
        if f not in trusted:
            problems.append(f"assumed contract of `{f}` is not in the trusted base ({a.trusted})")
    for t in sorted(trusted):
        if t not in assumed:
            problems.append(f"trusted-base entry `{t}` is not used (stale list: {a.trusted})")
    used = set().union(*[set(u.get("assumed", [])) for u in results.values()]) if results else set()
    for f in sorted(used - set(assumed)):
        problems.append(f"unit result assumes `{f}`, which the current source does not")

    goals, smoke = [], []
    for f in sorted(results):
        for g in results[f]["goals"]:
            goals.append(dict(g, function=f, requirements=gate.req_ids(g["goal"])))
        for g in results[f]["smoke"]:
            smoke.append(dict(g, function=f))
    r = summarize(a, results, goals, smoke, unproved, smoke_failed, problems, assumed, parts,
                  wall)
    for u in unproved:
        log(f"UNPROVED {u}")
    for s in smoke_failed:
        log(f"SMOKE-FAILED {s}  (contradictory contract or dead code)")
    for p in problems:
        log(f"PROBLEM {p}")
    if a.evidence:
        write_evidence(r, a.evidence)
    if a.ledger:
        gate.write_ledger(r, a.ledger)
    reused = sum(1 for u in results.values() if u["source"] == "reused")
    log(f"prove: {len(results)} units ({reused} reused, {len(results) - reused} proved now): "
        f"{r['proved']}/{r['total']} goals, smoke tests {r['smoke']['passed']}/"
        f"{r['smoke']['total']}, {len(assumed)} assumed function contract(s), {wall:.1f} s")
    if unproved or smoke_failed or problems:
        log(f"prove: FAILED ({len(unproved)} unproved, {len(smoke_failed)} failed smoke "
            f"test(s), {len(problems)} problem(s))")
        return 1
    log("prove: PASSED")
    return 0


def summarize(a, results, goals, smoke, unproved, smoke_failed, problems, assumed, parts, wall):
    """The shape gate.write_ledger and write_evidence read (gate.py's result.json)."""
    provers = parts[0]["provers"]
    provers_count, functions, reqs = gate.tally(goals, smoke, provers)
    total = sum(g["total"] for g in goals)
    return {
        "job": "core", "total": total, "proved": sum(g["proved"] for g in goals),
        "qed": provers_count.get("qed", 0), "provers": dict(provers_count),
        "provers_used": provers, "run_all_provers": a.run_all_provers,
        "functions": dict(sorted(functions.items())), "unproved": unproved,
        "smoke": {"total": sum(g["total"] for g in smoke),
                  "passed": sum(g["proved"] for g in smoke), "failed": smoke_failed},
        "assumptions": [{"function": f, "clauses": [
            {"kind": p["kind"], "file": p["file"], "line": p["line"], "property": p["property"]}
            for p in ps]} for f, ps in assumed.items()],
        "requirements": dict(sorted(reqs.items())), "problems": problems,
        # every named goal with its count: the report credits a requirement only with the goals
        # spec/proof-goals.md lists for it, so it needs the names (spec/report.md)
        "goals": {f"{g['function']}:{g['goal']}": [g["proved"], g["total"]]
                  for g in sorted(goals, key=lambda g: (g["function"], g["goal"]))},
        "settings": {"steps": a.steps, "timeout": a.timeout, "par": a.unit_par,
                     "cache": a.cache, "initialized": a.initialized, "jobs": a.jobs,
                     "reuse": a.reuse},
        "wall_seconds": round(wall, 1), "tools": parts[0]["context"]["tools"],
        "units": {f: {"key": u["key"], "source": u["source"],
                      "goals": sum(g["total"] for g in u["goals"]),
                      "proved": sum(g["proved"] for g in u["goals"]),
                      "smoke": sum(g["total"] for g in u["smoke"]),
                      "seconds": u["seconds"]} for f, u in sorted(results.items())},
        "shards": sorted(p["shard"] for p in parts),
    }


def write_evidence(r, path):
    reused = sum(1 for u in r["units"].values() if u["source"] == "reused")
    gate.write_evidence(r, path, extra={
        "units": r["units"], "reused": reused, "proved_now": len(r["units"]) - reused,
        "shards": r["shards"], "goals": r["goals"],
        "settings": {k: r["settings"][k] for k in ("jobs", "reuse")}})


# --------------------------------------------------------------------------- the cold comparison
def _counts(rows, fields):
    return collections.Counter(tuple(r[k] for k in fields) if isinstance(r, dict) else tuple(r)
                               for r in rows)


def _diff(name, now, stored):
    only_now, only_stored = now - stored, stored - now
    if not only_now and not only_stored:
        return []
    show = lambda c: [" ".join(map(str, k[:2]))[:80] for k in sorted(c)][:4]
    return [f"{name} differ (only now: {show(only_now)}, only stored: {show(only_stored)})"]


def differs(u, s):
    """Why unit result u (proved now) does not reproduce stored record s, or ''."""
    if not s:
        return "no stored result (the store is behind: make prove-store)"
    if not unit_passes(u):
        unproved = [g["goal"] for g in u["goals"] if g["proved"] < g["total"]]
        smoke = [g["goal"] for g in u["smoke"] if g["proved"] < g["total"]]
        return (f"stored result not reproduced: proved now "
                f"{sum(g['proved'] for g in u['goals'])}/{sum(g['total'] for g in u['goals'])} "
                f"goals; unproved {unproved[:4]}; failed smoke tests {smoke[:4]}; "
                f"problems {u['problems'][:2]}")
    out = []
    if s.get("key") != u["key"]:
        st, why = store_state(u["unit"], s, u["key"], u.get("inputs"))
        out.append(f"stored under another key ({st}: {why})")
    if not unit_passes(s):
        out.append("the stored result itself does not pass")
    out += _diff("goals", _counts(u["goals"], ("goal", "total")),
                 _counts(s["goals"], ("goal", "total")))
    out += _diff("smoke tests", _counts(u["smoke"], ("goal", "total")),
                 _counts(s["smoke"], ("goal", "total")))
    out += _diff("properties", _counts(u["props"], ()), _counts(s["props"], ()))
    if sorted(u.get("assumed", [])) != sorted(s.get("assumed", [])):
        out.append(f"assumptions differ (now {u.get('assumed')}, stored {s.get('assumed')})")
    return "; ".join(out)


def compare_store(results, units, all_units=None):
    """COLD-MISMATCH line for each unit proved now that does not reproduce its stored result;
    with all_units (the program's), also for each stored unit of no function. -> the names."""
    bad = {}
    for f in sorted(units):
        u = results.get(f)
        if u and u["source"] == "proved":
            why = differs(u, load_stored(f))
            if why:
                bad[f] = why
    if all_units is not None and os.path.isdir(STORE):
        for x in sorted(os.listdir(STORE)):
            if x.endswith(".json") and x[:-5] not in all_units:
                bad[x[:-5]] = "stored, but the source has no such function"
    for f, why in bad.items():
        log(f"COLD-MISMATCH {f}: {why}")
    return sorted(bad)


def compare_evidence(results, path):
    """Differences between the units proved now and the proofs.json of a run that reused the
    store (make check's): the same units, keys and goal counts, all proved there."""
    try:
        ev = json.load(open(path))
    except (OSError, ValueError) as e:
        return [f"no readable proofs.json of the reused run to compare with ({path}: {e})"]
    out = []
    units = ev.get("units", {})
    for f in sorted(set(units) | set(results)):
        e, u = units.get(f), results.get(f)
        if not e or not u:
            out.append(f"{f}: a unit {'only now' if u else 'only in ' + path}")
            continue
        goals = sum(g["total"] for g in u["goals"])
        if e["key"] != u["key"] or e["goals"] != goals or e["proved"] != e["goals"]:
            out.append(f"{f}: {path} says key {e['key'][:12]}, {e['proved']}/{e['goals']} "
                       f"goals; now key {u['key'][:12]}, {goals} goals")
    if ev.get("unproved"):
        out.append(f"{path} lists unproved goals: {ev['unproved'][:4]}")
    return out


def cold_verdict(a, rc, results, inv):
    """The gate's exit status rc, and with --compare-store / --compare-evidence the comparison
    of what was proved now with the store and with the reused run."""
    if not a.compare_store and not a.compare_evidence:
        return rc
    bad = compare_store(results, inv.units, set(inv.units)) if a.compare_store else []
    ev_bad = compare_evidence(results, a.compare_evidence) if a.compare_evidence else []
    for x in ev_bad:
        log(f"COLD-MISMATCH {x}")
    now = sorted(f for f, u in results.items() if u["source"] == "proved")
    reused = sorted(set(results) - set(now))
    goals = sum(g["total"] for f in now for g in results[f]["goals"])
    if reused:
        log(f"prove-cold: {len(reused)} unit(s) reused, not compared: "
            f"{', '.join(reused[:6])}{', ...' if len(reused) > 6 else ''}")
        if a.reuse == "none":     # a partial result from a run that did reuse (merge)
            bad.append("(reused units in a run without reuse)")
    if rc or bad or ev_bad:
        log(f"prove-cold: FAILED: the run does not reproduce the stored/reused result "
            f"(gate exit {rc}; units not reproduced: {bad or 'none'}; "
            f"{len(ev_bad)} difference(s) from the reused run)")
        return rc or 1
    log(f"prove-cold: PASSED: {len(now)} unit(s) proved now ({goals} goals, all Valid), each "
        f"the same as its stored result" + (f" and as {a.compare_evidence}"
                                             if a.compare_evidence else ""))
    return 0


# --------------------------------------------------------------------------- merge, store
def merge(a, fc_args):
    t0 = time.time()
    paths = a.partials or sorted(
        os.path.join(a.shard_dir, x) for x in os.listdir(a.shard_dir) if x.endswith(".json")) \
        if (a.partials or os.path.isdir(a.shard_dir)) else []
    if not paths:
        log(f"prove-merge: no partial result (run make prove SHARD=i/N first; looked in "
            f"{a.shard_dir})")
        return 2
    parts = [json.load(open(p)) for p in paths]
    ns = {p["shard"].split("/")[1] for p in parts}
    seen = sorted(int(p["shard"].split("/")[0]) for p in parts)
    if len(ns) != 1 or seen != list(range(1, int(ns.pop()) + 1)):
        log(f"prove-merge: shards {[p['shard'] for p in parts]} are not 1..N exactly once")
        return 1
    inv = Inventory(fc_args, os.path.join(a.outdir, "_inventory"), a.skip_fct.split(","))
    rc = gate_union(a, inv, parts, time.time() - t0)
    return cold_verdict(a, rc, {f: u for p in parts for f, u in p["results"].items()}, inv)


def store(a):
    last = os.path.join(a.outdir, "last-run.json")
    if not os.path.exists(last):
        raise SystemExit("prove-store: no run to store (make prove first)")
    os.makedirs(STORE, exist_ok=True)
    n = 0
    for f in json.load(open(last))["proved_now"]:
        src = os.path.join(a.outdir, f, "unit.json")
        if not os.path.exists(src):
            continue
        u = json.load(open(src))
        if not unit_passes(u):
            raise SystemExit(f"prove-store: unit {f} did not pass: nothing stored")
        limit = a.timeout * gate.STORE_SHARE
        g = next((g for g in u.get("slow_goals", []) if g["seconds"] > limit), None)
        if g:
            raise SystemExit(f"prove-store: unit {f}: goal {g['goal']} took {g['seconds']} s, "
                             f"more than {limit:.0f} s: too close to the timeout to pass on a busier machine; make it "
                             f"cheaper (spec/proof.md, \"The gate\"): nothing stored")
        with open(os.path.join(STORE, f + ".json"), "w") as fh:
            json.dump(u, fh, indent=0, sort_keys=True)
            fh.write("\n")
        n += 1
    inv_units = json.load(open(a.evidence))["units"] if os.path.exists(a.evidence) else None
    gone = 0
    if inv_units:
        for x in os.listdir(STORE):
            if x.endswith(".json") and x[:-5] not in inv_units:
                os.remove(os.path.join(STORE, x))
                gone += 1
    log(f"prove-store: {n} unit(s) stored, {gone} dropped ({STORE})")
    return 0


def status(a, fc_args):
    """Each unit's key now and its stored result's state; no prover runs."""
    inv = Inventory(fc_args, os.path.join(a.outdir, "_inventory"), a.skip_fct.split(","))
    context, _ = key_context(a, fc_args)
    rows = {}
    for f in inv.units:
        inputs = inv.inputs(f, context)
        key = key_of(f, inputs)
        st, why = store_state(f, load_stored(f), key, inputs)
        rows[f] = {"key": key, "inputs": inputs, "state": st, "why": why}
        log(f"status: {f:<32} {st:<12} {why}")
    with open(os.path.join(a.outdir, "status.json"), "w") as fh:
        json.dump(rows, fh, indent=1, sort_keys=True)
    n = collections.Counter(r["state"] for r in rows.values())
    log(f"status: {len(rows)} units: " + ", ".join(f"{v} {k}" for k, v in sorted(n.items())))
    return 0 if n["current"] == len(rows) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cmd", choices=["prove", "merge", "store", "status"])
    ap.add_argument("--outdir", default="build/proofs/units")
    ap.add_argument("--shard", default="")
    ap.add_argument("--shard-dir", default="build/proofs/shards")
    ap.add_argument("--partials", nargs="*", default=[])
    ap.add_argument("--reuse", default="store", choices=["store", "none"])
    ap.add_argument("--rerun", type=lambda x: set(filter(None, x.split(","))), default=set(),
                    help="units to prove again whatever the store holds (comma-separated)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--unit-par", type=int, default=1)
    ap.add_argument("--why3conf", default="build/proofs/why3.conf")
    ap.add_argument("--provers", default="cvc4,z3")
    ap.add_argument("--optional-provers", default="")
    ap.add_argument("--run-all-provers", action="store_true")
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=40)
    ap.add_argument("--smoke-timeout", type=int, default=1)
    ap.add_argument("--cache", default="update")
    ap.add_argument("--cache-dir", default="build/proofs/cache")
    ap.add_argument("--initialized", default="@all")
    ap.add_argument("--skip-fct", default="")
    ap.add_argument("--trusted", default="")
    ap.add_argument("--evidence", default="")
    ap.add_argument("--ledger", default="")
    ap.add_argument("--stale-context", default="prove", choices=["prove", "fail"],
                    help="stored units behind for another reason than their own text: prove "
                         "them (default) or fail at once (make check)")
    ap.add_argument("--compare-store", action="store_true",
                    help="compare every unit proved now with its stored result (cold proof)")
    ap.add_argument("--compare-evidence", default="",
                    help="the proofs.json of a run that reused the store, to compare with")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])         # options anywhere before `--`, Frama-C's inputs after
    fc_args = argv[cut + 1:]
    if a.cmd == "store":
        return store(a)
    if not fc_args:
        ap.error("no frama-c input after --")
    if a.cmd == "status":
        return status(a, fc_args)
    return prove(a, fc_args) if a.cmd == "prove" else merge(a, fc_args)


if __name__ == "__main__":
    sys.exit(main())

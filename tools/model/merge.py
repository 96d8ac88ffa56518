"""tools/model/merge.py -- merge the partial results of `make model SHARD=i/N` (`make model-merge`).

  python3 -m tools.model.merge [--set full|quick|litmus] [--shards FILE...] [--build build]
                               [--out FILE]
  python3 -m tools.model.merge --compare REFERENCE MERGED
                               the two model.json agree except in timing fields

Without --shards it merges build/model/shards/<set>-*-of-*.json.  The merge fails (exit 1), and
writes nothing, when
  - a shard of 1..N is missing, or given twice, or the files name different N or sets;
  - the shards were made from different model sources (sha256 of promela/, tools/model/, the
    make fragments, spec/steps.md), different tool versions or settings, or a different matrix
    (sha256 of every row's definition and pan flags) -- or from sources other than this tree's;
  - a row of the matrix is in no shard, in two, or a shard holds a row the matrix has not;
and, like the unsharded run, it exits 1 when any row is not as expected (model.json is then
written, as `make model` writes it).  The derived saturation rows (REQ-MM-6) are computed here,
from the merged runs, exactly as the unsharded run computes them.  The trails each shard carries
are written back to build/evidence/trails/ (the rows' `trail` paths name them there, whatever
build directory each shard ran in).  Exit status: 0 all rows as expected; 1 otherwise;
2 bad arguments.
"""
import argparse, base64, glob, json, os, re, sys, zlib

from tools.model import matrix

ROOT = matrix.ROOT
# fields of a row that measure the run rather than define its result: they may differ between
# two runs of the same row (pan's elapsed time)
TIMING = ("seconds",)
# fields of a row copied from its definition (the merge checks them against the matrix)
STATIC = ("kind", "name", "variant", "memory_model", "config", "property", "requirements",
          "expected")


class MergeError(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        raise MergeError(f"{path}: not a readable shard file ({e})")
    if not isinstance(d, dict) or d.get("format") != matrix.SHARD_FORMAT:
        raise MergeError(f"{path}: not a shard file of format {matrix.SHARD_FORMAT}")
    d["_path"] = os.path.relpath(path, ROOT)
    return d


def merge(files, set_name=None):
    """The checked union of the shard files: (matrix, rows in matrix order, trails, notes)."""
    if not files:
        raise MergeError("no shard files" + (f" for the {set_name} matrix" if set_name else "")
                         + ": run `make model SHARD=i/N` first, or name them with SHARDS=")
    shards = [load(p) for p in files]
    first = shards[0]
    # --- one partition: the same set, the same N, each index once ---
    for s in shards[1:]:
        for key, what in (("set", "matrix"), ("of", "number of shards")):
            if s[key] != first[key]:
                raise MergeError(f"shards of different {what}: {first['_path']} has "
                                 f"{key}={first[key]}, {s['_path']} has {key}={s[key]}")
    if set_name and first["set"] != set_name:
        raise MergeError(f"{first['_path']} is a shard of the {first['set']} matrix, "
                         f"not of {set_name}")
    n = first["of"]
    seen = {}
    for s in shards:
        if s["shard"] in seen:
            raise MergeError(f"shard {s['shard']}/{n} given twice: {seen[s['shard']]} and "
                             f"{s['_path']}")
        seen[s["shard"]] = s["_path"]
    missing = [i for i in range(1, n + 1) if i not in seen]
    if missing:
        raise MergeError("missing shard" + ("s " if len(missing) > 1 else " ")
                         + ", ".join(f"{i}/{n}" for i in missing)
                         + f" of the {first['set']} matrix (have: "
                         + ", ".join(f"{i}/{n} {seen[i]}" for i in sorted(seen)) + ")")
    # --- the same sources, settings and matrix in every shard ---
    for key, what in (("inputs", "model sources"), ("settings", "tools or settings"),
                      ("options", "matrix options"), ("matrix", "matrix definition")):
        for s in shards[1:]:
            if s[key] != first[key]:
                a = first[key].get("sha256", first[key]) if isinstance(first[key], dict) else first[key]
                b = s[key].get("sha256", s[key]) if isinstance(s[key], dict) else s[key]
                raise MergeError(f"shards made from different {what}: {first['_path']} "
                                 f"({_short_hash(a)}) and {s['_path']} ({_short_hash(b)})")
    here = matrix.inputs_fingerprint()
    if here["sha256"] != first["inputs"]["sha256"]:
        raise MergeError(f"the shards were made from other model sources than this tree's "
                         f"(shards {first['inputs']['sha256'][:12]}, tree {here['sha256'][:12]}): "
                         "rerun the shards from this tree")
    errs, m = matrix.parse_options(first["options"])
    if errs:
        raise MergeError(f"{first['_path']}: bad matrix options: {'; '.join(errs)}")
    cc_opt = first["settings"]["cc_opt"]
    if matrix.matrix_fingerprint(m["rows"], cc_opt) != first["matrix"]["sha256"]:
        raise MergeError("the shards' matrix definition differs from this tree's")
    # --- every row exactly once ---
    ids = [matrix.row_id(r) for r in m["rows"]]
    where = {}
    for s in shards:
        for run in s["runs"]:
            rid = run["id"]
            if rid in where:
                raise MergeError(f"row {rid} is in two shards: {where[rid][0]} and {s['_path']}")
            where[rid] = (s["_path"], run)
    extra = sorted(set(where) - set(ids))
    if extra:
        raise MergeError(f"{where[extra[0]][0]} holds a row the matrix has not: {extra[0]}")
    lost = [i for i in ids if i not in where]
    if lost:
        raise MergeError(f"{len(lost)} row(s) of the matrix in no shard, e.g. {lost[0]}")
    rows = []
    for k, (rid, r) in enumerate(zip(ids, m["rows"])):
        path, run = where[rid]
        row = dict(run["row"])
        if run.get("index") != k:
            raise MergeError(f"{path}: row {rid} at position {run.get('index')}, the matrix "
                             f"has it at {k}")
        for f in STATIC:
            if f in r and row.get(f) != r[f]:
                raise MergeError(f"{path}: row {rid} field {f} differs from the matrix")
        if run.get("wrong_violation"):
            row["wrong_violation"] = True
        rows.append(row)
    trails = {}
    for s in shards:
        trails.update(s.get("trails", {}))
    notes = [f"shard {s['shard']}/{n}: {len(s['runs'])} runs, {s.get('seconds')} s "
             f"({s['_path']})" for s in sorted(shards, key=lambda s: s["shard"])]
    return m, rows, trails, notes


def _short_hash(x):
    """A sha256 as its first 12 digits (enough to tell two apart in a message), else the value."""
    return x[:12] if isinstance(x, str) and re.fullmatch(r"[0-9a-f]{64}", x) else json.dumps(x)[:120]


def compare(ref, got):
    """Differences between two model.json other than the timing fields; [] when they agree."""
    diffs = []
    if len(ref) != len(got):
        diffs.append(f"{len(ref)} rows against {len(got)}")
    for k, (a, b) in enumerate(zip(ref, got)):
        for f in sorted(set(a) | set(b)):
            if f in TIMING:
                continue
            if a.get(f) != b.get(f):
                diffs.append(f"row {k} ({a.get('kind')} {a.get('name')} {a.get('variant')} "
                             f"{a.get('memory_model')}): {f}: {a.get(f)!r} != {b.get(f)!r}")
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", choices=("quick", "full", "litmus", "single"), default=None)
    ap.add_argument("--shards", nargs="*", default=None)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--compare", nargs=2, metavar=("REFERENCE", "MERGED"))
    a = ap.parse_args()
    if a.compare:
        ref, got = (json.load(open(p)) for p in a.compare)
        diffs = compare(ref, got)
        if diffs:
            print(f"model-compare: {len(diffs)} difference(s) besides {', '.join(TIMING)}:")
            for d in diffs[:20]:
                print("  " + d)
            return 1
        held = sum(r["result"] == "hold" for r in ref)
        print(f"model-compare: {len(ref)} rows agree (kind, name, config, result, exhaustive, "
              f"states, transitions, depth, memory, trail, detail; {held} hold); only "
              f"{', '.join(TIMING)} may differ")
        return 0
    files = a.shards
    if not files:
        d = os.path.join(a.build, "model", "shards")
        files = sorted(glob.glob(os.path.join(d, f"{a.set or '*'}-*-of-*.json")))
        sets = sorted({re.sub(r"-\d+-of-\d+\.json$", "", os.path.basename(p)) for p in files})
        if len(sets) > 1:
            print(f"model-merge: error: shards of several matrices in {os.path.relpath(d, ROOT)} "
                  f"({', '.join(sets)}): choose one with SET=", file=sys.stderr)
            return 2
    try:
        m, rows, trails, notes = merge(files, a.set)
    except MergeError as e:
        print(f"model-merge: error: {e}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"model-merge: {note}")
    tdir = os.path.join(a.build, "evidence", "trails")
    for r in rows:   # the trails are written below, under this build directory
        if r.get("trail"):
            r["trail"] = os.path.relpath(os.path.join(tdir, os.path.basename(r["trail"])), ROOT)
    final, bad = matrix.finish(rows)
    os.makedirs(tdir, exist_ok=True)
    for name, data in trails.items():
        if "/" in name or name.startswith("."):
            print(f"model-merge: error: bad trail name {name!r}", file=sys.stderr)
            return 1
        with open(os.path.join(tdir, name), "wb") as f:
            f.write(zlib.decompress(base64.b64decode(data)))
        if name.endswith(".replay.sh"):
            os.chmod(os.path.join(tdir, name), 0o755)
    out = a.out or os.path.join(a.build, "evidence", m["out"])
    with open(out, "w") as f:
        json.dump(final, f, indent=1)
    for r in bad:
        print(f"model-merge: FAIL {r['kind']} {r['name']} {r['variant']} {r['memory_model']} "
              f"{r['config']}: {r['result']} (expected {r['expected']}) {r.get('detail', '')}")
    print(f"model-merge: {len(final) - len(bad)}/{len(final)} as expected, {len(bad)} not; "
          f"results in {os.path.relpath(out, ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

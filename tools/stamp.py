#!/usr/bin/env python3
"""Freshness stamps: which sources a result in build/ was produced from.

  python3 -m tools.stamp run PRODUCER -- CMD...   run CMD (a producer, e.g. `make model`),
                                   streaming its output with a heartbeat, and record a stamp
  python3 -m tools.stamp begin PRODUCER    record the sources a direct run (`make model`) starts
                                   from; a result it writes after this counts as stamped
  python3 -m tools.stamp check [PRODUCER...]   print the freshness of each result; exit 1 if
                                   any is not fresh
  python3 -m tools.stamp list      the producers, their make targets, outputs and sources
  python3 -m tools.stamp make-table   the same table for mk/report.mk, one word per producer:
                                   name:target:required|optional:writer,writer,…

PRODUCERS below is the one table of which result is made by which make target: mk/report.mk
reads it (make-table) to define `make evidence-<name>` and the begin-stamps of direct runs.

A stamp (build/evidence/stamps/<producer>.json) holds the fingerprint of the producer's sources —
sha256 over the path and content of every git-tracked (or untracked, not ignored) file under the
producer's source prefixes — taken BEFORE the command ran, so an edit made during a long run makes
the result stale instead of silently current. It also holds the sha256 of each output as the run
left it. A result is *fresh* only when its stamp exists, its outputs still hash as stamped (not
rewritten by a run outside `make`) and its sources still fingerprint as stamped.

Statuses: fresh, stale (sources changed), unstamped (no stamp, or output rewritten since),
failed (the producer exited non-zero and wrote no new result), missing (no result; the producer
has not run, or its make target does not exist in this tree).
Exit codes: `run` exits with the producer's status (0 when EVIDENCE_KEEP_GOING=1, so that the
default `make` goes on to write the report); `check` exits 1 when a result is not fresh; 2 on a
usage error (unknown producer).
"""
import argparse, hashlib, json, os, subprocess, sys, threading, time

ALL = ("",)  # every file of the tree
# Files that only render results: editing them must not make a result stale.
REPORT_ONLY = ("tools/report/", "tools/stamp.py", "tools/summary.py", "mk/report.mk",
               "tests/report/")

# One entry per producer: make target, outputs (relative to $(BUILD)), source prefixes: the
# producer's inputs, its tool directory, its make fragment and those it uses, mk/config.mk and the
# Makefile. A prefix too wide costs a rerun; one too narrow would call a result fresh that is not,
# so a source set is only narrowed where the producer's imports and includes show the boundary.
# "writers": every make target that writes the result when run directly (default: the target);
# each takes the producer's begin-stamp first. "optional": not run by the default `make`.
MK = ("mk/config.mk", "Makefile")
PRODUCERS = {
    "model":  {"target": "model", "outputs": ["evidence/model.json"], "referenced": "evidence/trails",
               "sources": ("promela/", "tools/model/", "mk/model.mk", "spec/refinement.yml") + MK,
               "writers": ("model", "model-quick", "model-litmus", "model-merge")},
    "proofs": {"target": "prove", "outputs": ["evidence/proofs.json"],
               "sources": ("src/", "acsl/", "proofs/", "mk/prove.mk") + MK},
    "tests":  {"target": "check", "outputs": ["results/summary.json"], "sources": ALL},
    "cross":  {"target": "cross", "outputs": ["evidence/cross.json"],
               "sources": ("src/", "tests/", "tools/cross/", "mk/cross.mk", "mk/lib.mk",
                           "mk/test.mk") + MK},
    "trace":  {"target": "trace", "outputs": ["evidence/trace.json"], "sources": ALL},
    "bench":  {"target": "bench", "outputs": ["evidence/bench.json", "evidence/race.json"],
               "sources": ("src/", "tests/", "tools/bench/", "mk/bench.mk", "mk/lib.mk",
                           "mk/test.mk") + MK, "optional": True},
    "conformance": {"target": "conformance", "outputs": ["evidence/conformance.json"],
                    "sources": ("src/", "tests/conformance/", "tests/harness/", "twins/",
                                "promela/", "tools/model/", "mk/mutants.mk", "mk/lib.mk",
                                "spec/refinement.yml") + MK,
                    "optional": True},
    "mutants": {"target": "mutants", "outputs": ["evidence/mutants.json"], "sources": ALL,
                "optional": True},
    "scale":  {"target": "model-scale", "outputs": ["evidence/model-scale.json"],
               "sources": ("promela/", "tools/model/", "mk/model.mk") + MK, "optional": True},
}
HEARTBEAT = float(os.environ.get("EVIDENCE_HEARTBEAT", "30"))


def root():
    """The tree whose sources are fingerprinted (IRQSYNC_ROOT overrides it, for the tests)."""
    return os.environ.get("IRQSYNC_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_dir():
    return os.environ.get("BUILD", "build")


def stamp_path(name):
    return os.path.join(build_dir(), "evidence", "stamps", name + ".json")


def _file_sha256(path):
    """The sha256 of a file's content, read in blocks (results can be large)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for blk in iter(lambda: f.read(1 << 16), b""):
            h.update(blk)
    return h.hexdigest()


def tree_files():
    """Tracked plus untracked-not-ignored files (a new, un-added source counts too)."""
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"],
                             capture_output=True, check=True).stdout.decode()
        files = [p for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk the tree
        files = []
        for d, subs, names in os.walk("."):
            subs[:] = [s for s in subs if s not in (".git", "build")]
            files += [os.path.relpath(os.path.join(d, n)) for n in names]
    b = os.path.relpath(os.path.abspath(build_dir()), os.getcwd()).rstrip("/") + "/"
    return sorted(p for p in set(files) if not p.startswith((b, ".git/")) and os.path.isfile(p))


def source_files(name):
    pre = PRODUCERS[name]["sources"]
    files = [p for p in tree_files() if p.startswith(pre)]
    if pre != ALL:
        files = [p for p in files if not p.startswith(REPORT_ONLY)]
    return files


def fingerprint(name):
    files = {p: _file_sha256(p) for p in source_files(name)}
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(f"{p}\0{files[p]}\n".encode())
    return h.hexdigest(), files


def _referenced(name, res):
    """The files of a directory that the primary output names (model.json's trails: the file
    and its siblings of the same stem); other runs writing other trails there do not matter."""
    d = PRODUCERS[name].get("referenced")
    if not d:
        return
    try:
        with open(os.path.join(build_dir(), primary(name)), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        res[d] = None
        return
    p = os.path.join(build_dir(), d)
    names = sorted(os.listdir(p)) if os.path.isdir(p) else []
    h = hashlib.sha256()
    for n in names:
        if n.split(".", 1)[0] + "." in text:
            h.update(f"{n}\0{_file_sha256(os.path.join(p, n))}\n".encode())
    res[d] = h.hexdigest()


def output_hashes(name):
    """{output: sha256 or None}; a directory hashes as the list of its files and contents."""
    res = {}
    for o in PRODUCERS[name]["outputs"]:
        p = os.path.join(build_dir(), o)
        if os.path.isdir(p):
            h = hashlib.sha256()
            for d, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    f = os.path.join(d, n)
                    h.update(f"{os.path.relpath(f, p)}\0{_file_sha256(f)}\n".encode())
            res[o] = h.hexdigest()
        elif os.path.isfile(p):
            res[o] = _file_sha256(p)
        else:
            res[o] = None
    _referenced(name, res)
    return res


def primary(name):
    return PRODUCERS[name]["outputs"][0]


def load_stamp(name):
    try:
        with open(stamp_path(name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_stamp(name, st, path=None):
    path = path or stamp_path(name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(st, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def begin_path(name):
    return stamp_path(name)[:-5] + ".begin.json"


def begin(name):
    """Before a direct run of a producer: the fingerprint it starts from and its outputs then."""
    fp, files = fingerprint(name)
    write_stamp(name, {"producer": name, "fingerprint": fp, "files": files,
                       "before": output_hashes(name), "mtimes": {o: _mtime(o) for o in
                                                                 PRODUCERS[name]["outputs"]},
                       "start_ns": time.time_ns(),
                       "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                begin_path(name))
    return 0


def _from_begin(name, cur):
    """A stamp for a result written by a direct run after its begin-stamp, or None."""
    try:
        with open(begin_path(name)) as f:
            b = json.load(f)
    except (OSError, ValueError):
        return None
    prim = primary(name)
    mt = _mtime(prim)
    rewritten = cur[prim] != b["before"].get(prim) or mt != b["mtimes"].get(prim)
    if not rewritten or mt is None or mt < b["start_ns"]:
        return None
    return {"producer": name, "fingerprint": b["fingerprint"], "files": b["files"],
            "outputs": cur, "rc": None, "date": b["date"], "direct": True,
            "start_ns": b["start_ns"]}


def check(name):
    """Freshness of one producer's result: {status, reason, changed[], rc, stamp}."""
    cur = output_hashes(name)
    st = load_stamp(name)
    # a direct run begun after the last `make evidence-…` run and writing after it wins
    b = _from_begin(name, cur)
    if b and (not st or st.get("unavailable") or st.get("outputs") != cur
              or b["start_ns"] > st.get("end_ns", st.get("start_ns", 0))):
        # A direct run has no end hook: its outputs are bound now, at the first look after it
        # wrote its result, and the begin-stamp is consumed. A later rewrite is then caught.
        st = dict(b, end_ns=time.time_ns())
        write_stamp(name, st)
        try:
            os.remove(begin_path(name))
        except OSError:
            pass
    r = {"producer": name, "target": PRODUCERS[name]["target"], "changed": [],
         "rc": st.get("rc") if st else None, "stamped": st.get("date") if st else None}
    redo = f"run `make evidence-{name}` (or `make`)"
    if cur[primary(name)] is None:
        if st and st.get("unavailable"):
            why = f"no `make {PRODUCERS[name]['target']}` target when it was last run"
        elif st:
            why = (f"`make {PRODUCERS[name]['target']}` exited {st.get('rc')} and wrote no "
                   f"{os.path.basename(primary(name))}")
        else:
            why = "not run"
        return dict(r, status="missing", reason=why)
    if not st or st.get("unavailable"):
        return dict(r, status="unstamped", reason=f"result has no stamp; {redo}")
    if st.get("outputs") != cur:
        return dict(r, status="unstamped",
                    reason=f"result rewritten since it was stamped (a run outside `make`); {redo}")
    fp, files = fingerprint(name)
    if fp != st.get("fingerprint"):
        old = st.get("files", {})
        changed = sorted(p for p in set(old) | set(files) if old.get(p) != files.get(p))
        return dict(r, status="stale", changed=changed,
                    reason=f"{len(changed)} source file(s) changed since the result was "
                           f"produced ({', '.join(changed[:5])}{' …' if len(changed) > 5 else ''}); {redo}")
    if st.get("failed"):
        return dict(r, status="failed",
                    reason=f"`make {PRODUCERS[name]['target']}` exited {st.get('rc')} without "
                           f"writing a new result; the old one is rejected")
    return dict(r, status="fresh", reason="")


def _stream(proc, name, t0):
    """Copy the producer's output through; print a heartbeat while it is silent."""
    last = [time.time()]
    tail = []
    done = threading.Event()

    def heartbeat():
        while not done.wait(5):
            if time.time() - last[0] >= HEARTBEAT:
                print(f"   … {name} still running ({_duration(time.time() - t0)})", flush=True)
                last[0] = time.time()

    threading.Thread(target=heartbeat, daemon=True).start()
    for line in iter(proc.stdout.readline, b""):
        last[0] = time.time()
        sys.stdout.buffer.write(line)
        sys.stdout.flush()
        tail = (tail + [line.decode(errors="replace")])[-40:]
    proc.wait()
    done.set()
    return tail


def _duration(s):
    """Seconds as the heartbeat prints them: 4.2s, 3m07s."""
    return f"{int(s) // 60}m{int(s) % 60:02d}s" if s >= 60 else f"{s:.1f}s"


def _dry_run():
    """make -n / -q / -t: run the command (make passes the flag on) but stamp nothing."""
    flags = os.environ.get("MAKEFLAGS", "").split(" ")[0]
    return "=" not in flags and any(c in flags.lstrip("-") for c in "nqt") and not flags.startswith("--")


def run(name, cmd):
    if _dry_run():
        return subprocess.call(cmd)
    start_ns = time.time_ns()
    fp, files = fingerprint(name)  # before the run: an edit during it makes the result stale
    before = output_hashes(name)
    mtimes = {o: _mtime(o) for o in before}  # a referenced dir's mtime changes with any file
    t0 = time.time()
    print(f"==> {time.strftime('%H:%M:%S')} {name}: {' '.join(cmd)}", flush=True)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    tail = _stream(proc, name, t0)
    rc, dt = proc.returncode, time.time() - t0
    after = output_hashes(name)
    rewritten = any(after[o] != before[o] or _mtime(o) != mtimes[o] for o in after)
    target = PRODUCERS[name]["target"]
    st = {"producer": name, "command": cmd, "rc": rc, "seconds": round(dt, 1),
          "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
          "fingerprint": fp, "files": files, "outputs": after, "start_ns": start_ns,
          "end_ns": time.time_ns()}
    if rc != 0 and any(f"No rule to make target '{target}'" in l for l in tail):
        write_stamp(name, {"producer": name, "unavailable": True, "rc": rc, "date": st["date"]})
        print(f"<== {name}: no `make {target}` target in this tree — shown as missing", flush=True)
        return 0
    if rewritten:
        write_stamp(name, st)
        print(f"<== {name}: exit {rc} in {_duration(dt)}, result stamped", flush=True)
    elif rc != 0:
        write_stamp(name, dict(st, failed=True))
        print(f"<== {name}: exit {rc} in {_duration(dt)}, no new result (old one rejected)", flush=True)
    elif after[primary(name)] is None:
        write_stamp(name, dict(st, failed=True))
        print(f"<== {name}: exit 0 in {_duration(dt)} but no {primary(name)} written", flush=True)
    else:
        # The producer's make rule found its output up to date: keep the earlier stamp, whose
        # fingerprint then decides (stale if the rule missed a dependency).
        print(f"<== {name}: up to date ({_duration(dt)}); earlier stamp kept", flush=True)
    keep = os.environ.get("EVIDENCE_KEEP_GOING") == "1"
    return 0 if keep else rc


def _mtime(o):
    try:
        return os.stat(os.path.join(build_dir(), o)).st_mtime_ns
    except OSError:
        return None


def make_word(name, p):
    """One producer as mk/report.mk reads it: name:target:required|optional:writer,writer,…"""
    kind = "optional" if p.get("optional") else "required"
    return f"{name}:{p['target']}:{kind}:{','.join(p.get('writers', (p['target'],)))}"


def parser():
    ap = argparse.ArgumentParser(prog="python3 -m tools.stamp", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    known = f"one of: {' '.join(PRODUCERS)}"
    p = sub.add_parser("run", usage="python3 -m tools.stamp run PRODUCER -- CMD...",
                       help="run CMD (a producer, e.g. `make model`), streaming its output with a "
                            "heartbeat, and record a stamp")
    p.add_argument("producer", metavar="PRODUCER", choices=PRODUCERS, help=known)
    p.add_argument("command", metavar="CMD", nargs=argparse.REMAINDER,
                   help="the producer's command, after `--`; its exit status is run's")
    p = sub.add_parser("begin", help="record the sources a direct run (`make model`) starts "
                                     "from; a result it writes after this counts as stamped")
    p.add_argument("producer", metavar="PRODUCER", choices=PRODUCERS, help=known)
    p = sub.add_parser("check", help="print the freshness of each result; exit 1 if any is not "
                                     "fresh")
    p.add_argument("producers", metavar="PRODUCER", nargs="*",
                   help=f"the results to check (default: every producer's); {known}")
    sub.add_parser("list", help="the producers, their make targets, outputs and sources")
    sub.add_parser("make-table", help="the same table for mk/report.mk, one word per producer: "
                                      "name:target:required|optional:writer,writer,...")
    return ap


def main(argv=None):
    ap = parser()
    a = ap.parse_args(argv)
    os.chdir(root())
    if a.cmd == "run":
        cmd = a.command[1:] if a.command[:1] == ["--"] else a.command  # '--' kept or not
        if not cmd:
            ap.error("run: give the producer's command after --")
        return run(a.producer, cmd)
    if a.cmd == "begin":
        return begin(a.producer)
    if a.cmd == "check":
        names = a.producers or list(PRODUCERS)
        bad = [n for n in names if n not in PRODUCERS]
        if bad:
            print(f"stamp: unknown producer {' '.join(bad)} (known: {' '.join(PRODUCERS)})",
                  file=sys.stderr)
            return 2
        worst = 0
        for n in names:
            c = check(n)
            print(f"{n:11} {c['status']:9} {c['reason']}")
            worst |= c["status"] != "fresh"
        return worst
    if a.cmd == "make-table":
        print(" ".join(make_word(n, p) for n, p in PRODUCERS.items()))
        return 0
    for n, p in PRODUCERS.items():   # list
        ref = f" + the {p['referenced']}/ files it cites" if p.get("referenced") else ""
        print(f"{n:11} make {p['target']:11} -> {' '.join(p['outputs'])}{ref}  "
              f"from {' '.join(p['sources']) if p['sources'] != ALL else '(whole tree)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

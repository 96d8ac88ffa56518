"""tools/model/pan.py -- build and run one SPIN verification, parse what pan prints, and
turn it into a verdict.

pan exits 0 even when it finds an error, so the verdict comes from its output only:
`errors: N`, `states, stored`, `transitions`, `total actual memory usage`, `depth reached`,
the kind of search (`Full statespace search`, or a lossy one: bitstate, hash-compact) and the
messages that mean the search was cut short (depth or memory limit, timeout).  verdict() is the
one place that decides; every runner (matrix, scale, swarm, run1) asks it.

What pan and spin print names the model by the path it was given; runs and replays are
captured with the checkout's own path removed (repo_relative), so that the evidence names
files relative to the repository, whatever machine built it.
"""
import errno, hashlib, os, re, shutil, subprocess, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# messages after which "errors: 0" proves nothing
INCOMPLETE = [
    r"error: max search depth too small",
    r"pan: reached -DMEMLIM bound",
    r"pan: out of memory",
    r"Search not completed",          # printed with errors too; checked only when errors == 0
    r"hash table is full",
    r"ran out of memory",
]
# pan's header line: "Full statespace search for:", "Bit statespace search for:",
# "Hash-Compact 4 search for:"; only the first visits every reachable state for sure
SEARCH = re.compile(r"^(.*\S)\s+search for:", re.M)
FULL_SEARCH = "Full statespace"


def repo_relative(text):
    """text with the checkout's path removed: "/home/x/irqsync/promela/irq.pml:113" reads
    "promela/irq.pml:113" (the same on every machine)."""
    return text.replace(ROOT + os.sep, "")


def parse(out):
    """The figures of one pan run."""
    def figure(pat, conv=int, default=None):
        m = re.search(pat, out)
        return conv(m.group(1)) if m else default
    count = lambda x: int(float(x))   # pan prints large counts as 1.1965918e+08
    search = SEARCH.search(out)
    r = {
        "errors": figure(r"errors: (\d+)"),
        "states": figure(r"([\d.]+(?:e[+-]?\d+)?) states, stored", count),
        "matched": figure(r"([\d.]+(?:e[+-]?\d+)?) states, matched", count, default=0),
        "transitions": figure(r"([\d.]+(?:e[+-]?\d+)?) transitions \(= stored\+matched\)", count),
        "depth": figure(r"depth reached (\d+)"),
        "memory_mb": figure(r"([\d.]+)\s+total actual memory usage", float),
        "seconds": figure(r"pan: elapsed time ([\d.e+-]+) seconds", float, 0.0),
        "search": search.group(1).strip() if search else None,
        "hash_factor": figure(r"hash factor: ([\d.e+]+)", float),
        "message": "",
    }
    if r["states"] is None:
        # cut off (timeout): the last progress line tells how far the search got
        prog = re.findall(r"Depth=\s*(\d+) States=\s*([\d.e+]+) Transitions=\s*([\d.e+]+) "
                          r"Memory=\s*([\d.]+)\s+t=\s*([\d.]+)", out)
        if prog:
            d, st, tr, mem, t = prog[-1]
            r.update(depth=int(d), states=int(float(st)), transitions=int(float(tr)),
                     memory_mb=float(mem), seconds=float(t))
    m = re.search(r"^(pan:\d+: .*|pan: .*(claim violated|acceptance cycle|invalid end state|"
                  r"non-progress cycle).*)$", out, re.M)
    if m:
        r["message"] = m.group(1).strip()
    r["cut"] = [p for p in INCOMPLETE if re.search(p, out)]
    return r


def verdict(r):
    """(result, detail) of one parsed pan run: "violate" when pan reports an error (detail: its
    message); "hold" only when it reports none after a complete, lossless search; otherwise
    "incomplete" (detail: why).  The one rule of every runner: a search cut short (depth or
    memory limit, timeout) or a lossy one (bitstate, hash-compact) proves nothing, so it is never
    "hold" -- a second copy of this rule could drift and change results."""
    if r["errors"] is None:
        return "incomplete", "no 'errors:' line in pan output" + (
            f" ({'; '.join(r['cut'])})" if r["cut"] else "")
    if r["errors"] > 0:
        return "violate", r["message"]
    if r["cut"]:
        return "incomplete", "search cut short: " + "; ".join(r["cut"])
    if r["search"] != FULL_SEARCH:
        return "incomplete", f"not exhaustive: {r['search'] or 'unknown'} search"
    return "hold", ""


_GCC_VERSION = []


def gcc_version():
    if not _GCC_VERSION:
        p = subprocess.run(["gcc", "--version"], capture_output=True, text=True)
        _GCC_VERSION.append(p.stdout.splitlines()[0] if p.stdout else "gcc ?")
    return _GCC_VERSION[0]


def spin_version():
    p = subprocess.run(["spin", "-V"], capture_output=True, text=True)
    return (p.stdout or p.stderr).strip()


def cache_key(workdir, gcc_argv):
    """The content key of a compiled pan: every file spin -a generated (pan.c includes the
    others), the gcc command line and the gcc version.  Equal key, equal program."""
    h = hashlib.sha256()
    h.update((gcc_version() + "\0" + "\0".join(gcc_argv) + "\n").encode())
    for n in sorted(os.listdir(workdir)):
        if n.startswith("pan.") or n.endswith((".c", ".h")):
            h.update(f"{n}\0".encode())
            with open(os.path.join(workdir, n), "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def _start_pan(cmd, workdir, timeout, attempts=5):
    """subprocess.run of a pan just copied into workdir, retried while exec says "Text file
    busy": another runner thread that forks at the moment this one closes the copy holds it
    open for writing until its child execs (ETXTBSY: a race of threads, not a failure of pan)."""
    for attempt in range(attempts):
        try:
            return subprocess.run(cmd, cwd=workdir, capture_output=True, text=True,
                                  timeout=timeout)
        except OSError as e:
            if e.errno != errno.ETXTBSY or attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


def run(workdir, model, defines, pan_cc=(), pan_args=(), cc_opt="-O0", timeout=3600,
        cache_dir=None, prefix=()):
    """spin -a, gcc, ./pan in workdir.  Returns the parsed figures plus the raw output.
    cache_dir: reuse a pan compiled before from the same generated sources and gcc command
    (build/model/pan-cache); the verification itself always runs.  prefix: a command to run
    pan under (["nice", "-n", "15"] for the heavy scale runs)."""
    if os.path.isdir(workdir):
        shutil.rmtree(workdir)
    os.makedirs(workdir)
    model = os.path.abspath(model)
    dflags = [f"-D{d}" for d in defines]
    t0 = time.time()
    p = subprocess.run(["spin", "-a"] + dflags + [model], cwd=workdir,
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(os.path.join(workdir, "pan.c")):
        return {"fatal": "spin -a failed: " + repo_relative(p.stdout + p.stderr).strip()[-600:]}
    gcc = ["gcc", cc_opt, "-w", "-o", "pan", "pan.c"] + list(pan_cc)
    key = cache_key(workdir, gcc) if cache_dir else None
    cached = os.path.join(cache_dir, key[:2], key) if key else None
    if cached and os.path.exists(cached):
        shutil.copy2(cached, os.path.join(workdir, "pan"))
    else:
        p = subprocess.run(gcc, cwd=workdir, capture_output=True, text=True)
        if p.returncode != 0:
            return {"fatal": "gcc pan.c failed: " + repo_relative(p.stderr).strip()[-600:]}
        if cached:   # publish atomically: parallel runs (shards) may build the same key
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            tmp = f"{cached}.{os.getpid()}.tmp"
            shutil.copy2(os.path.join(workdir, "pan"), tmp)
            os.replace(tmp, cached)
    try:
        p = _start_pan(list(prefix) + ["./pan"] + list(pan_args), workdir, timeout)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        out += "\nSearch not completed (timeout)\n"
    out = repo_relative(out)
    with open(os.path.join(workdir, "pan.out"), "w") as f:
        f.write(out)
    r = parse(out)
    r["wall"] = round(time.time() - t0, 2)
    r["output"] = out
    trail = os.path.join(workdir, os.path.basename(model) + ".trail")
    r["trail_file"] = trail if os.path.exists(trail) else None
    return r


def replay(trail, model, defines, out_txt):
    """spin -t -p with the same -D flags, run from the repository root on the model's
    repo-relative path (spin then names every source file relative to the repository); the
    rendering goes to out_txt."""
    cmd = ["spin", "-t", "-p", "-k", trail] + [f"-D{d}" for d in defines] + \
        [os.path.relpath(model, ROOT)]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    with open(out_txt, "w") as f:
        f.write(repo_relative(p.stdout + p.stderr))
    return repo_relative(p.stdout)

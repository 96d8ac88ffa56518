"""tools/model/pan.py -- build and run one SPIN verification, parse what pan prints.

pan exits 0 even when it finds an error, so the verdict comes from its output only:
`errors: N`, `states, stored`, `transitions`, `total actual memory usage`, `depth reached`,
and the messages that mean the search was cut short (depth or memory limit, bitstate).
"""
import hashlib, os, re, shutil, subprocess, time

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


def parse(out):
    """The figures of one pan run."""
    def num(pat, conv=int, default=None):
        m = re.search(pat, out)
        return conv(m.group(1)) if m else default
    big = lambda x: int(float(x))   # pan prints large counts as 1.1965918e+08
    r = {
        "errors": num(r"errors: (\d+)"),
        "states": num(r"([\d.]+(?:e[+-]?\d+)?) states, stored", big),
        "matched": num(r"([\d.]+(?:e[+-]?\d+)?) states, matched", big, default=0),
        "transitions": num(r"([\d.]+(?:e[+-]?\d+)?) transitions \(= stored\+matched\)", big),
        "depth": num(r"depth reached (\d+)"),
        "memory_mb": num(r"([\d.]+)\s+total actual memory usage", float),
        "seconds": num(r"pan: elapsed time ([\d.e+-]+) seconds", float, 0.0),
        "bitstate": "Bit statespace search" in out,
        "hash_factor": num(r"hash factor: ([\d.e+]+)", float),
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
        return {"fatal": "spin -a failed: " + (p.stdout + p.stderr).strip()[-600:]}
    gcc = ["gcc", cc_opt, "-w", "-o", "pan", "pan.c"] + list(pan_cc)
    key = cache_key(workdir, gcc) if cache_dir else None
    cached = os.path.join(cache_dir, key[:2], key) if key else None
    if cached and os.path.exists(cached):
        shutil.copy2(cached, os.path.join(workdir, "pan"))
    else:
        p = subprocess.run(gcc, cwd=workdir, capture_output=True, text=True)
        if p.returncode != 0:
            return {"fatal": "gcc pan.c failed: " + p.stderr.strip()[-600:]}
        if cached:   # publish atomically: parallel runs (shards) may build the same key
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            tmp = f"{cached}.{os.getpid()}.tmp"
            shutil.copy2(os.path.join(workdir, "pan"), tmp)
            os.replace(tmp, cached)
    try:
        p = subprocess.run(list(prefix) + ["./pan"] + list(pan_args), cwd=workdir,
                           capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        out += "\nSearch not completed (timeout)\n"
    with open(os.path.join(workdir, "pan.out"), "w") as f:
        f.write(out)
    r = parse(out)
    r["wall"] = round(time.time() - t0, 2)
    r["output"] = out
    trail = os.path.join(workdir, os.path.basename(model) + ".trail")
    r["trail_file"] = trail if os.path.exists(trail) else None
    return r


def replay(trail, model, defines, out_txt, cwd):
    """spin -t -p with the same -D flags; the rendering goes to out_txt."""
    cmd = ["spin", "-t", "-p", "-k", trail] + [f"-D{d}" for d in defines] + [model]
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    with open(out_txt, "w") as f:
        f.write(p.stdout + p.stderr)
    return p.stdout

"""tools/model/pan.py -- build and run one SPIN verification, parse what pan prints.

pan exits 0 even when it finds an error, so the verdict comes from its output only:
`errors: N`, `states, stored`, `transitions`, `total actual memory usage`, `depth reached`,
and the messages that mean the search was cut short (depth or memory limit, bitstate).
"""
import os, re, shutil, subprocess, time

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
    r = {
        "errors": num(r"errors: (\d+)"),
        "states": num(r"(\d+) states, stored"),
        "matched": num(r"(\d+) states, matched", default=0),
        "transitions": num(r"(\d+) transitions \(= stored\+matched\)"),
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


def run(workdir, model, defines, pan_cc=(), pan_args=(), cc_opt="-O0", timeout=3600):
    """spin -a, gcc, ./pan in workdir.  Returns the parsed figures plus the raw output."""
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
    p = subprocess.run(["gcc", cc_opt, "-w", "-o", "pan", "pan.c"] + list(pan_cc),
                       cwd=workdir, capture_output=True, text=True)
    if p.returncode != 0:
        return {"fatal": "gcc pan.c failed: " + p.stderr.strip()[-600:]}
    try:
        p = subprocess.run(["./pan"] + list(pan_args), cwd=workdir, capture_output=True,
                           text=True, timeout=timeout)
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

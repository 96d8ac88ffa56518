#!/usr/bin/env python3
"""make bench-floor: the floor under issue 25's goal for a plain line's dispatch.

The goal: handle_irq to an empty handler on a line without threaded actions costs no more
than the 166 instructions it cost before the threaded handlers (bench.py,
DISPATCH_PRE_THREADED).  This program asks what that dispatch costs with the one thing a
plain line cannot do without once handler threads exist: the serving record kept per
*context* (REQ-HANDLER-2, REQ-ERR-4; internal.h `irqsync_serving`), for which
`irqsync_context()` asks the port for the current handler thread before the CPU.  Nothing
threaded is added: no chain field, no wake-up, no mask.

  python3 -m tools.bench.dispatch_floor [--out FILE]

1. BASE, the last commit before the threaded code (the branch point of the threaded work,
   where the goal's 166 was measured), is checked out with `git worktree add --detach` into
   $BUILD/bench/floor/base and its bench program built (mk/bench.mk); op_dispatch is counted
   as bench.py counts it.
2. The copy is edited, each edit applying exactly once or the run fails, and counted again.
   The edits take their text from the current tree, so what is added is what ships:
     - the hosted port's `irqsync_port_thread_current()` (and the thread-local it reads);
     - `IRQSYNC_PORT_CHANNELS` (config.h) and the serving array sized per context;
     - `irqsync_context()` from handle.c, and the serving record indexed by it.
3. The current tree's bench program is counted too.

Needs git history back to BASE (a full clone) and valgrind.  Prints a table and, with
--out, writes {base, base_with_context, current, goal, commands} as JSON.
"""
import argparse, json, os, shutil, subprocess, sys

from tools.bench.bench import instructions, DISPATCH_PRE_THREADED, N_CG

BASE = "dc0f30a"
BUILD = os.environ.get("BUILD", "build")
WORK = os.path.join(BUILD, "bench", "floor", "base")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def extract(path, start, end="\n}\n"):
    """The text of the current tree's @path from the line starting with @start to @end."""
    text = open(path).read()
    i = text.index(start)
    return text[i:text.index(end, i) + len(end)]


def edit(root, rel, old, new, count=1):
    p = os.path.join(root, rel)
    text = open(p).read()
    n = text.count(old)
    if n != count:
        sys.exit(f"dispatch_floor: {rel}: expected {count} of {old!r}, found {n}")
    open(p, "w").write(text.replace(old, new))


def add_context(root):
    """The per-context serving record, from the current tree, on the BASE copy."""
    thread_current = extract("src/port/hosted/port.c", "unsigned int irqsync_port_thread_current(void)")
    chan_var = extract("src/port/hosted/port.c", "static _Thread_local unsigned int hosted_chan_current;", "\n")
    channels = extract("src/include/irqsync/config.h", "#define IRQSYNC_PORT_CHANNELS", "\n")
    context = extract("src/core/handle.c", "unsigned int irqsync_context(void)")
    edit(root, "src/port/port.h", "unsigned int irqsync_port_cpu_id(void);",
         "unsigned int irqsync_port_cpu_id(void);\nunsigned int irqsync_port_thread_current(void);")
    with open(os.path.join(root, "src/port/hosted/port.c"), "a") as f:
        f.write("\n" + chan_var + "\n" + thread_current)
    edit(root, "src/core/internal.h", "extern unsigned int irqsync_serving[IRQSYNC_NR_CPUS];",
         channels + "extern unsigned int irqsync_serving[IRQSYNC_NR_CPUS + IRQSYNC_PORT_CHANNELS];\n"
         "unsigned int irqsync_context(void);")
    # The instance's record, irqsync_in_own_handler and get_irqfunc_irq: as the current tree.
    edit(root, "src/core/handle.c", "irqsync_port_cpu_id()", "irqsync_context()", count=3)
    edit(root, "src/core/handle.c", "unsigned int irqsync_serving[IRQSYNC_NR_CPUS];",
         "unsigned int irqsync_serving[IRQSYNC_NR_CPUS + IRQSYNC_PORT_CHANNELS];\n\n" + context)


def bench_binary(root):
    """Build @root's bench program in @root's own build directory (whatever BUILD is here)."""
    sh(["make", "-C", root, "BUILD=build", "build/bench/bench-v2"])
    return os.path.join(root, "build", "bench", "bench-v2")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("dispatch_floor: valgrind not found (make deps)")
    subprocess.run(["git", "worktree", "remove", "--force", WORK], capture_output=True)
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(os.path.dirname(WORK), exist_ok=True)
    if subprocess.run(["git", "cat-file", "-e", f"{BASE}^{{commit}}"], capture_output=True).returncode:
        sys.exit(f"dispatch_floor: commit {BASE} is not in this clone (a shallow one?): "
                 "the floor is measured on it; fetch the history (git fetch --unshallow)")
    sh(["git", "worktree", "add", "--detach", WORK, BASE])
    try:
        base = instructions(bench_binary(WORK), "dispatch")
        add_context(WORK)
        with_context = instructions(bench_binary(WORK), "dispatch")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", WORK], capture_output=True)
    sh(["make", f"BUILD={BUILD}", f"{BUILD}/bench/bench-v2"])
    current = instructions(f"{BUILD}/bench/bench-v2", "dispatch")
    cg = (f"valgrind --tool=callgrind --toggle-collect=op_dispatch BENCH dispatch {N_CG} and "
          f"{2 * N_CG}; (I({2 * N_CG}) - I({N_CG})) / {N_CG}")
    r = {"goal": DISPATCH_PRE_THREADED, "base_commit": BASE,
         "base": round(base, 3), "base_with_context": round(with_context, 3),
         "current": round(current, 3),
         "commands": {"count": cg, "floor": "python3 -m tools.bench.dispatch_floor"}}
    print(f"plain dispatch (handle_irq to an empty handler), instructions per call; goal <= {DISPATCH_PRE_THREADED}")
    print(f"  {BASE} (before the threaded handlers)            {r['base']:8.3f}")
    print(f"  {BASE} + the per-context serving record          {r['base_with_context']:8.3f}")
    print(f"  this tree                                        {r['current']:8.3f}")
    if a.out:
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        with open(a.out, "w") as f:
            json.dump(r, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

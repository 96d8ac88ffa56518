#!/usr/bin/env python3
"""barrier_probe.py — is each port function a compiler barrier? Reads the probes of
tests/port/probes.c from the object file the port conformance suite was built into.

  python3 -m tests.port.barrier_probe --arch x86_64|aarch64|arm --objdump OBJDUMP --name PREFIX OBJECT
      (from the repository root: the disassembler is tools/cross/barrier_check.py's)

For every probe pair, the probe (P: the port function between two accesses to one global)
must keep as many memory accesses as its control (C: the same with an explicit compiler
barrier on both sides). A missing access in P is one the compiler removed because it was
allowed to move it across the port function: that function is not a compiler barrier.
Counting accesses instead of comparing code keeps the check blind to the scheduling the
compiler may do inside a barrier-free stretch, and to register choices; both controls of
probes.c calibrate it on the same compiler and flags.

Output: TAP, one case per port function and per control. Exit 0 when all pass, 1 when one
fails, 2 when the object cannot be read or a probe is missing.
"""
import argparse, re, subprocess, sys

from tools.cross.barrier_check import disassemble

PORT_FNS = ["cpu_id", "irq_save", "irq_restore", "irq_disable", "irq_enable",
            "irqs_disabled", "cpu_relax",
            # the threads, waits and line masks (port.h, "Threaded handlers")
            "thread_start", "thread_kick", "thread_stop", "wait", "wake",
            "line_mask", "line_unmask", "line_inflight"]
REQS = "REQ-TCB-1 REQ-TCB-2"

# What counts as a memory access, per architecture, on objdump's "mnemonic operands" text:
# x86 (AT&T syntax) an explicit memory operand -- parentheses or a segment-relative (TLS)
# address -- except lea/nop, which do not access memory; Arm and AArch64 the load/store
# instructions (ldr*, str*, ldp/stp, ldm/stm, ldrex/strex, ldar/stlr). Not counted: accesses to
# the stack (spills, saved registers, push/pop) and Arm literal-pool loads, which depend on
# register allocation, not on what the compiler may move; the marker is a global, never there.
def is_access(arch, ins):
    mnem = ins.split(None, 1)[0] if ins else ""
    ops = ins[len(mnem):]
    if arch == "x86_64":
        if mnem.startswith(("lea", "nop", "push", "pop")) or re.search(r"\(%[re]?(sp|bp)\b", ops):
            return False
        return "(" in ops or re.search(r"%[fg]s:", ops) is not None
    if not re.match(r"^(ld|st)", mnem):
        return False
    return re.search(r"\[(sp|pc)\b", ops) is None


# objdump's comments on the three architectures: "# addr <sym>" (x86), "// …" (AArch64), "@ …"
# (Arm); "#" alone is an Arm immediate and stays.
COMMENT = r"\s+(//|@|#\s).*$"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("object")
    ap.add_argument("--arch", required=True, choices=["x86_64", "aarch64", "arm"])
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--name", default="port")
    a = ap.parse_args()
    try:
        funcs = disassemble(a.objdump, a.object, COMMENT)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"Bail out! cannot disassemble {a.object}: {e}")
        return 2

    def count(fn):
        return sum(1 for ins in funcs[fn] if is_access(a.arch, ins))

    def verdict(name):
        """(is a barrier, detail lines) for one probed function, or None if a probe is missing."""
        rows, barrier = [], True
        for kind in ("st", "ld"):
            p, c = f"pc_probe_{kind}_P_{name}", f"pc_probe_{kind}_C_{name}"
            if p not in funcs or c not in funcs:
                return None
            np_, nc = count(p), count(c)
            what = "store" if kind == "st" else "load"
            rows.append(f"{what} probe: {np_} memory accesses, control {nc}")
            if np_ < nc:
                barrier = False
                rows.append(f"{p}: " + "; ".join(funcs[p]))
                rows.append(f"{c}: " + "; ".join(funcs[c]))
        return barrier, rows

    n, failed = 0, 0

    def case(ok, name, rows):
        nonlocal n, failed
        n += 1
        if not ok:
            failed += 1
            for r in rows:
                print(f"#   {r}")
        print(f"{'ok' if ok else 'not ok'} {n} - {a.name}/compiler-barrier/static/{name} [{REQS}]")

    # The controls first: a method that cannot tell them apart says nothing about the port.
    for ctl, want, name in (("control_no_clobber", False, "control-asm-without-memory-clobber-is-caught"),
                            ("control_memory_clobber", True, "control-asm-with-memory-clobber-passes")):
        v = verdict(ctl)
        if v is None:
            print(f"Bail out! probe {ctl} missing from {a.object}")
            return 2
        rows = v[1] + ([] if v[0] == want else
                       ["the method " + ("missed a missing barrier" if want is False else
                                         "rejected a real barrier") + " on this compiler"])
        case(v[0] == want, name, rows)
    for fn in PORT_FNS:
        v = verdict(fn)
        if v is None:
            print(f"Bail out! probe {fn} missing from {a.object}")
            return 2
        rows = v[1] + ([] if v[0] else
                       [f"irqsync_port_{fn}: an access moved across it (not a compiler barrier)"])
        case(v[0], f"irqsync_port_{fn}", rows)
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

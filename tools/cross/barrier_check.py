#!/usr/bin/env python3
"""barrier_check.py — does the built code contain the ordering instructions the model assumes?

REQ-MM-4 says a port implements the spinlock acquire as an acquire (or stronger) atomic
operation, the release as a release store and smp_mb as a full fence. The compiler turns the
C11 atomics into instructions; it is part of the trusted base (REQ-TCB-1) and this is how we
check it: disassemble the functions named on the command line (and the functions they call,
e.g. aarch64's out-of-line atomics helpers) and fail when an expected instruction is missing.

  python3 -m tools.cross.barrier_check --arch aarch64 --objdump aarch64-linux-gnu-objdump BINARY \\
      --fn spin_lock=acquire_rmw,acquire_load --fn spin_unlock=release --fn xprobe_smp_mb=full

Roles: rmw (an exclusive/atomic read-modify-write), acquire_rmw (an RMW with acquire
semantics: the ticket), acquire_load (a plain load with acquire semantics: the wait for the
owner), release (a barrier-then-store or store-release: unlock), full (a full fence).
The table ROLES below is the machine-readable twin of spec/targets.md. Exit 0 when every role
of every function is found, 1 when one is missing (printed as "MISSING <role> in <fn>"), 2 on
bad usage. --json FILE writes the per-function findings.
"""
import argparse, json, re, subprocess, sys

# Per architecture, per role: (what it is, pattern on "mnemonic operands"). One match suffices.
# A pattern is a regex, or a pair (A, B): an instruction matching B at most PAIR_WINDOW
# instructions after one matching A in the same function (program order in the listing) --
# where the barrier is a separate instruction its place matters: a release barrier must
# precede the store, an acquire one follow the load.
LSE_OPS = r"(?:ldadd|ldclr|ldeor|ldset|ldsmax|ldsmin|ldumax|ldumin|swp|cas|casp)"
A64_DMB_FULL = r"^dmb\s+(ish|sy)$"
ARM_DMB = r"^dmb\s+(ish|sy)$"
RV_FENCE_ACQ = r"^fence(\s+(io)?rw?,(io)?rw)?$"        # fence r,rw or stronger (bare = iorw,iorw)
RV_FENCE_REL = r"^fence(\s+(io)?rw,(io|o)?r?w)?$"      # fence rw,w or stronger
RV_FENCE_FULL = r"^fence(\s+(io)?rw,(io)?rw)?$"        # fence rw,rw or stronger
PPC_SYNC = r"^(hw)?sync(\s+0)?$"
ROLES = {
    "aarch64": {
        "rmw": [("load/store-exclusive pair", r"^(ldaxr|ldxr|ldaxp|ldxp)\b"),
                ("LSE atomic", r"^" + LSE_OPS + r"a?l?[bh]?\b")],
        "acquire_rmw": [("load-acquire exclusive", r"^(ldaxr|ldaxp)[bh]?\b"),
                        ("LSE acquire atomic", r"^" + LSE_OPS + r"al?[bh]?\b"),
                        ("exclusive then dmb", (r"^ldxr", r"^dmb\s+(ish|ishld|sy)$"))],
        "acquire_load": [("load-acquire", r"^(ldar|ldapr)[bh]?\b"),
                         ("load then dmb", (r"^ldr[bh]?\b", r"^dmb\s+(ish|ishld|sy)$"))],
        "release": [("store-release", r"^(stlr|stlxr|stlxp)[bh]?\b"),
                    ("dmb ish before a store", (A64_DMB_FULL, r"^st"))],
        "full": [("dmb ish", A64_DMB_FULL)],
    },
    # Armv7-A/R and Armv7-M have no acquire/release instructions: the C11 mapping is a dmb
    # after the load (acquire), before the store (release) and for the fence.
    "armv7": {
        "rmw": [("ldrex/strex", r"^ldrex[bhd]?\b")],
        "acquire_rmw": [("ldrex/strex then dmb", (r"^ldrex[bhd]?\b", ARM_DMB))],
        "acquire_load": [("ldr then dmb", (r"^ldr[bhd]?\s", ARM_DMB))],
        "release": [("dmb before a store", (ARM_DMB, r"^str"))],
        "full": [("dmb ish/sy", ARM_DMB)],
    },
    "riscv64": {
        "rmw": [("AMO", r"^amo\w+\.[wd]"), ("LR/SC", r"^lr\.[wd]")],
        "acquire_rmw": [("AMO/LR with .aq", r"^(amo\w+|lr)\.[wd]\.aq(rl)?\b"),
                        ("AMO then fence r,rw", (r"^(amo\w+|lr)\.[wd]\b", RV_FENCE_ACQ))],
        "acquire_load": [("load then fence r,rw", (r"^l[bhwd]u?\s", RV_FENCE_ACQ))],
        "release": [("AMO/SC with .rl", r"^(amo\w+|sc)\.[wd]\.(aq)?rl\b"),
                    ("fence rw,w before a store",
                     (RV_FENCE_REL, r"^(s[bhwd]|sc\.[wd]|amo\w+\.[wd])\b"))],
        "full": [("fence rw,rw", RV_FENCE_FULL)],
    },
    "ppc64le": {
        "rmw": [("larx/stcx.", r"^l[bhwd]arx\b")],
        "acquire_rmw": [("larx/stcx. then isync or lwsync",
                         (r"^l[bhwd]arx\b", r"^(isync|lwsync)$|" + PPC_SYNC))],
        "acquire_load": [("load then isync or lwsync",
                          (r"^l([bhw]z|d)\b", r"^(isync|lwsync)$|" + PPC_SYNC))],
        "release": [("lwsync or sync before a store", (r"^lwsync$|" + PPC_SYNC, r"^st[bhwd]"))],
        "full": [("sync (hwsync)", PPC_SYNC)],
    },
}
ROLES["armv7m"] = ROLES["armv7"]
CALL = re.compile(r"^(bl|blx|b|jal|call|tail|j|bl[a-z]*)\s.*<([^>+@]+)(\+0x[0-9a-f]+)?>")


# objdump's comment leader per architecture ('#' is an immediate on Arm, a comment on riscv/ppc).
COMMENT = {"aarch64": r"\s//.*$", "armv7": r"\s[@;].*$", "armv7m": r"\s[@;].*$",
           "riscv64": r"\s#.*$", "ppc64le": r"\s#.*$"}


# Data that objdump lists among the instructions (literal pools, undecoded words): not code.
DATA_DIRECTIVES = (".word", ".short", ".byte", ".inst")


def disassemble(objdump, binary, comment):
    """{function: [mnemonic-and-operands]} for every symbol in .text: objdump's comments
    (the regex `comment`, per architecture) and data words dropped, blanks collapsed.  Also the
    disassembler of tests/port/barrier_probe.py (python3 -m tests.port.barrier_probe)."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\s*[0-9a-f]+:\s+(.*)$", line)
        if m and cur is not None:
            ins = re.sub(r"\s+", " ", re.sub(comment, "", m.group(1)).strip())
            if ins and not ins.startswith(DATA_DIRECTIVES):
                cur.append(ins)
    return funcs


# Compiler support routines that implement atomics out of line (aarch64 -moutline-atomics,
# libatomic, __sync builtins): followed even though they are not library symbols.
ATOMIC_HELPERS = re.compile(r"^(__aarch64_(ld|swp|cas)\w+|__atomic_\w+|__sync_\w+)$")


def closure(funcs, name, follow, depth=5):
    """The function and those it calls (depth-limited, breadth first). Only calls to
    `follow` symbols (the library's own functions) and to atomics helpers are followed, so
    that a barrier somewhere in the C library cannot stand in for a missing one."""
    seen, todo = [], [(name, 0)]
    while todo:
        f, d = todo.pop(0)
        if f in seen or f not in funcs:
            continue
        seen.append(f)
        if d < depth:
            for ins in funcs[f]:
                m = CALL.match(ins)
                callee = m.group(2) if m else None
                if callee and callee != f and (callee in follow or ATOMIC_HELPERS.match(callee)):
                    todo.append((callee, d + 1))
    return seen


def defined_symbols(nm, libs):
    """Functions defined in the given archives/objects (the code under check)."""
    syms = set()
    for lib in libs:
        out = subprocess.run([nm, "--defined-only", lib], check=True, capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TtWw":
                syms.add(parts[2])
    return syms


# A barrier that belongs to an access sits next to it: the compilers' mappings put at most a
# few instructions (the exclusive loop, a compare-and-branch) between them. A pair further
# apart is not counted, so an unrelated barrier elsewhere in the function cannot stand in.
PAIR_WINDOW = 6


def find(pattern, insns):
    """The instruction text that satisfies `pattern` in `insns`, or None."""
    if isinstance(pattern, str):
        return next((ins for ins in insns if re.search(pattern, ins)), None)
    first, then = pattern
    for i, ins in enumerate(insns):
        if re.search(first, ins):
            for later in insns[i + 1:i + 1 + PAIR_WINDOW]:
                if re.search(then, later):
                    return f"{ins} ... {later}"
    return None


def check(arch, funcs, wanted, follow):
    table = ROLES[arch]
    report, ok = [], True
    for fn, roles in wanted:
        if fn not in funcs:
            report.append({"function": fn, "role": "-", "found": False,
                           "detail": "symbol not in the binary"})
            print(f"MISSING symbol {fn} in the binary")
            ok = False
            continue
        body = closure(funcs, fn, follow)
        for role in roles:
            hit = None
            for f in body:
                for what, pattern in table[role]:
                    ins = find(pattern, funcs[f])
                    if ins:
                        hit = (what, ins, f)
                        break
                if hit:
                    break
            if hit:
                where = "" if hit[2] == fn else f" (in {hit[2]})"
                print(f"ok      {arch} {fn}: {role} <- {hit[1]}{where}")
                report.append({"function": fn, "role": role, "found": True,
                               "instruction": hit[1], "in": hit[2]})
            else:
                kinds = ", ".join(w for w, _ in table[role])
                print(f"MISSING {role} in {fn} ({arch}): expected {kinds}; "
                      f"searched {', '.join(body)}")
                report.append({"function": fn, "role": role, "found": False,
                               "detail": f"expected {kinds}"})
                ok = False
    return ok, report


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--arch", required=True, choices=sorted(ROLES))
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--fn", action="append", default=[], metavar="SYMBOL=ROLE[,ROLE]")
    ap.add_argument("--lib", action="append", default=[],
                    help="archive/object whose functions calls may be followed into "
                         "(default: every function of the binary)")
    ap.add_argument("--json")
    a = ap.parse_args()
    wanted = []
    for spec in a.fn:
        sym, _, roles = spec.partition("=")
        rl = [r for r in roles.split(",") if r]
        bad = [r for r in rl if r not in ROLES[a.arch]]
        if not sym or not rl or bad:
            print(f"barrier_check: bad --fn {spec!r}", file=sys.stderr)
            return 2
        wanted.append((sym, rl))
    if not wanted:
        print("barrier_check: nothing to check (--fn)", file=sys.stderr)
        return 2
    funcs = disassemble(a.objdump, a.binary, COMMENT[a.arch])
    if a.lib:
        nm = re.sub(r"objdump$", "nm", a.objdump)
        follow = defined_symbols(nm, a.lib) | {fn for fn, _ in wanted}
    else:
        follow = set(funcs)
    ok, report = check(a.arch, funcs, wanted, follow)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"arch": a.arch, "binary": a.binary, "ok": ok, "checks": report}, f,
                      indent=1)
    print(f"barrier check {a.arch}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""barrier_check.py — does the built code contain the ordering instructions the model assumes, in their place?

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
These ask for presence: one such instruction in the function or a library function it calls.
Two roles ask for order, in the function itself, whose first argument is the lock (offsets of
its words: --layout): publish (the first and only store to owner is a release store of owner
+ 1: no plain store to owner before it) and wait_acquire (the load of owner that the ticket is
compared with is an acquire load); see the comment above LAYOUT.
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


# ---------------------------------------------------------------- order: which access is which
# The roles above ask whether an instruction of each kind is there. Two more ask which access
# it belongs to, on the probe functions whose first argument is the lock (spinlock_t *):
#   publish       (unlock) the first and only store to the lock's owner word is a release
#                 store and stores what a load of owner returned, plus one: no plain store to
#                 owner before it (an early publish), none after it;
#   wait_acquire  (lock) the load of owner whose value the function compares with its ticket
#                 (the value of the ticket RMW on next) is an acquire load.
# The function is read as straight-line code in listing order (the probes are a few
# instructions; a loop's back edge only repeats what was read), with each register holding a
# symbolic value: lock + k, (value of load i) + k, the ticket, or unknown. Offsets of next and
# owner in spinlock_t: --layout (the probe asserts the same layout when it compiles).
LAYOUT = {"next": 0, "owner": 4}
ARG0 = {"aarch64": "r0", "armv7": "r0", "armv7m": "r0", "riscv64": "a0", "ppc64le": "r3"}
STACK = {"aarch64": "sp", "armv7": "sp", "armv7m": "sp", "riscv64": "sp", "ppc64le": "r1"}
# Registers a call leaves intact (callee-saved), per ABI.
KEPT = {"aarch64": {f"r{i}" for i in range(19, 30)} | {"sp"},
        "armv7": {f"r{i}" for i in range(4, 12)} | {"sp"},
        "riscv64": {f"s{i}" for i in range(12)} | {"sp"},
        "ppc64le": {f"r{i}" for i in range(14, 32)} | {"r1", "r2"}}
KEPT["armv7m"] = KEPT["armv7"]
# Fences that order every earlier access before a later store (release), or an earlier load
# before every later access (acquire); ppc's isync counts for acquire only after a compare of
# the loaded value and a conditional branch (the control-dependency idiom).
REL_FENCE = {"aarch64": A64_DMB_FULL, "armv7": ARM_DMB, "armv7m": ARM_DMB,
             "riscv64": RV_FENCE_REL, "ppc64le": r"^lwsync$|" + PPC_SYNC}
ACQ_FENCE = {"aarch64": r"^dmb\s+(ish|ishld|sy)$", "armv7": ARM_DMB, "armv7m": ARM_DMB,
             "riscv64": RV_FENCE_ACQ, "ppc64le": r"^lwsync$|" + PPC_SYNC}


def _imm(text):
    text = text.strip().lstrip("#")
    return int(text, 0)


def _reg(arch, r):
    r = r.strip().rstrip("!")
    if arch == "aarch64":
        m = re.match(r"^[wx](\d+)$", r)
        return f"r{m.group(1)}" if m else ("zr" if r in ("wzr", "xzr") else r)
    if arch in ("armv7", "armv7m"):
        return {"ip": "r12", "fp": "r11", "sl": "r10", "sb": "r9"}.get(r, r)
    return r


def decode(arch, ins):
    """One instruction as (op, fields): op is mov, addi, const, load, store, rmw, fence, cmp,
    cbranch, call, tail, ret or other (fields['dst'] then names the register it may write)."""
    mnem, _, ops = ins.partition(" ")
    ops = ops.strip()
    R = lambda x: _reg(arch, x)
    if arch == "aarch64":
        o = [x.strip() for x in re.split(r",(?![^\[]*\])", ops)] if ops else []
        mem = re.match(r"^\[(\w+)(?:,\s*#(-?0x[0-9a-f]+|-?\d+))?\](!?)$", o[-1]) if o else None
        if mnem in ("ldar", "ldapr", "ldarb", "ldarh", "ldr", "ldrb", "ldrh", "ldaxr", "ldxr") and mem:
            return "load", {"dst": R(o[0]), "base": R(mem.group(1)), "off": _imm(mem.group(2) or "0"),
                            "acq": mnem.startswith("lda"), "excl": "x" in mnem[2:]}
        if mnem in ("stlr", "str", "strb", "strh", "stlxr", "stxr") and mem:
            src = o[1] if mnem in ("stlxr", "stxr") else o[0]
            d = {"src": R(src), "base": R(mem.group(1)), "off": _imm(mem.group(2) or "0"),
                 "rel": mnem.startswith("stl")}
            if mnem in ("stlxr", "stxr"):
                d["dst"] = R(o[0])
            return "store", d
        m = re.match(r"^" + LSE_OPS + r"(a?)(l?)[bh]?$", mnem)
        if m and mem:
            return "rmw", {"dst": R(o[1]), "base": R(mem.group(1)), "off": 0,
                           "acq": m.group(1) == "a", "rel": m.group(2) == "l"}
        if mnem == "mov" and len(o) == 2:
            return ("const", {"dst": R(o[0])}) if o[1].startswith("#") else ("mov", {"dst": R(o[0]), "src": R(o[1])})
        if mnem == "add" and len(o) == 3 and o[2].startswith("#"):
            return "addi", {"dst": R(o[0]), "src": R(o[1]), "imm": _imm(o[2])}
        if mnem in ("cmp", "cmn"):
            return "cmp", {"a": R(o[0]), "b": R(o[1])}
        if mnem.startswith("b.") or mnem in ("cbz", "cbnz", "tbz", "tbnz"):
            return "cbranch", {}
        if mnem == "bl":
            return "call", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem == "b":
            return "tail", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem == "ret":
            return "ret", {}
        if mnem.startswith(("stp", "ldp", "st", "ld")):
            base = re.search(r"\[(\w+)", ops)
            return "mem", {"base": R(base.group(1)) if base else "?",
                           "dst": R(o[0]) if mnem.startswith("ld") else None}
    elif arch in ("armv7", "armv7m"):
        mn = re.sub(r"\.[wn]$", "", mnem)
        o = [x.strip() for x in re.split(r",(?![^\[]*\])", ops)] if ops else []
        mem = re.match(r"^\[(\w+)(?:,\s*#(-?\d+))?\](!?)$", o[-1]) if o else None
        if mn in ("ldr", "ldrex") and mem:
            return "load", {"dst": R(o[0]), "base": R(mem.group(1)),
                            "off": int(mem.group(2) or 0), "acq": False, "excl": mn == "ldrex"}
        if mn in ("str", "strex") and mem:
            d = {"src": R(o[1] if mn == "strex" else o[0]), "base": R(mem.group(1)),
                 "off": int(mem.group(2) or 0), "rel": False}
            if mn == "strex":
                d["dst"] = R(o[0])
            return "store", d
        if mn == "mov" and len(o) == 2:
            return ("const", {"dst": R(o[0])}) if o[1].startswith("#") else ("mov", {"dst": R(o[0]), "src": R(o[1])})
        if mn in ("add", "adds", "addw") and o and o[-1].startswith("#"):
            return "addi", {"dst": R(o[0]), "src": R(o[0] if len(o) == 2 else o[1]), "imm": _imm(o[-1])}
        if mn == "cmp":
            return "cmp", {"a": R(o[0]), "b": R(o[1])}
        if re.match(r"^b(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)$", mn) or mn in ("cbz", "cbnz"):
            return "cbranch", {}
        if mn in ("bl", "blx") and "<" in ins:
            return "call", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mn == "b":
            return "tail", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mn == "bx" and o == ["lr"] or mn == "pop" and "pc" in ops:
            return "ret", {}
        if mn.startswith(("ld", "st", "push", "pop")):
            base = re.search(r"\[(\w+)", ops)
            return "mem", {"base": R(base.group(1)) if base else "sp", "dst": None}
    elif arch == "riscv64":
        o = [x.strip() for x in ops.split(",")] if ops else []
        mem = re.match(r"^(-?\d+)?\((\w+)\)$", o[-1]) if o else None
        if re.match(r"^l[bhwd]u?$", mnem) and mem:
            return "load", {"dst": R(o[0]), "base": R(mem.group(2)), "off": int(mem.group(1) or 0),
                            "acq": False, "excl": False}
        if re.match(r"^s[bhwd]$", mnem) and mem:
            return "store", {"src": R(o[0]), "base": R(mem.group(2)), "off": int(mem.group(1) or 0),
                             "rel": False}
        m = re.match(r"^(amo\w+|lr|sc)\.[wd](\.aq)?(\.?(?:aq)?rl)?$", mnem)
        if m and mem:
            f = {"base": R(mem.group(2)), "off": 0, "acq": bool(m.group(2)) or "aqrl" in mnem,
                 "rel": mnem.endswith("rl")}
            if m.group(1) == "amoswap" and o[0] == "zero":
                return "store", dict(f, src=R(o[1]))
            if m.group(1) == "lr":
                return "load", dict(f, dst=R(o[0]), excl=True)
            if m.group(1) == "sc":
                return "store", dict(f, src=R(o[1]), dst=R(o[0]))
            return "rmw", dict(f, dst=R(o[0]))
        if mnem in ("mv", "sext.w"):
            return "mov", {"dst": R(o[0]), "src": R(o[1])}
        if mnem in ("add", "addi", "addw", "addiw") and len(o) == 3 and re.match(r"^-?\d+$", o[2]):
            return "addi", {"dst": R(o[0]), "src": R(o[1]), "imm": int(o[2])}
        if mnem == "li":
            return "const", {"dst": R(o[0])}
        m = re.match(r"^b(eq|ne|lt|ge|ltu|geu)$", mnem)
        if m:
            return "cbranch", {"a": R(o[0]), "b": R(o[1])}
        if re.match(r"^b(eq|ne|lt|ge|gt|le)z$", mnem):
            return "cbranch", {"a": R(o[0]), "b": "zero"}
        if mnem in ("jal", "call") and "<" in ins:
            return "call", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem in ("j", "tail"):
            return "tail", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem == "ret":
            return "ret", {}
    elif arch == "ppc64le":
        o = [x.strip() for x in ops.split(",")] if ops else []
        mem = re.match(r"^(-?\d+)\((r\d+)\)$", o[-1]) if o else None
        if re.match(r"^l([bhw]z|d|wa)$", mnem) and mem:
            return "load", {"dst": o[0], "base": mem.group(2), "off": int(mem.group(1)),
                            "acq": False, "excl": False}
        if re.match(r"^st[bhwd]u?$", mnem) and mem:
            return "store", {"src": o[0], "base": mem.group(2), "off": int(mem.group(1)),
                             "rel": False, "dst": mem.group(2) if mnem.endswith("u") else None}
        if re.match(r"^l[bhwd]arx$", mnem):
            return "load", {"dst": o[0], "base": o[2], "off": 0, "acq": False, "excl": True}
        if re.match(r"^st[bhwd]cx\.$", mnem):
            return "store", {"src": o[0], "base": o[2], "off": 0, "rel": False}
        if mnem == "mr" or mnem == "clrldi" and o[2:] == ["32"] or mnem in ("extsw", "rldicl") and len(o) == 2:
            return "mov", {"dst": o[0], "src": o[1]}
        if mnem == "addi" and len(o) == 3 and o[1] != "r0":
            return "addi", {"dst": o[0], "src": o[1], "imm": int(o[2])}
        if mnem == "li":
            return "const", {"dst": o[0]}
        if mnem in ("cmpw", "cmplw", "cmpd", "cmpld"):
            regs = [x for x in o if not x.startswith("cr")]
            return "cmp", {"a": regs[0], "b": regs[1]}
        if re.match(r"^b(eq|ne|lt|gt|le|ge)(lr)?[-+]?$", mnem):
            return "cbranch", {"ret": "lr" in mnem}
        if mnem == "bl":
            return "call", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem == "b":
            return "tail", {"sym": (CALL.match(ins) or [None, None, None])[2]}
        if mnem == "blr":
            return "ret", {}
    m = re.match(r"^\s*(\w+)", ops)
    return "other", {"dst": R(m.group(1)) if m else None}


# Out-of-line atomics helpers (aarch64 -moutline-atomics): arguments w0 (operand) and x1
# (address), old value returned in w0.
A64_HELPER = re.compile(r"^__aarch64_ldadd\d_(relax|acq|rel|acq_rel)$")


class Flow:
    """Straight-line symbolic reading of one function (see the comment above LAYOUT)."""

    def __init__(self, arch, insns):
        self.arch, self.insns = arch, insns
        self.ops = [decode(arch, i) for i in insns]

    def is_mem(self, k):
        op, f = self.ops[k]
        if op in ("call", "tail", "rmw"):
            return True
        return op in ("load", "store", "mem") and f.get("base") != STACK[self.arch]

    def run(self, layout):
        """Per instruction: the registers before it ({reg: value}). Values: ('lock', k),
        ('val', i, k) -- what load/RMW i returned, plus k --, ('ticket', i)."""
        regs = {ARG0[self.arch]: ("lock", 0)}
        before = []
        for k, (op, f) in enumerate(self.ops):
            before.append(dict(regs))
            val = None
            if op == "mov":
                val = regs.get(f["src"])
            elif op == "addi":
                v = regs.get(f["src"])
                val = (v[0], v[1] + f["imm"]) if v and v[0] == "lock" else \
                      (v[0], v[1], v[2] + f["imm"]) if v and v[0] == "val" else None
            elif op in ("load", "rmw"):
                addr = regs.get(f["base"])
                addr = (addr[0], addr[1] + f["off"]) if addr and addr[0] == "lock" else None
                if addr == ("lock", layout["next"]) and (op == "rmw" or f.get("excl")):
                    val = ("ticket", k)
                elif addr == ("lock", layout["owner"]) and op == "load":
                    val = ("val", k, 0)
            elif op in ("call", "tail"):
                m = A64_HELPER.match(f.get("sym") or "") if self.arch == "aarch64" else None
                kept = {r: v for r, v in regs.items() if r in KEPT[self.arch]}
                if m and regs.get("r1") == ("lock", layout["next"]):
                    kept["r0"] = ("ticket", k)
                regs = kept
                continue
            if f.get("dst"):
                regs.pop(f["dst"], None)
                if val is not None and op != "store":
                    regs[f["dst"]] = val
        return before

    def addr(self, regs, f):
        a = regs.get(f.get("base"))
        return (a[0], a[1] + f.get("off", 0)) if a and a[0] == "lock" else None

    def acquire_after(self, k, dst):
        """The acquire idiom after plain load k: a fence before any other memory access or
        call (ppc isync: only after a compare of `dst` and a conditional branch)."""
        cmp_seen = branch_seen = False
        for j in range(k + 1, len(self.ops)):
            op, f = self.ops[j]
            ins = self.insns[j]
            if re.search(ACQ_FENCE[self.arch], ins):
                return j
            if self.arch == "ppc64le" and ins == "isync" and cmp_seen and branch_seen:
                return j
            if op == "cmp" and dst in (f["a"], f["b"]):
                cmp_seen = True
            if op == "cbranch" and cmp_seen:
                branch_seen = True
            if op in ("ret", "tail") or self.is_mem(j) or f.get("ret"):
                return None
        return None

    def release_before(self, k):
        """Store k is a release: a release instruction, or a release fence before it with no
        memory access in between."""
        op, f = self.ops[k]
        if f.get("rel"):
            return k
        for j in range(k - 1, -1, -1):
            if re.search(REL_FENCE[self.arch], self.insns[j]):
                return j
            if self.is_mem(j):
                return None
        return None


def check_publish(arch, insns, layout):
    """(ok, detail) for role publish."""
    fl = Flow(arch, insns)
    regs = fl.run(layout)
    stores = [k for k, (op, f) in enumerate(fl.ops)
              if op == "store" and fl.addr(regs[k], f) == ("lock", layout["owner"])]
    if not stores:
        return False, "no store to owner"
    first = stores[0]
    rel = fl.release_before(first)
    if rel is None:
        later = [k for k in stores[1:] if fl.release_before(k) is not None]
        if later:
            r = fl.release_before(later[0])
            how = " ... ".join(dict.fromkeys([f"[{r}] {insns[r]}", f"[{later[0]}] {insns[later[0]]}"]))
            return False, (f"plain store to owner before release: [{first}] {insns[first]}, "
                           f"then the release {how} (instruction numbers in the function)")
        return False, f"the store that publishes owner is not a release: {insns[first]}"
    v = regs[first].get(fl.ops[first][1]["src"])
    if not (v and v[0] == "val" and v[2] == 1):
        return False, f"the release store does not store owner + 1: {insns[first]}"
    if len(stores) > 1:
        return False, f"a second store to owner after the release: {insns[stores[1]]}"
    how = insns[first] if rel == first else f"{insns[rel]} ... {insns[first]}"
    return True, f"{how} (owner + 1 of {insns[v[1]]}; the only store to owner)"


def check_wait_acquire(arch, insns, layout):
    """(ok, detail) for role wait_acquire."""
    fl = Flow(arch, insns)
    regs = fl.run(layout)
    for k, (op, f) in enumerate(fl.ops):
        if op not in ("cmp", "cbranch") or "a" not in f:
            continue
        va, vb = regs[k].get(f["a"]), regs[k].get(f["b"])
        pair = sorted([va or ("?",), vb or ("?",)], key=lambda v: v[0])
        if not (pair[0][0] == "ticket" and pair[1][0] == "val"):
            continue
        li = pair[1][1]
        lop, lf = fl.ops[li]
        if lf.get("acq"):
            return True, f"{insns[li]} ... {insns[k]} (the ticket compared with it)"
        fence = fl.acquire_after(li, lf["dst"])
        if fence is not None:
            return True, f"{insns[li]} ... {insns[fence]} ... {insns[k]}"
        return False, (f"the load of owner that decides the wait is not an acquire: "
                       f"{insns[li]} ... {insns[k]}")
    return False, "no compare of the ticket with a load of owner"


ORDER_ROLES = {"publish": check_publish, "wait_acquire": check_wait_acquire}


def check(arch, funcs, wanted, follow, layout=LAYOUT):
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
            if role in ORDER_ROLES:
                # Read in the function itself: the access that decides must be its own.
                good, detail = ORDER_ROLES[role](arch, funcs[fn], layout)
                tag = "ok     " if good else "MISSING"
                print(f"{tag} {arch} {fn}: {role} <- {detail}" if good else
                      f"MISSING {role} in {fn} ({arch}): {detail}")
                report.append({"function": fn, "role": role, "found": good,
                               ("instruction" if good else "detail"): detail, "in": fn})
                ok = ok and good
                continue
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
    ap.add_argument("--layout", default="next=0,owner=4", metavar="next=N,owner=N",
                    help="byte offsets of the lock's words, for publish and wait_acquire")
    ap.add_argument("--json")
    a = ap.parse_args()
    try:
        layout = {k: int(v, 0) for k, v in (x.split("=") for x in a.layout.split(","))}
        assert set(layout) == {"next", "owner"}
    except (ValueError, AssertionError):
        print(f"barrier_check: bad --layout {a.layout!r}", file=sys.stderr)
        return 2
    wanted = []
    for spec in a.fn:
        sym, _, roles = spec.partition("=")
        rl = [r for r in roles.split(",") if r]
        bad = [r for r in rl if r not in ROLES[a.arch] and r not in ORDER_ROLES]
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
    ok, report = check(a.arch, funcs, wanted, follow, layout)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"arch": a.arch, "binary": a.binary, "ok": ok, "checks": report}, f,
                      indent=1)
    print(f"barrier check {a.arch}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""order_cases.py -- each clause of the barrier check's order roles (publish, wait_acquire of
tools/cross/barrier_check.py) shown to hold on a good listing and to bite on a bad one.

The listings are objdump's, as barrier_check.disassemble() returns them: the good ones copied
from the probe's disassembly on each target (GCC 12, tests/cross/barrier_probe.c), each bad one
that listing with one access moved, added or weakened. A case passes when the verdict is the
expected one and, for a rejection, the diagnosis names the expected clause. TAP on stdout.
[REQ-MM-4 REQ-TCB-1]

  python3 -m tests.cross.order_cases
"""
import argparse, sys

from tools.cross.barrier_check import LAYOUT, check_publish, check_wait_acquire

A64_UNLOCK = ["add x0, x0, #0x4", "ldr w1, [x0]", "add w1, w1, #0x1", "stlr w1, [x0]", "ret"]
ARM_UNLOCK = ["ldr r3, [r0, #4]", "dmb ish", "adds r3, #1", "str r3, [r0, #4]", "bx lr"]
RV_UNLOCK = ["lw a5,4(a0)", "addw a5,a5,1", "add a4,a0,4", "fence iorw,ow",
             "amoswap.w zero,a5,(a4)", "ret"]
PPC_UNLOCK = ["lwz r9,4(r3)", "addi r9,r9,1", "lwsync", "stw r9,4(r3)", "blr"]
A64_LOCK = ["ldaxr w1, [x0]", "add w3, w1, #0x1", "stxr w4, w3, [x0]",
            "cbnz w4, 4001e0 <xprobe_spin_lock>", "add x2, x0, #0x4", "ldar w2, [x2]",
            "cmp w1, w2", "b.ne 400204 <xprobe_spin_lock+0x24>", "ret",
            "b 400150 <irqsync_spin_wait>"]
A64_LOCK_OUTLINE = ["stp x29, x30, [sp, #-32]!", "mov x29, sp", "str x19, [sp, #16]",
                    "mov x19, x0", "mov x1, x19", "mov w0, #0x1",
                    "bl 401d50 <__aarch64_ldadd4_acq>", "add x1, x19, #0x4", "ldar w1, [x1]",
                    "cmp w0, w1", "b.ne 400798 <xprobe_spin_lock+0x38>", "ret"]
ARM_LOCK = ["mov r3, r0", "ldrex r1, [r3]", "adds r2, r1, #1", "strex ip, r2, [r3]",
            "cmp.w ip, #0", "bne.n 1048a <xprobe_spin_lock+0x2>", "dmb ish", "ldr r3, [r3, #4]",
            "dmb ish", "cmp r1, r3", "bne.n 104aa <xprobe_spin_lock+0x22>", "bx lr"]
RV_LOCK = ["li a4,1", "amoadd.w.aq a1,a4,(a0)", "lw a5,4(a0)", "sext.w a1,a1", "fence",
           "bne a1,a5,106b6 <xprobe_spin_lock+0x14>", "ret"]
PPC_LOCK = ["lwarx r4,0,r3", "addi r9,r4,1", "stwcx. r9,0,r3", "bne 10000c28 <x+0x8>",
            "isync", "lwz r9,4(r3)", "cmpw r9,r9", "bne- 10000c48 <x+0x28>", "isync",
            "cmplw r4,r9", "beqlr"]


def sub(listing, i, new):
    """listing with instruction i replaced by `new` (a list: none, one or more)."""
    return listing[:i] + new + listing[i + 1:]


# (name, role, arch, listing, expected: None = accepted, else a substring of the diagnosis)
CASES = [
    ("publish/aarch64 stlr of owner + 1", "publish", "aarch64", A64_UNLOCK, None),
    ("publish/armv7 dmb then str", "publish", "armv7", ARM_UNLOCK, None),
    ("publish/riscv64 fence rw,w then amoswap", "publish", "riscv64", RV_UNLOCK, None),
    ("publish/ppc64le lwsync then stw", "publish", "ppc64le", PPC_UNLOCK, None),
    ("publish/aarch64 early plain store", "publish", "aarch64",
     sub(A64_UNLOCK, 3, ["str w1, [x0]", "stlr w1, [x0]"]), "plain store to owner before release"),
    ("publish/armv7 early plain store", "publish", "armv7",
     ["ldr r3, [r0, #4]", "adds r3, #1", "str r3, [r0, #4]", "dmb ish", "str r3, [r0, #4]",
      "bx lr"], "plain store to owner before release"),
    ("publish/riscv64 early plain sw", "publish", "riscv64",
     sub(RV_UNLOCK, 3, ["sw a5,4(a0)", "fence iorw,ow"]), "plain store to owner before release"),
    ("publish/ppc64le early plain stw", "publish", "ppc64le",
     sub(PPC_UNLOCK, 2, ["stw r9,4(r3)", "lwsync"]), "plain store to owner before release"),
    ("publish/aarch64 plain str only", "publish", "aarch64", sub(A64_UNLOCK, 3, ["str w1, [x0]"]),
     "is not a release"),
    ("publish/armv7 an access between dmb and str", "publish", "armv7",
     sub(ARM_UNLOCK, 2, ["ldr r2, [r1]", "adds r3, #1"]), "is not a release"),
    ("publish/riscv64 fence r,rw is no release fence", "publish", "riscv64",
     sub(RV_UNLOCK, 3, ["fence r,rw"]), "is not a release"),
    ("publish/aarch64 stores owner + 2", "publish", "aarch64",
     sub(A64_UNLOCK, 2, ["add w1, w1, #0x2"]), "does not store owner + 1"),
    ("publish/aarch64 stores a value not loaded from owner", "publish", "aarch64",
     sub(A64_UNLOCK, 1, ["ldr w1, [x0, #-4]"]), "does not store owner + 1"),
    ("publish/aarch64 a second store after the release", "publish", "aarch64",
     sub(A64_UNLOCK, 4, ["str w1, [x0]", "ret"]), "a second store to owner after the release"),
    ("publish/aarch64 stores next, not owner", "publish", "aarch64",
     ["ldr w1, [x0, #4]", "add w1, w1, #0x1", "stlr w1, [x0]", "ret"], "no store to owner"),
    ("wait_acquire/aarch64 ldar compared with the ldaxr ticket", "wait_acquire", "aarch64",
     A64_LOCK, None),
    ("wait_acquire/aarch64 ticket from the out-of-line helper", "wait_acquire", "aarch64",
     A64_LOCK_OUTLINE, None),
    ("wait_acquire/armv7 ldr then dmb", "wait_acquire", "armv7", ARM_LOCK, None),
    ("wait_acquire/riscv64 lw then fence", "wait_acquire", "riscv64", RV_LOCK, None),
    ("wait_acquire/ppc64le lwz, cmp, branch, isync", "wait_acquire", "ppc64le", PPC_LOCK, None),
    ("wait_acquire/aarch64 relaxed first look", "wait_acquire", "aarch64",
     sub(A64_LOCK, 5, ["ldr w2, [x2]"]), "not an acquire"),
    ("wait_acquire/aarch64 decides on a plain reload, not the ldar", "wait_acquire", "aarch64",
     sub(A64_LOCK, 5, ["ldar w5, [x2]", "ldr w2, [x2]"]), "not an acquire"),
    ("wait_acquire/armv7 dmb after another access", "wait_acquire", "armv7",
     sub(ARM_LOCK, 8, ["ldr r2, [r0, #8]", "dmb ish"]), "not an acquire"),
    ("wait_acquire/riscv64 no fence", "wait_acquire", "riscv64", sub(RV_LOCK, 4, []),
     "not an acquire"),
    ("wait_acquire/ppc64le isync without the compare and branch", "wait_acquire", "ppc64le",
     sub(sub(PPC_LOCK, 7, []), 6, []), "not an acquire"),
    ("wait_acquire/aarch64 the ticket compared with nothing loaded", "wait_acquire", "aarch64",
     sub(A64_LOCK, 6, ["cmp w1, w3"]), "no compare of the ticket with a load of owner"),
]


def main(argv=None):
    argparse.ArgumentParser(description=__doc__.strip().split("\n")[0],
                            epilog="no options: prints TAP, one case per clause").parse_args(argv)
    roles = {"publish": check_publish, "wait_acquire": check_wait_acquire}
    print(f"1..{len(CASES)}")
    bad = 0
    for n, (name, role, arch, listing, want) in enumerate(CASES, 1):
        good, detail = roles[role](arch, listing, LAYOUT)
        ok = good if want is None else (not good and want in detail)
        bad += not ok
        print(f"# {'accepted' if good else 'rejected'}: {detail}")
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

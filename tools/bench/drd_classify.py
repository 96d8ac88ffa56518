#!/usr/bin/env python3
"""Classify valgrind DRD conflicts of the annotated stress run by the object they touch.

usage: drd_classify.py DRD_STDERR BINARY LAYOUT_TXT
The ticket lock is annotated as a lock (IRQSYNC_VALGRIND); DRD does not model C11 atomics, so
conflicts on atomic objects (lock words, status words, the hosted port's pending words and
counters, the test's own atomics) are expected.  A conflict on a plain field of a descriptor
(depth, chain, counters: all protected by the descriptor lock) is a real finding: exit 1.
"""
import argparse, collections, re, subprocess, sys

BASE = 0x108000  # where valgrind maps a PIE executable on amd64


def main(argv=None):
    ap = argparse.ArgumentParser(prog="drd_classify.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("err", metavar="DRD_STDERR", help="valgrind --tool=drd's output (build/logs/drd.err)")
    ap.add_argument("binary", metavar="BINARY", help="the program DRD ran (its symbols: nm -S)")
    ap.add_argument("layout", metavar="LAYOUT_TXT",
                    help="the descriptor's layout: `size N`, then `FIELD OFFSET SIZE plain|atomic` lines")
    args = ap.parse_args(argv)
    err, binary, layout = args.err, args.binary, args.layout
    fields, size = [], None
    for line in open(layout):
        p = line.split()
        if p[0] == "size":
            size = int(p[1])
        else:
            fields.append((p[0], int(p[1]), int(p[2]), p[3]))
    syms = []
    for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True,
                               text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 4:
            syms.append((int(p[0], 16), int(p[1], 16), p[3]))
    text = open(err).read()
    conf = re.findall(r"Conflicting (load|store) by thread \d+ at 0x([0-9a-f]+) size (\d+)", text)
    count = collections.Counter()
    bad = 0
    for kind, addr, _ in conf:
        a = int(addr, 16) - BASE
        name = "?"
        for s, n, sym in syms:
            if s <= a < s + n:
                name = sym
                if sym == "irq_desc" and size:
                    off = (a - s) % size
                    fld = next((f for f in fields if f[1] <= off < f[1] + f[2]), None)
                    name = f"irq_desc[].{fld[0]} ({fld[3]})" if fld else f"irq_desc[]+{off}"
                    if fld and fld[3] == "plain":
                        bad += 1
                break
        count[name] += 1
    print(f"{len(conf)} conflict reports:")
    for n, c in count.most_common():
        print(f"  {c:8d}  {n}")
    print("plain descriptor fields in conflict:", bad)
    return 1 if bad or not conf and "ERROR SUMMARY" not in text else 0


if __name__ == "__main__":
    sys.exit(main())

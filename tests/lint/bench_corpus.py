#!/usr/bin/env python3
"""Recall and precision per rule on the corpus of real kernel bugs (make lint-bench,
issue 28; tests/lint/corpus/README.md).

    bench_corpus.py FINDINGS OUT.json [--min-recall 90] [--min-precision 100] FILE...

FINDINGS is lint/irqlint.py's output over the FILEs (one run).  For each rule named by
an `expect:` marker of a bad-*.c file:
  - a marked line reported with that rule is a true positive, a marked line not
    reported a miss (recall = found / marked);
  - a line reported with that rule and not marked - in a bad file or anywhere in a
    good-*.c (fixed or correct) file - is a false alarm (precision = found / reported);
  - a bug (a bad file) is found when every one of its marked lines is.
Prints the table, writes OUT.json, exits 1 when a rule is below the minimums (or the
corpus names no rule: a bench over nothing is not a pass), 0 otherwise.
"""
import argparse, json, os, re, sys

FIND = re.compile(r"^(.*?):(\d+):(\d+): ([a-z-]+/[A-Za-z0-9_.-]+): (.*)$")
EXPECT = re.compile(r"expect:\s*([a-z-]+/[A-Za-z0-9_.-]+(?:\s+[a-z-]+/[A-Za-z0-9_.-]+)*)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("findings")
    ap.add_argument("out")
    ap.add_argument("--min-recall", type=float, default=90.0)
    ap.add_argument("--min-precision", type=float, default=100.0)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    got = {}                                    # (file, rule) -> {line}
    with open(a.findings) as fh:
        for line in fh:
            m = FIND.match(line.rstrip("\n"))
            if m:
                got.setdefault((os.path.normpath(m.group(1)), m.group(4)), set()).add(int(m.group(2)))
    want = {}                                   # (file, rule) -> {line}
    for f in a.files:
        f = os.path.normpath(f)
        for i, text in enumerate(open(f).read().splitlines(), 1):
            m = EXPECT.search(text)
            if m and os.path.basename(f).startswith("bad-"):
                for rule in m.group(1).split():
                    want.setdefault((f, rule), set()).add(i)
    rules = sorted({r for _, r in want})
    files = [os.path.normpath(f) for f in a.files]
    rows, bad = [], []
    for rule in rules:
        marked = found = alarms = bugs = bugs_found = 0
        missed, false = [], []
        for f in files:
            w = want.get((f, rule), set())
            g = got.get((f, rule), set())
            marked += len(w)
            found += len(w & g)
            alarms += len(g - w)
            missed += ["%s:%d" % (f, l) for l in sorted(w - g)]
            false += ["%s:%d" % (f, l) for l in sorted(g - w)]
            if w:
                bugs += 1
                bugs_found += w <= g
        recall = 100.0 * found / marked if marked else 0.0
        precision = 100.0 * found / (found + alarms) if found + alarms else 0.0
        row = {"rule": rule, "bugs": bugs, "bugs_found": bugs_found, "lines_marked": marked,
               "lines_found": found, "false_alarms": alarms, "recall": round(recall, 1),
               "precision": round(precision, 1), "missed": missed, "false": false,
               "files": len(files)}
        rows.append(row)
        if recall < a.min_recall or precision < a.min_precision:
            bad.append("%s: recall %.1f%% (min %.0f%%), precision %.1f%% (min %.0f%%)"
                       % (rule, recall, a.min_recall, precision, a.min_precision))
    print("%-22s %9s %12s %8s %8s %10s" % ("rule", "bugs", "lines", "alarms", "recall", "precision"))
    for r in rows:
        print("%-22s %4d/%-4d %5d/%-6d %8d %7.1f%% %9.1f%%" % (
            r["rule"], r["bugs_found"], r["bugs"], r["lines_found"], r["lines_marked"],
            r["false_alarms"], r["recall"], r["precision"]))
        for x in r["missed"]:
            print("  missed: " + x)
        for x in r["false"]:
            print("  false alarm: " + x)
    if not rows:
        bad.append("no rule named by an expect: marker in the files given")
    d = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(d, exist_ok=True)
    with open(a.out, "w") as fh:
        json.dump({"corpus": files, "min_recall": a.min_recall, "min_precision": a.min_precision,
                   "rules": rows, "pass": not bad, "problems": bad}, fh, indent=1)
        fh.write("\n")
    for x in bad:
        print("lint-bench: BELOW THE GOAL: " + x)
    print("lint-bench: %d rule(s), %d file(s): %s" % (len(rows), len(files), "pass" if not bad else "FAIL"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

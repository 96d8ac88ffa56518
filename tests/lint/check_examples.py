#!/usr/bin/env python3
"""Check lint findings against the example drivers of tests/lint/ (TAP output).

    check_examples.py FINDINGS FILE...

FINDINGS is the output of lint/irqlint.py over the FILEs (lines
`FILE:LINE:COL: TOOL/RULE: MESSAGE`), or the same findings as SARIF (a FINDINGS
file named *.sarif, `make lint FORMAT=sarif`): there TOOL/RULE is the run's tool
(sparse, coccinelle -> cocci, cppcheck, clang-tidy) and the result's ruleId, FILE
the result's first location resolved through the run's originalUriBaseIds, LINE
its region's startLine.  Each example states what it expects:

  bad-*.c   a comment `expect: RULE [RULE...]` on each line that must be reported.
            For every RULE named in the file, the lines reported with that RULE
            must be exactly the marked lines (none missing, none extra); findings
            of rules the file does not name are not judged (a file that does not
            compile also draws compiler errors).
  good-*.c  nothing may be reported, by any tool.

The REQ IDs in a file's comments go into the test names.
"""
import argparse, json, os, re, sys
import urllib.parse

FIND = re.compile(r"^(.*?):(\d+):(\d+): ([a-z-]+/[A-Za-z0-9_.-]+): (.*)$")
EXPECT = re.compile(r"expect:\s*([a-z-]+/[A-Za-z0-9_.-]+(?:\s+[a-z-]+/[A-Za-z0-9_.-]+)*)")
REQ = re.compile(r"REQ-[A-Z]+-\d+")

# SARIF driver name -> the tool's name in irqlint's text output
PREFIX = {"sparse": "sparse", "coccinelle": "cocci", "cppcheck": "cppcheck", "clang-tidy": "clang-tidy"}

def read_text(findings_file, found):
    with open(findings_file) as f:
        for line in f:
            m = FIND.match(line.rstrip("\n"))
            if m:
                path, ln, _, rule, msg = m.groups()
                found.setdefault(os.path.normpath(path), {}).setdefault(rule, {})[int(ln)] = msg

def read_sarif(findings_file, found):
    with open(findings_file) as f:
        log = json.load(f)
    for run in log["runs"]:
        tool = run["tool"]["driver"]["name"]
        bases = {k: v["uri"] for k, v in (run.get("originalUriBaseIds") or {}).items()}
        for res in run.get("results") or []:
            art = res["locations"][0]["physicalLocation"]["artifactLocation"]
            uri = art["uri"]
            if "uriBaseId" in art:
                uri = urllib.parse.urljoin(bases[art["uriBaseId"]], uri)
            path = os.path.relpath(urllib.parse.unquote(urllib.parse.urlsplit(uri).path))
            ln = res["locations"][0]["physicalLocation"]["region"]["startLine"]
            rule = "%s/%s" % (PREFIX.get(tool, tool), res.get("ruleId"))
            found.setdefault(os.path.normpath(path), {}).setdefault(rule, {})[int(ln)] = res["message"]["text"]

def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="check_examples.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("findings", metavar="FINDINGS",
                    help="irqlint's text output over the FILEs, or the same findings as SARIF "
                         "(a file named *.sarif)")
    ap.add_argument("files", metavar="FILE", nargs="+",
                    help="an example driver: bad-*.c with `expect:` markers, or good-*.c")
    return ap.parse_args(argv)


def main(argv=None):
    a = parse_args(argv)
    findings_file, files = a.findings, a.files
    found = {}                                  # file -> {rule -> {line: message}}
    (read_sarif if findings_file.endswith(".sarif") else read_text)(findings_file, found)
    n = bad = 0
    for path in files:
        path = os.path.normpath(path)
        text = open(path).read()
        reqs = " ".join("[%s]" % r for r in sorted(set(REQ.findall(text))))
        name = "%s/%s" % (os.path.basename(os.path.dirname(path)), os.path.basename(path))
        got = found.get(path, {})
        cases = []
        if os.path.basename(path).startswith("good-"):
            extra = ["%s:%d %s" % (r, l, msg) for r, ls in sorted(got.items()) for l, msg in sorted(ls.items())]
            cases.append(("%s clean under every tool %s" % (name, reqs), extra))
        else:
            want = {}
            for i, line in enumerate(text.splitlines(), 1):
                m = EXPECT.search(line)
                if m:
                    for rule in m.group(1).split():
                        want.setdefault(rule, set()).add(i)
            if not want:
                cases.append(("%s has expect: markers" % name, ["no `expect:` marker in a bad example"]))
            for rule, lines in sorted(want.items()):
                have = set(got.get(rule, {}))
                errs = ["line %d: not reported by %s" % (l, rule) for l in sorted(lines - have)]
                errs += ["line %d: reported by %s but not marked: %s" % (l, rule, got[rule][l])
                         for l in sorted(have - lines)]
                cases.append(("%s %s at lines %s %s" % (name, rule, ",".join(map(str, sorted(lines))), reqs), errs))
        for title, errs in cases:
            n += 1
            if errs:
                bad += 1
                print("not ok %d - %s" % (n, title))
                for e in errs:
                    print("#   " + e)
            else:
                print("ok %d - %s" % (n, title))
    print("1..%d" % n)
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())

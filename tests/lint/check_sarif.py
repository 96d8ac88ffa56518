#!/usr/bin/env python3
"""Checks of the SARIF that `make lint FORMAT=sarif` writes (tools/lint_sarif.py), for
tests/suites/60-lint.sh.  Written apart from the converter: it reads SARIF as a consumer
would (uriBaseId resolution, regions in the run's columnKind, fixes applied to the file).

    check_sarif.py same LOG TEXT           the SARIF holds exactly the text output's findings:
                                           file, line, rule, message, and the column converted
                                           to code points (sparse counts tabs as 8 columns)
    check_sarif.py runs LOG TOOL,... [--empty]
                                           one run per tool, in order, each with a results
                                           array and successful invocations; --empty: no result
    check_sarif.py covered LOG TOOL RULE FILE...
                                           TOOL's run analysed each FILE (an analysisTarget
                                           artifact), every invocation succeeded, and no RULE
                                           result is on any of them
    check_sarif.py fix-all LOG ORIG WANT   every fix for ORIG applied at once gives WANT
                                           (what `make lint-fix` wrote)
    check_sarif.py fix-each LOG FILE DIR   each fix for FILE applied alone -> DIR/fix-N.c
    check_sarif.py fixed LOG FILE RULE     every RULE result on FILE has a fix
    check_sarif.py unfixed LOG FILE        no result on FILE has a fix
    check_sarif.py apply LOG FILE LINE RULE N OUT
                                           the N-th fix of that result applied -> OUT
    check_sarif.py flow LOG FILE LINE RULE FN,FN,...
                                           the RULE result on FILE:LINE has a codeFlow whose
                                           steps are in the functions FN,... in that order, the
                                           last step on FILE:LINE (a finding made through calls)
    check_sarif.py mutate KIND LOG OUT     a broken copy for the expected failures:
                                           wrong-version, no-ruleid, line-zero, bad-ruleindex,
                                           drop=FILE:LINE (that result removed)
Exit 0 when the check holds, 1 with the reasons when it does not.
"""
import argparse, json, os, sys
import urllib.parse

PREFIX = {"sparse": "sparse", "coccinelle": "cocci", "cppcheck": "cppcheck", "clang-tidy": "clang-tidy"}


def load(path):
    with open(path) as fh:
        return json.load(fh)


def resolve(run, art):
    uri = art["uri"]
    if "uriBaseId" in art:
        uri = urllib.parse.urljoin(run["originalUriBaseIds"][art["uriBaseId"]]["uri"], uri)
    return os.path.relpath(urllib.parse.unquote(urllib.parse.urlsplit(uri).path))


def results(log):
    """(run, result, file, line, column or 0, TOOL/RULE)"""
    for run in log["runs"]:
        tool = PREFIX.get(run["tool"]["driver"]["name"], run["tool"]["driver"]["name"])
        for res in run.get("results") or []:
            pl = res["locations"][0]["physicalLocation"]
            yield (run, res, resolve(run, pl["artifactLocation"]), pl["region"]["startLine"],
                   pl["region"].get("startColumn", 0), "%s/%s" % (tool, res.get("ruleId")))


def text_lines(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read().split("\n")


def tool_column(line, col, tool):
    """The column the tool printed for code-point column `col` of `line`."""
    head = line[:col - 1]
    if tool != "sparse":
        return len(head.encode("utf-8")) + 1
    v = 0
    for ch in head:
        v = (v // 8 + 1) * 8 if ch == "\t" else v + 1
    return v + 1


def same(log_path, text_path):
    log = load(log_path)
    want = {}
    for line in open(text_path):
        parts = line.rstrip("\n").split(": ", 2)
        head = parts[0].rsplit(":", 2)
        if len(parts) < 3 or len(head) != 3 or "/" not in parts[1]:
            continue
        f, ln, col = head[0], int(head[1]), int(head[2])
        rule, msg = parts[1], parts[2]
        if rule.startswith("cppcheck/"):
            msg = msg.split(": ", 1)[1]
        want.setdefault((os.path.abspath(f), ln, rule, msg), []).append(col)
    have = {}
    for run, res, f, ln, col, rule in results(log):
        have.setdefault((os.path.abspath(f), ln, rule, res["message"]["text"]), []).append((col, run.get("columnKind")))
    errs = ["in the text, not in the SARIF: %s:%d %s: %s" % k for k in sorted(set(want) - set(have))]
    errs += ["in the SARIF, not in the text: %s:%d %s: %s" % k for k in sorted(set(have) - set(want))]
    for k in sorted(set(want) & set(have)):
        if len(want[k]) != len(have[k]):
            errs.append("%s:%d %s: %d time(s) in the text, %d in the SARIF" % (k[:3] + (len(want[k]), len(have[k]))))
            continue
        src = text_lines(k[0])[k[1] - 1]
        for tcol, (scol, kind) in zip(sorted(want[k]), sorted(have[k])):
            if kind != "unicodeCodePoints":
                errs.append("%s: columnKind %r" % (k[0], kind))
            got = tool_column(src, scol, k[2].split("/")[0]) if scol else 0
            if got != tcol:
                errs.append("%s:%d %s: column %d in the SARIF is the tool's column %d, the text says %d"
                            % (k[0], k[1], k[2], scol, got, tcol))
    n = sum(len(v) for v in have.values())
    print("%d finding(s) in the text, %d result(s) in the SARIF" % (sum(len(v) for v in want.values()), n))
    return errs


def runs(log_path, tools, empty):
    log = load(log_path)
    errs = []
    names = [r["tool"]["driver"]["name"] for r in log["runs"]]
    if names != tools:
        errs.append("runs %s, want %s" % (names, tools))
    for r in log["runs"]:
        name = r["tool"]["driver"]["name"]
        res = r.get("results")
        print("%s: %s result(s), %d invocation(s)" % (name, "no" if res is None else len(res), len(r.get("invocations") or [])))
        if res is None:
            errs.append("%s: no results array" % name)
        elif empty and res:
            errs.append("%s: %d result(s), want none: %s" % (name, len(res), res[0]["message"]["text"]))
        if not r.get("invocations"):
            errs.append("%s: no invocation listed" % name)
        for i in r.get("invocations") or []:
            if not i.get("executionSuccessful"):
                why = "; ".join(n["message"]["text"] for n in i.get("toolExecutionNotifications") or [])
                errs.append("%s: an invocation did not succeed: %s" % (name, why or "(no reason given)"))
    return errs


def covered(log_path, tool, rule, paths):
    log = load(log_path)
    run = next((r for r in log["runs"] if r["tool"]["driver"]["name"] == tool), None)
    if run is None:
        return ["no %s run" % tool]
    errs = []
    for i in run.get("invocations") or [None]:
        if not (i or {}).get("executionSuccessful"):
            errs.append("%s: an invocation did not succeed (or none is listed)" % tool)
    targets = {resolve(run, a["location"]) for a in run.get("artifacts") or []
               if "analysisTarget" in (a.get("roles") or [])}
    want = {os.path.normpath(p) for p in paths}
    errs += ["%s: not analysed by %s" % (p, tool) for p in sorted(want - targets)]
    if rule not in [d["id"] for d in run["tool"]["driver"].get("rules") or []]:
        errs.append("%s has no rule %s: it did not run" % (tool, rule))
    for r, res, f, ln, col, name in results(log):
        if r is run and res.get("ruleId") == rule and f in want:
            errs.append("%s:%d: %s: %s" % (f, ln, name, res["message"]["text"]))
    print("%d file(s) analysed by %s, %d of them wanted" % (len(targets), tool, len(want & targets)))
    return errs


def fixes_for(log, path):
    """The distinct fixes of the results on `path`, in result order: [(result, fix)]."""
    out, seen = [], set()
    for run, res, f, ln, col, rule in results(log):
        if f != os.path.normpath(path):
            continue
        for fx in res.get("fixes") or []:
            key = json.dumps(fx, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append((run, fx))
    return out


def apply(text, reps):
    """Apply replacements (regions in code points of the original text) to text."""
    lines = text.split("\n")
    starts = [0]
    for l in lines:
        starts.append(starts[-1] + len(l) + 1)

    def off(line, col):
        return starts[line - 1] + col - 1
    edits, seen = [], set()
    for n, r in enumerate(reps):
        d = r["deletedRegion"]
        key = json.dumps(r, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        a = off(d["startLine"], d.get("startColumn", 1))
        b = off(d.get("endLine", d["startLine"]), d["endColumn"]) if "endColumn" in d else \
            starts[d.get("endLine", d["startLine"])] - 1
        edits.append((a, b, n, (r.get("insertedContent") or {}).get("text", "")))
    edits.sort()
    for i in range(1, len(edits)):
        if edits[i][0] < edits[i - 1][1]:
            raise ValueError("overlapping replacements at offsets %d and %d" % (edits[i - 1][0], edits[i][0]))
    for a, b, n, t in reversed(edits):
        text = text[:a] + t + text[b:]
    return text


def reps_of(run, fx, path):
    out = []
    for ch in fx["artifactChanges"]:
        if resolve(run, ch["artifactLocation"]) != os.path.normpath(path):
            raise ValueError("a fix changes another file: %s" % ch["artifactLocation"]["uri"])
        out += ch["replacements"]
    return out


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def fix_all(log_path, orig, want):
    fx = fixes_for(load(log_path), orig)
    if not fx:
        return ["no fix for %s" % orig]
    got = apply(read(orig), [r for run, f in fx for r in reps_of(run, f, orig)])
    print("%d fix(es) for %s applied" % (len(fx), orig))
    if got != read(want):
        import difflib
        sys.stdout.writelines(difflib.unified_diff(read(want).splitlines(True), got.splitlines(True), want, "SARIF fixes"))
        return ["the SARIF fixes applied to %s differ from %s" % (orig, want)]
    return []


def fix_each(log_path, path, outdir):
    fx = fixes_for(load(log_path), path)
    os.makedirs(outdir, exist_ok=True)
    for n, (run, f) in enumerate(fx):
        out = os.path.join(outdir, "fix-%d.c" % n)
        with open(out, "w") as fh:
            fh.write(apply(read(path), reps_of(run, f, path)))
        print(out)
    return [] if fx else ["no fix for %s" % path]


def fixed(log_path, path, rule, want_fix):
    errs, n = [], 0
    for run, res, f, ln, col, r in results(load(log_path)):
        if f != os.path.normpath(path) or (rule and r != rule):
            continue
        n += 1
        if bool(res.get("fixes")) != want_fix:
            errs.append("%s:%d %s: %s" % (f, ln, r, "no fix" if want_fix else "has a fix, but the patch does not rewrite it"))
    print("%d result(s) on %s%s" % (n, path, " of " + rule if rule else ""))
    return errs + ([] if n else ["no result on %s" % path])


def apply_one(log_path, path, line, rule, n, out):
    for run, res, f, ln, col, r in results(load(log_path)):
        if f == os.path.normpath(path) and ln == line and r == rule:
            fx = (res.get("fixes") or [])
            if n >= len(fx):
                return ["%s:%d %s has %d fix(es), not a fix %d" % (path, line, rule, len(fx), n)]
            print("fix %d: %s" % (n, fx[n]["description"]["text"]))
            with open(out, "w") as fh:
                fh.write(apply(read(path), reps_of(run, fx[n], path)))
            return []
    return ["no %s result at %s:%d" % (rule, path, line)]


def flow(log_path, path, line, rule, fns):
    """The call chain of a finding made through calls, read back from its codeFlow."""
    log = load(log_path)
    hits = [(run, res) for run, res, f, ln, _, r in results(log)
            if os.path.normpath(f) == os.path.normpath(path) and ln == line and r == rule]
    if not hits:
        return ["no %s result on %s:%d" % (rule, path, line)]
    run, res = hits[0]
    flows = res.get("codeFlows") or []
    if len(flows) != 1 or len(flows[0].get("threadFlows") or []) != 1:
        return ["%s:%d: want one codeFlow with one threadFlow, got %r" % (path, line, flows)]
    steps = flows[0]["threadFlows"][0]["locations"]
    got = [x["location"]["message"]["text"] for x in steps]
    errs = []
    if len(steps) != len(fns):
        errs.append("%s:%d: %d steps %r, want %d in %s" % (path, line, len(steps), got, len(fns), ",".join(fns)))
    for i, (x, fn) in enumerate(zip(steps, fns)):
        if not x["location"]["message"]["text"].startswith(("%s()" % fn, "interrupt handler %s()" % fn)):
            errs.append("step %d: %r is not in %s()" % (i, x["location"]["message"]["text"], fn))
    last = steps[-1]["location"]["physicalLocation"] if steps else None
    if last and (os.path.normpath(resolve(run, last["artifactLocation"])) != os.path.normpath(path)
                 or last["region"]["startLine"] != line):
        errs.append("the last step is not on %s:%d: %r" % (path, line, last))
    return errs


def mutate(kind, log_path, out):
    log = load(log_path)
    first = next((r for r in log["runs"] if r.get("results")), None)
    if kind == "wrong-version":
        log["version"] = "2.0.0"
    elif first is None:
        return ["no result to break"]
    elif kind == "no-ruleid":
        del first["results"][0]["ruleId"]
        first["results"][0].pop("ruleIndex", None)
    elif kind == "line-zero":
        first["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    elif kind == "bad-ruleindex":
        res = first["results"][0]
        res["ruleIndex"] = (res["ruleIndex"] + 1) % len(first["tool"]["driver"]["rules"])
    elif kind.startswith("drop="):
        f, _, ln = kind[5:].rpartition(":")
        n = 0
        for run in log["runs"]:
            keep = []
            for res in run.get("results") or []:
                pl = res["locations"][0]["physicalLocation"]
                if resolve(run, pl["artifactLocation"]) == os.path.normpath(f) and pl["region"]["startLine"] == int(ln):
                    n += 1
                else:
                    keep.append(res)
            run["results"] = keep
        if not n:
            return ["no result at %s to drop" % kind[5:]]
    else:
        return ["unknown mutation %s" % kind]
    with open(out, "w") as fh:
        json.dump(log, fh, indent=1)
    return []


def comma_list(value):
    """A,B,C -> [A, B, C]"""
    return value.split(",")


def parser():
    ap = argparse.ArgumentParser(prog="check_sarif.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="CHECK")
    log = dict(metavar="LOG", help="the SARIF file (make lint FORMAT=sarif)")

    p = sub.add_parser("same", help="the SARIF holds exactly the text output's findings")
    p.add_argument("log", **log)
    p.add_argument("text", metavar="TEXT", help="irqlint's text output over the same files")

    p = sub.add_parser("runs", help="one run per tool, in order, each with results and "
                                    "successful invocations")
    p.add_argument("log", **log)
    p.add_argument("tools", metavar="TOOL,...", type=comma_list,
                   help="the tools' names in run order, comma-separated")
    p.add_argument("--empty", action="store_true", help="no run may hold a result")

    p = sub.add_parser("covered", help="TOOL's run analysed each FILE, every invocation "
                                       "succeeded, no RULE result on any of them")
    p.add_argument("log", **log)
    p.add_argument("tool", metavar="TOOL", help="the run's driver name (coccinelle, sparse, ...)")
    p.add_argument("rule", metavar="RULE", help="the rule id, without the tool prefix")
    p.add_argument("paths", metavar="FILE", nargs="+", help="a file the run must have analysed")

    p = sub.add_parser("fix-all", help="every fix for ORIG applied at once gives WANT")
    p.add_argument("log", **log)
    p.add_argument("orig", metavar="ORIG", help="the file the fixes apply to")
    p.add_argument("want", metavar="WANT", help="the expected result (what `make lint-fix` wrote)")

    p = sub.add_parser("fix-each", help="each fix for FILE applied alone -> DIR/fix-N.c")
    p.add_argument("log", **log)
    p.add_argument("path", metavar="FILE", help="the file the fixes apply to")
    p.add_argument("outdir", metavar="DIR", help="where to write fix-N.c")

    p = sub.add_parser("fixed", help="every RULE result on FILE has a fix")
    p.add_argument("log", **log)
    p.add_argument("path", metavar="FILE", help="the file whose results are checked")
    p.add_argument("rule", metavar="RULE", help="TOOL/RULE, e.g. cocci/spin-lock-irq")

    p = sub.add_parser("unfixed", help="no result on FILE has a fix")
    p.add_argument("log", **log)
    p.add_argument("path", metavar="FILE", help="the file whose results are checked")

    p = sub.add_parser("apply", help="the N-th fix of the RULE result on FILE:LINE applied -> OUT")
    p.add_argument("log", **log)
    p.add_argument("path", metavar="FILE", help="the file of the result")
    p.add_argument("line", metavar="LINE", type=int, help="the result's start line")
    p.add_argument("rule", metavar="RULE", help="TOOL/RULE of the result")
    p.add_argument("n", metavar="N", type=int, help="which of its fixes (from 0)")
    p.add_argument("out", metavar="OUT", help="where to write the fixed file")

    p = sub.add_parser("flow", help="the RULE result on FILE:LINE has a codeFlow through FN,...")
    p.add_argument("log", **log)
    p.add_argument("path", metavar="FILE", help="the file of the result")
    p.add_argument("line", metavar="LINE", type=int, help="the result's start line")
    p.add_argument("rule", metavar="RULE", help="TOOL/RULE of the result")
    p.add_argument("fns", metavar="FN,...", type=comma_list,
                   help="the functions of the flow's steps, in order, comma-separated")

    p = sub.add_parser("mutate", help="a broken copy of LOG for the expected failures")
    p.add_argument("kind", metavar="KIND", help="wrong-version, no-ruleid, line-zero, "
                                                "bad-ruleindex, or drop=FILE:LINE")
    p.add_argument("log", **log)
    p.add_argument("out", metavar="OUT", help="where to write the broken copy")
    return ap


def main(argv=None):
    a = parser().parse_args(argv)
    try:
        if a.cmd == "same":
            errs = same(a.log, a.text)
        elif a.cmd == "runs":
            errs = runs(a.log, a.tools, a.empty)
        elif a.cmd == "covered":
            errs = covered(a.log, a.tool, a.rule, a.paths)
        elif a.cmd == "fix-all":
            errs = fix_all(a.log, a.orig, a.want)
        elif a.cmd == "fix-each":
            errs = fix_each(a.log, a.path, a.outdir)
        elif a.cmd == "fixed":
            errs = fixed(a.log, a.path, a.rule, True)
        elif a.cmd == "unfixed":
            errs = fixed(a.log, a.path, None, False)
        elif a.cmd == "apply":
            errs = apply_one(a.log, a.path, a.line, a.rule, a.n, a.out)
        elif a.cmd == "flow":
            errs = flow(a.log, a.path, a.line, a.rule, a.fns)
        else:  # mutate
            errs = mutate(a.kind, a.log, a.out)
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        errs = ["%s: %s" % (type(e).__name__, e)]
    for e in errs:
        print("FAIL: " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""lint_sarif - the findings of `make lint` as SARIF 2.1.0 (`make lint FORMAT=sarif`,
spec/lint.md), and the validator the tests use.

    python3 -m tools.lint_sarif convert -o OUT.sarif DATA.json...
    python3 -m tools.lint_sarif validate [--schema FILE] [--tools sparse,coccinelle,...] LOG.sarif

convert merges the files that `lint/irqlint.py --sarif-data` wrote (one per irqlint call:
`make lint` runs one per build group) into one SARIF log with one run per tool that the
lint ran (sparse, coccinelle, cppcheck, clang-tidy, in that order): the tool's rules, one
invocation per irqlint call (executionSuccessful false, with the reason, when the tool
could not run), the files it analysed (artifacts, role analysisTarget), and one result per
finding: ruleId (the text output's TOOL/RULE is the
run's `properties.textPrefix` / ruleId), level, message, and the location - the path
relative to the checkout (uriBaseId SRCROOT, defined in originalUriBaseIds), or an absolute
file: URI outside it; line, and column counted in Unicode code points (sparse's columns
expand tabs to 8 and the others count bytes: both are converted). Results that have an
automatic fix carry it as `fixes` with artifactChanges/replacements:

  - cocci/spin-lock-irq: the rewrite of the patch mode (`make lint-fix`) that belongs to the
    reported lock/unlock pair - its two calls and the declaration of its irqflagsN. A
    finding the patch does not rewrite (not safe) has no fix.
  - clang-tidy: the fix-its of the diagnostic and of its notes, each note an alternative.

validate checks a log against the SARIF 2.1.0 JSON schema (draft 4, as shipped by the npm
package @microsoft/jest-sarif; `make deps` installs it under build/deps/sarif/), then rules
the schema cannot express. Each problem is one line, tagged with what it breaks:
  schema:   the JSON schema (e.g. a version other than 2.1.0, a line number 0);
  standard: a rule of the SARIF 2.1.0 text (ruleIndex names the rule that ruleId names, a
            uri with a uriBaseId is a relative reference, originalUriBaseIds are absolute
            and end in '/', a region does not end before it starts);
  profile:  what irqlint's logs promise beyond that (every result has a ruleId naming a rule
            of its run, a message text, a location with a line; a run per tool with an
            invocation and a results array, empty when the tool found nothing; a failed
            invocation says why; locations use a uriBaseId defined in the run).
Exit 0 valid, 1 invalid, 2 the check could not run (no schema, no jsonschema module).
"""
import argparse, hashlib, json, os, pathlib, re, shlex, sys, tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
DEFAULT_SCHEMA = os.path.join(ROOT, os.environ.get("BUILD", "build"), "deps", "sarif", "sarif-schema-2.1.0.json")
BASE_ID = "SRCROOT"

# irqlint's tool key -> (SARIF driver name, information URI); the runs come in this order
TOOLS = {
    "sparse": ("sparse", "https://sparse.docs.kernel.org/"),
    "cocci": ("coccinelle", "https://coccinelle.gitlabpages.inria.fr/website/"),
    "cppcheck": ("cppcheck", "https://cppcheck.sourceforge.io/"),
    "clang-tidy": ("clang-tidy", "https://clang.llvm.org/extra/clang-tidy/"),
}
REQ = re.compile(r"\[(REQ-[A-Z]+-\d+)\]")

# sparse's rules as lint/irqlint.py names them
SPARSE_RULES = [
    ("context", "Lock context imbalance",
     "A lock taken and not released on some path (wrong count at exit), an unlock of a lock "
     "not held (unexpected unlock), or paths that join with different lock states. sparse "
     "judges a function as a whole and reports on the line of the function's name.", ["REQ-LOCK-5"]),
    ("type", "A value of the wrong type where the API wants irq_flags_t",
     "sparse's type check (incorrect type, different base types, a cast): typically an "
     "unsigned long or int used as the flags of spin_lock_irqsave/local_irq_save.", ["REQ-FLAGS-1"]),
    ("error", "Any other sparse error", "An error sparse reports that none of the rules above "
     "names (often: the file does not compile).", ["REQ-IMPL-2"]),
    ("warning", "Any other sparse warning", "A warning of sparse -Wsparse-all that none of the "
     "rules above names.", ["REQ-IMPL-2"]),
]


# --------------------------------------------------------------------------- files
class Files:
    """Source text, read once: lines without their line ends, as str and as bytes."""

    def __init__(self):
        self.cache = {}

    def lines(self, path):
        if path not in self.cache:
            try:
                with open(path, "rb") as fh:
                    raw = fh.read()
            except OSError:
                raw = None
            if raw is None:
                self.cache[path] = None
            else:
                blines = raw.split(b"\n")
                self.cache[path] = (raw, blines, [b.decode("utf-8", "replace") for b in blines])
        return self.cache[path]

    def line(self, path, n):
        c = self.lines(path)
        if c is None or not 1 <= n <= len(c[2]):
            return None
        return c[1][n - 1], c[2][n - 1]

    def column(self, path, n, col, unit):
        """A tool's 1-based column on line n -> Unicode code points (1-based).
        unit: "bytes" (clang, cppcheck, coccinelle) or "tab8" (sparse: tabs to 8)."""
        ln = self.line(path, n)
        if ln is None or col < 1:
            return col
        b, s = ln
        if unit == "bytes":
            return len(b[:col - 1].decode("utf-8", "replace")) + 1
        v = 1
        for i, ch in enumerate(s):
            if v >= col:
                return i + 1
            v = (v - 1) // 8 * 8 + 9 if ch == "\t" else v + 1
        return len(s) + 1

    def offset_region(self, path, offset, length):
        """A byte range (clang's fix-its) -> a SARIF text region in code points."""
        c = self.lines(path)
        raw = c[0]

        def point(off):
            line = raw.count(b"\n", 0, off) + 1
            start = raw.rfind(b"\n", 0, off) + 1
            return line, len(raw[start:off].decode("utf-8", "replace")) + 1
        sl, sc = point(offset)
        el, ec = point(offset + length)
        return {"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec}


def artifact(path):
    """The artifactLocation of an absolute path: relative to the checkout when inside it."""
    rel = os.path.relpath(path, ROOT)
    if not rel.startswith(".." + os.sep) and rel != ".." and not os.path.isabs(rel):
        return {"uri": urllib.parse.quote(rel.replace(os.sep, "/")), "uriBaseId": BASE_ID}
    return {"uri": pathlib.Path(path).as_uri()}


# --------------------------------------------------------------------------- rules
def cocci_rules():
    """The rules of lint/cocci/*.cocci, described by their /// header."""
    d = os.path.join(ROOT, "lint", "cocci")
    out = []
    for name in sorted(os.listdir(d)):
        if not name.endswith(".cocci"):
            continue
        rid = name[:-len(".cocci")]
        doc = [l[3:].strip() for l in open(os.path.join(d, name), errors="replace") if l.startswith("///")]
        paras, cur = [], []
        for l in doc + [""]:
            if l:
                cur.append(l)
            elif cur:
                paras.append(" ".join(cur))
                cur = []
        reqs = sorted(set(REQ.findall(" ".join(paras))))
        short = REQ.sub("", paras[0] if paras else rid).strip()
        if short.startswith(rid + ":"):
            short = short[len(rid) + 1:].strip()
        full = " ".join([short] + paras[1:]) if paras else short
        fix = "spin-lock-irq" == rid
        out.append((rid, short, full + (" make lint-fix applies the fix." if fix else ""), reqs))
    return out


def descriptor(rid, short, full, reqs, tool):
    d = {"id": rid, "shortDescription": {"text": short}, "fullDescription": {"text": full},
         "defaultConfiguration": {"level": "warning"},
         "help": {"text": "See spec/lint.md, section 'The rules', in the irqsync checkout."},
         "properties": {"requirements": reqs, "tags": ["irqsync", tool]}}
    return d


# --------------------------------------------------------------------------- fixes
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
DECL = re.compile(r"^\s*irq_flags_t\s+irqflags\d+\s*;\s*$")
FLAGSVAR = re.compile(r"\birqflags\d+\b")


def diff_units(diff, cwd, path):
    """A unified diff (spatch -D patch) -> its changes to `path`, each (first original line,
    number of original lines replaced, new lines, order), cut as small as the patch allows:
    one per rewritten call and one per inserted irq_flags_t declaration."""
    blocks, lines, i, mine = [], diff.splitlines(), 0, False
    while i < len(lines):
        if lines[i].startswith("--- "):
            name = lines[i][4:].split("\t")[0].strip()
            mine = os.path.normpath(os.path.join(cwd, name)) == path
        m = HUNK.match(lines[i])
        i += 1
        if not m:
            continue
        if not mine:
            continue
        old, nold = int(m.group(1)), int(m.group(2) or 1)
        nnew = int(m.group(4) or 1)
        if nold == 0:
            old += 1                  # "-N,0": the lines go after line N
        cur = None
        while (nold > 0 or nnew > 0) and i < len(lines):
            tag, text = lines[i][:1], lines[i][1:]
            i += 1
            if tag == "\\":
                continue
            if tag in (" ", ""):
                cur = None
                old, nold, nnew = old + 1, nold - 1, nnew - 1
                continue
            if cur is None:
                cur = [old, [], []]
                blocks.append(cur)
            if tag == "-":
                cur[1].append(text)
                old, nold = old + 1, nold - 1
            elif tag == "+":
                cur[2].append(text)
                nnew -= 1
    units = []
    for start, dels, adds in blocks:
        decls = [a for a in adds if DECL.match(a)]
        rest = [a for a in adds if not DECL.match(a)]
        if adds[:len(decls)] == decls and len(rest) == len(dels):
            units += [(start, 0, [d]) for d in decls]
            units += [(start + k, 1, [r]) for k, r in enumerate(rest)]
        else:
            units.append((start, len(dels), adds))
    return [u + (n,) for n, u in enumerate(units)]


def unit_replacement(files, path, unit):
    start, ndel, new, _ = unit
    c = files.lines(path)
    nlines = len(c[2]) - (1 if c[2] and c[2][-1] == "" else 0)
    if ndel:
        last = c[2][start + ndel - 2]
        region = {"startLine": start, "startColumn": 1, "endLine": start + ndel - 1, "endColumn": len(last) + 1}
        text = "\n".join(new)
    elif start <= nlines:
        region = {"startLine": start, "startColumn": 1, "endLine": start, "endColumn": 1}
        text = "\n".join(new) + "\n"
    else:
        end = len(c[2][nlines - 1]) + 1
        region = {"startLine": nlines, "startColumn": end, "endLine": nlines, "endColumn": end}
        text = "\n" + "\n".join(new)
    r = {"deletedRegion": region}
    if text:
        r["insertedContent"] = {"text": text}
    return r


def cocci_fix(files, path, units, line):
    """The fix of a cocci/spin-lock-irq finding on `line`: the changes of the patch that
    name the same irqflagsN as the change that rewrites that line (None: not rewritten)."""
    hit = [u for u in units if u[1] and u[0] <= line < u[0] + u[1]]
    if not hit:
        return None
    names = set(FLAGSVAR.findall("\n".join(hit[0][2])))
    mine = [u for u in units if names & set(FLAGSVAR.findall("\n".join(u[2])))] if names else hit
    var = ", ".join(sorted(names)) or "a new irq_flags_t"
    return {"description": {"text": "Rewrite this spin_lock_irq/spin_unlock_irq pair to "
                                    "spin_lock_irqsave/spin_unlock_irqrestore with %s, declared at the top "
                                    "of the function (the patch mode of lint/cocci/spin-lock-irq.cocci; "
                                    "make lint-fix applies it to the whole file)." % var},
            "artifactChanges": [{"artifactLocation": artifact(path),
                                 "replacements": [unit_replacement(files, path, u)
                                                  for u in sorted(mine, key=lambda u: u[3])]}]}


def tidy_fixes(files, cwd, rec):
    out = []
    for alt in rec["fixes"]:
        changes = {}
        for r in alt["replacements"]:
            p = os.path.normpath(os.path.join(cwd, r["file"]))
            if files.lines(p) is None:
                break
            rep = {"deletedRegion": files.offset_region(p, r["offset"], r["length"])}
            if r["text"]:
                rep["insertedContent"] = {"text": r["text"]}
            changes.setdefault(p, []).append(rep)
        else:
            out.append({"description": {"text": alt["description"] or "clang-tidy fix-it"},
                        "artifactChanges": [{"artifactLocation": artifact(p), "replacements": reps}
                                            for p, reps in changes.items()]})
    return out


# --------------------------------------------------------------------------- convert
def code_flow(files, cwd, chain):
    """The call chain of a finding made through calls (lint/callgraph.py): from the
    handler or the interrupts-off call down to the reported site, one location a step
    (col: spatch's 0-based byte column of the call, 0 for a function's definition)."""
    locs = []
    for step in chain:
        p = os.path.normpath(os.path.join(cwd, step["file"]))
        region = {"startLine": step["line"]}
        if step.get("col"):
            region["startColumn"] = files.column(p, step["line"], step["col"] + 1, "bytes")
        locs.append({"location": {"physicalLocation": {"artifactLocation": artifact(p), "region": region},
                                  "message": {"text": step["what"]}}})
    return {"message": {"text": " -> ".join("%s()" % s["fn"] for s in chain)},
            "threadFlows": [{"locations": locs}]}

def convert(data_files, out):
    files = Files()
    tools, runs = [], {}
    seen = set()
    for df in data_files:
        with open(df) as fh:
            data = json.load(fh)
        if data.get("format") != "irqlint-sarif-data/1":
            raise ValueError("%s: not written by lint/irqlint.py --sarif-data" % df)
        cwd = data["cwd"]
        group = os.path.splitext(os.path.basename(df))[0]
        for t, info in data["tools"].items():
            if t not in TOOLS:
                raise ValueError("%s: unknown tool %r" % (df, t))
            if t not in runs:
                runs[t] = {"version": None, "invocations": [], "results": [], "files": set()}
                tools.append(t)
            r = runs[t]
            r["version"] = r["version"] or info.get("version")
            fails = [x["text"] for x in data["failures"] if x["tool"] == t]
            if not info.get("installed"):
                fails = fails or ["%s is not installed (make deps)" % TOOLS[t][0]]
            inv = {"executionSuccessful": not fails,
                   "commandLine": " ".join(shlex.quote(a) for a in data["command"]),
                   "workingDirectory": {"uri": pathlib.Path(cwd).as_uri() + "/"},
                   "properties": {"group": group, "files": len(data["files"])}}
            notes = [{"level": "error", "message": {"text": x}} for x in fails]
            notes += [{"level": "warning", "message": {"text": x["text"]}} for x in data.get("notes", [])
                      if x["tool"] == t]
            if notes:
                inv["toolExecutionNotifications"] = notes
            r["invocations"].append(inv)
            r["files"].update(os.path.normpath(os.path.join(cwd, f)) for f in data["files"])
        patches = {}
        for f, d in data.get("cocci_patches", {}).items():
            p = os.path.normpath(os.path.join(cwd, f))
            if files.lines(p) is not None:
                patches[p] = diff_units(d, cwd, p)
        tfix = {}
        for rec in data.get("tidy_fixes", []):
            p = os.path.normpath(os.path.join(cwd, rec["file"]))
            tfix.setdefault((p, rec["line"], rec["col"]), []).append(rec)
        for f in data["findings"]:
            tool, _, rid = f["rule"].partition("/")
            if tool not in runs:
                raise ValueError("%s: a finding of %s, a tool that did not run" % (df, tool))
            path = os.path.normpath(os.path.join(cwd, f["file"]))
            key = (tool, rid, path, f["line"], f["col"], f["message"])
            if key in seen:
                continue              # the same finding in another build group
            seen.add(key)
            msg, level = f["message"], f.get("level", "warning")
            if tool == "cppcheck":    # "SEVERITY: text" in the text output
                msg = msg.split(": ", 1)[1] if ": " in msg else msg
            region = {"startLine": f["line"]}
            if f["col"]:
                region["startColumn"] = files.column(path, f["line"], f["col"], "tab8" if tool == "sparse" else "bytes")
            res = {"ruleId": rid, "level": level, "message": {"text": msg},
                   "locations": [{"physicalLocation": {"artifactLocation": artifact(path), "region": region}}]}
            if f.get("chain"):
                res["codeFlows"] = [code_flow(files, cwd, f["chain"])]
            fixes = []
            if f["rule"] == "cocci/spin-lock-irq" and path in patches:
                fx = cocci_fix(files, path, patches[path], f["line"])
                fixes += [fx] if fx else []
            if tool == "clang-tidy":
                for rec in tfix.get((path, f["line"], f["col"]), []):
                    if rec["rule"] == f["rule"] or rec["message"] == f["message"]:
                        fixes += tidy_fixes(files, cwd, rec)
                        break
            if fixes:
                res["fixes"] = fixes
            runs[tool]["results"].append(res)
    if not runs:
        raise ValueError("no tool ran: nothing to write")
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": []}
    for t in sorted(tools, key=list(TOOLS).index):
        r = runs[t]
        if t == "sparse":
            rules = [descriptor(rid, s, fl, reqs, "sparse") for rid, s, fl, reqs in SPARSE_RULES]
        elif t == "cocci":
            rules = [descriptor(rid, s, fl, reqs, "coccinelle") for rid, s, fl, reqs in cocci_rules()]
        else:
            rules = []
        known = {d["id"] for d in rules}
        for rid in sorted({x["ruleId"] for x in r["results"]} - known):
            what = "cppcheck's check %s, with lint/cppcheck/irqsync.cfg" if t == "cppcheck" else \
                   "clang-tidy's check %s, configured by lint/clang-tidy.yaml"
            rules.append(descriptor(rid, what % rid, (what % rid) + ".", ["REQ-IMPL-2"], TOOLS[t][0]))
        index = {d["id"]: i for i, d in enumerate(rules)}
        for x in r["results"]:
            x["ruleIndex"] = index[x["ruleId"]]
        results = sorted(r["results"], key=lambda x: (
            x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            x["locations"][0]["physicalLocation"]["region"]["startLine"],
            x["locations"][0]["physicalLocation"]["region"].get("startColumn", 0), x["ruleId"]))
        driver = {"name": TOOLS[t][0], "informationUri": TOOLS[t][1], "rules": rules}
        if r["version"]:
            driver["version"] = r["version"]
        log["runs"].append({
            "tool": {"driver": driver},
            "invocations": r["invocations"],
            "artifacts": [{"location": artifact(f), "roles": ["analysisTarget"]} for f in sorted(r["files"])],
            "originalUriBaseIds": {BASE_ID: {"uri": pathlib.Path(ROOT).as_uri() + "/",
                                             "description": {"text": "The irqsync checkout that ran the lint."}}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"textPrefix": t},
        })
    d = os.path.dirname(os.path.abspath(out))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(log, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.replace(tmp, out)
    nres = sum(len(r["results"]) for r in log["runs"])
    nfix = sum(1 for r in log["runs"] for x in r["results"] if x.get("fixes"))
    print("lint-sarif: wrote %s: %d run(s) (%s), %d result(s), %d with a fix" % (
        out, len(log["runs"]), ",".join(r["tool"]["driver"]["name"] for r in log["runs"]), nres, nfix),
        file=sys.stderr)


# --------------------------------------------------------------------------- validate
def region_problems(reg, where):
    out = []
    sl, el = reg.get("startLine"), reg.get("endLine")
    sc, ec = reg.get("startColumn"), reg.get("endColumn")
    if sl is None and "charOffset" not in reg and "byteOffset" not in reg:
        out.append("standard: %s: a region needs startLine, charOffset or byteOffset" % where)
    if el is not None and sl is not None and el < sl:
        out.append("standard: %s: endLine %d before startLine %d" % (where, el, sl))
    if sc is not None and ec is not None and (el is None or el == sl) and ec < sc:
        out.append("standard: %s: endColumn %d before startColumn %d on one line" % (where, ec, sc))
    if (sc is not None or ec is not None or el is not None) and sl is None:
        out.append("profile: %s: columns or endLine without startLine" % where)
    return out


def location_problems(al, bases, where):
    out = []
    uri = al.get("uri")
    if not uri:
        return ["profile: %s: artifactLocation without uri" % where]
    scheme = urllib.parse.urlsplit(uri).scheme
    if "uriBaseId" in al:
        if scheme or uri.startswith("/"):
            out.append("standard: %s: uri %r has a uriBaseId but is not a relative reference" % (where, uri))
        if al["uriBaseId"] not in bases:
            out.append("profile: %s: uriBaseId %r is not defined in run.originalUriBaseIds" % (where, al["uriBaseId"]))
    elif not scheme:
        out.append("profile: %s: relative uri %r without uriBaseId" % (where, uri))
    return out


def profile_problems(log, tools):
    """The rules of the standard the schema does not express, and irqlint's profile."""
    p = []
    runs = log.get("runs") if isinstance(log, dict) else None
    if not isinstance(runs, list):
        return ["profile: /runs: missing"]
    names = [((r.get("tool") or {}).get("driver") or {}).get("name") for r in runs]
    if tools is not None and names != tools:
        p.append("profile: /runs: the runs are %s, want one per tool: %s" % (names, tools))
    if len(set(names)) != len(names):
        p.append("profile: /runs: more than one run of a tool: %s" % names)
    for i, run in enumerate(runs):
        w = "/runs/%d" % i
        driver = (run.get("tool") or {}).get("driver") or {}
        rules = driver.get("rules") or []
        ids = [r.get("id") for r in rules]
        if len(set(ids)) != len(ids):
            p.append("profile: %s/tool/driver/rules: duplicate rule ids" % w)
        bases = run.get("originalUriBaseIds") or {}
        for k, v in bases.items():
            u = v.get("uri", "")
            if not urllib.parse.urlsplit(u).scheme or not u.endswith("/"):
                p.append("standard: %s/originalUriBaseIds/%s: uri %r is not an absolute URI ending in '/'" % (w, k, u))
        if run.get("columnKind") is None:
            p.append("profile: %s: no columnKind (the columns' unit)" % w)
        for j, art in enumerate(run.get("artifacts") or []):
            p += location_problems(art.get("location") or {}, bases, "%s/artifacts/%d/location" % (w, j))
        invs = run.get("invocations")
        if not invs:
            p.append("profile: %s: no invocation: whether the tool ran is not stated" % w)
        for j, inv in enumerate(invs or []):
            if inv.get("executionSuccessful") is False and not any(
                    n.get("level") == "error" for n in inv.get("toolExecutionNotifications") or []):
                p.append("profile: %s/invocations/%d: failed without an error notification saying why" % (w, j))
        results = run.get("results")
        if not isinstance(results, list):
            p.append("profile: %s: no results array (a tool that found nothing has an empty one)" % w)
            continue
        for k, res in enumerate(results):
            rw = "%s/results/%d" % (w, k)
            rid = res.get("ruleId")
            if not rid:
                p.append("profile: %s: result without ruleId" % rw)
            elif rid not in ids:
                p.append("profile: %s: ruleId %r is not a rule of %s" % (rw, rid, driver.get("name")))
            if "ruleIndex" in res:
                ri = res["ruleIndex"]
                if not 0 <= ri < len(rules):
                    p.append("standard: %s: ruleIndex %d outside tool.driver.rules" % (rw, ri))
                elif rid and rules[ri].get("id") != rid:
                    p.append("standard: %s: ruleIndex %d names rule %r, ruleId says %r" % (rw, ri, rules[ri].get("id"), rid))
            if not (res.get("message") or {}).get("text"):
                p.append("profile: %s: result without a message text" % rw)
            locs = res.get("locations") or []
            if not locs:
                p.append("profile: %s: result without a location" % rw)
            for m, loc in enumerate(locs):
                pl = loc.get("physicalLocation") or {}
                lw = "%s/locations/%d/physicalLocation" % (rw, m)
                p += location_problems(pl.get("artifactLocation") or {}, bases, lw + "/artifactLocation")
                if "region" not in pl:
                    p.append("profile: %s: no region (line)" % lw)
                else:
                    p += region_problems(pl["region"], lw + "/region")
            for m, fix in enumerate(res.get("fixes") or []):
                fw = "%s/fixes/%d" % (rw, m)
                if not (fix.get("description") or {}).get("text"):
                    p.append("profile: %s: fix without a description" % fw)
                for n, ch in enumerate(fix.get("artifactChanges") or []):
                    cw = "%s/artifactChanges/%d" % (fw, n)
                    p += location_problems(ch.get("artifactLocation") or {}, bases, cw + "/artifactLocation")
                    if not ch.get("replacements"):
                        p.append("profile: %s: no replacement" % cw)
                    for q, rep in enumerate(ch.get("replacements") or []):
                        p += region_problems(rep.get("deletedRegion") or {}, "%s/replacements/%d/deletedRegion" % (cw, q))
    return p


def validate(path, schema_path, tools):
    try:
        import jsonschema
    except ImportError:
        # python3-jsonschema is a Debian package: use Debian's interpreter if ours lacks it
        alt = "/usr/bin/python3"
        if os.path.exists(alt) and os.path.realpath(sys.executable) != os.path.realpath(alt) \
                and not os.environ.get("LINT_SARIF_REEXEC"):
            os.environ["LINT_SARIF_REEXEC"] = "1"
            os.execv(alt, [alt, os.path.abspath(__file__)] + sys.argv[1:])
        print("lint-sarif: cannot validate: the jsonschema module is missing (python3-jsonschema; make deps)")
        return 2
    if not os.path.isfile(schema_path):
        print("lint-sarif: cannot validate: no schema at %s (make deps installs it)" % schema_path)
        return 2
    with open(schema_path, "rb") as fh:
        raw = fh.read()
    schema = json.loads(raw)
    try:
        with open(path) as fh:
            log = json.load(fh)
    except (OSError, ValueError) as e:
        print("%s: not a JSON file: %s" % (path, e))
        return 1
    problems = []
    v = jsonschema.Draft4Validator(schema)
    for e in sorted(v.iter_errors(log), key=lambda e: [str(x) for x in e.absolute_path]):
        problems.append("schema: /%s: %s" % ("/".join(str(x) for x in e.absolute_path), e.message))
    problems += profile_problems(log, tools)
    for x in problems:
        print("%s: %s" % (path, x))
    runs = log.get("runs") or [] if isinstance(log, dict) else []
    print("%s: %s against %s (%s, sha256 %s) and the SARIF rules of tools/lint_sarif.py: %d run(s), %d result(s), %d problem(s)" % (
        path, "INVALID" if problems else "valid", os.path.relpath(schema_path), schema.get("title", "?"),
        hashlib.sha256(raw).hexdigest()[:16], len(runs),
        sum(len(r.get("results") or []) for r in runs if isinstance(r, dict)), len(problems)))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert", help="irqlint --sarif-data files -> one SARIF log")
    c.add_argument("-o", "--output", required=True)
    c.add_argument("data", nargs="+")
    v = sub.add_parser("validate", help="check a SARIF log (schema + rules)")
    v.add_argument("--schema", default=DEFAULT_SCHEMA)
    v.add_argument("--tools", help="the runs wanted, in order: e.g. sparse,coccinelle,cppcheck,clang-tidy")
    v.add_argument("log")
    a = ap.parse_args()
    if a.cmd == "convert":
        try:
            convert(a.data, a.output)
        except (OSError, ValueError, KeyError) as e:
            print("lint-sarif: cannot convert: %s" % e, file=sys.stderr)
            return 2
        return 0
    return validate(a.log, a.schema, a.tools.split(",") if a.tools else None)


if __name__ == "__main__":
    sys.exit(main())

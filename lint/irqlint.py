#!/usr/bin/env python3
"""irqlint - run sparse, coccinelle, cppcheck and clang-tidy over C files and print
every finding in one format (REQ-IMPL-2, REQ-LOCK-4, REQ-LOCK-5, REQ-FLAGS-1,
REQ-FLAGS-2, REQ-HANDLER-1, REQ-ERR-4):

    FILE:LINE:COL: TOOL/RULE: MESSAGE

TOOL/RULE is e.g. sparse/context, cocci/spin-lock-irq, cppcheck/ignoredReturnValue,
clang-tidy/bugprone-branch-clone.  `make lint` and `make lint SRC="..."` call this;
tests/suites/60-lint.sh parses its output.  The coccinelle rules are the files
lint/cocci/NAME.cocci, each run on every file and printing cocci/NAME (among them
cocci/threaded-request: the threaded requests the core refuses, REQ-THREAD-2 (spec/threaded.md).

Exit status: 0 no finding, 1 findings, 2 a tool could not run (missing, crashed).

    irqlint.py [--tools sparse,cocci,cppcheck,clang-tidy] [--cflags "-I... -D..."]
               [--tool-flags TOOL="FLAGS"]... [--fix] FILE...

--tool-flags adds options for one tool only, e.g. a cross target:
    --tool-flags clang-tidy="--target=arm-none-eabi -mcpu=cortex-m3"
    --tool-flags sparse="--arch=arm -D__ARM_ARCH_7M__"

--fix applies the patch mode of lint/cocci/spin-lock-irq.cocci to the files in place
(spin_lock_irq -> spin_lock_irqsave where that is safe), prints the diff, then lints.

--sarif-data FILE also writes what tools/lint_sarif.py needs for SARIF (make lint
FORMAT=sarif): each finding with its level, the tools run (version, failures), the
patch mode's diff of each file with a cocci/spin-lock-irq finding and clang-tidy's
fix-its (--export-fixes) and the call chain of each finding made through calls
(lint/callgraph.py; a codeFlow in the SARIF).  The text output and the exit status
do not change.

The spin-lock-irq and self-wait rules follow direct calls across all the FILEs of
one run (lint/callgraph.cocci + lint/callgraph.py); IRQLINT_FOLLOW_CALLS=0 turns
that off (the baseline of make lint-bench).
"""
import argparse, json, os, re, shlex, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

LINT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, LINT)
import callgraph                    # the rules that follow calls (lint/callgraph.py)
ROOT = os.path.dirname(LINT)
TOOLS = ("sparse", "cocci", "cppcheck", "clang-tidy")

def run(cmd, stderr=subprocess.STDOUT):
    """Run cmd, return (rc, stdout+stderr).  A missing tool is a tool failure.
    stderr=subprocess.PIPE: stdout alone (a diff to parse), stderr only on a failure."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=stderr,
                           universal_newlines=True, errors="replace")
    except OSError as e:
        return 127, "%s: %s" % (cmd[0], e)
    if p.returncode != 0 and p.stderr:
        return p.returncode, p.stdout + p.stderr   # stderr=PIPE: the reason of a failure
    return p.returncode, p.stdout

def run_all(cmds, stderr=subprocess.STDOUT):
    """Run independent commands JOBS at a time (default 2); results in order."""
    jobs = max(1, int(os.environ.get("JOBS", "2") or 2))
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return list(ex.map(lambda c: run(c, stderr), cmds))

def norm(f):
    """One spelling per file, whatever the tool printed: relative to the current
    directory when the file is under it."""
    f = os.path.normpath(f)
    if os.path.isabs(f) and f.startswith(os.getcwd() + os.sep):
        f = os.path.relpath(f)
    return f

# SARIF levels (make lint FORMAT=sarif): cppcheck's severities, the rest say warning or error
LEVEL = {"error": "error", "warning": "warning", "style": "note", "performance": "note",
         "portability": "note", "information": "note"}

class Lint:
    def __init__(self, cflags, extra, sarif=False):
        self.cflags = cflags            # -I/-D/-U/-std options shared by every tool
        self.extra = extra              # tool -> options for that tool only
        self.findings = []              # (file, line, col, rule, message)
        self.failures = []              # tool could not run
        # for --sarif-data only
        self.sarif = sarif
        self.levels = {}                # (file, line, col, rule) -> error|warning|note
        self.tool_failures = []         # (tool, text): self.failures by tool
        self.cocci_patches = {}         # file -> unified diff of spin-lock-irq's patch mode
        self.tidy_fixes = []            # clang-tidy fix-its, by diagnostic
        self.notes = []                 # (tool, text): something the SARIF should say
        self.chains = {}                # (file, line, col, rule) -> call chain (lint/callgraph.py)

    def add(self, f, line, col, rule, msg, level="warning"):
        f = norm(f)
        self.findings.append((f, int(line), int(col or 0), rule, msg.strip()))
        self.levels[(f, int(line), int(col or 0), rule)] = level

    def fail(self, tool, f, rc, out):
        tail = " | ".join(out.strip().splitlines()[-3:])
        self.failures.append("%s on %s: exit %d: %s" % (tool, f, rc, tail))
        key = tool.split()[0]
        self.tool_failures.append(({"spatch": "cocci"}.get(key, key), self.failures[-1]))

    # --- sparse: the lock-context and type annotations of the headers
    SPARSE_RE = re.compile(r"^(.*?):(\d+):(\d+): (warning|error): (.*)$")

    def sparse(self, files):
        # every sparse warning, except C99 mixed declarations (C11 code may use
        # them) and GCC attributes sparse does not know (system headers)
        cmds = [["sparse", "-Wsparse-all", "-Wno-declaration-after-statement", "-Wno-unknown-attribute"]
                + self.cflags + self.extra.get("sparse", []) + [f] for f in files]
        for f, (rc, out) in zip(files, run_all(cmds)):
            for line in out.splitlines():
                m = self.SPARSE_RE.match(line)
                if not m:
                    continue
                path, ln, col, kind, msg = m.groups()
                if path.startswith("/usr/"):
                    continue        # the C library's headers are not ours to lint
                if msg.startswith("context imbalance") or "context" in msg and "different lock" in msg:
                    rule = "sparse/context"
                elif "incorrect type" in msg or "different base types" in msg or "cast " in msg:
                    rule = "sparse/type"
                else:
                    rule = "sparse/" + kind
                self.add(path, ln, col, rule, msg, kind)
            if rc not in (0, 1) or (rc == 1 and not out.strip()):
                self.fail("sparse", f, rc, out)

    # --- coccinelle: the irqsync rules of lint/cocci/*.cocci
    COCCI_RE = re.compile(r"^(.*?):(\d+):(\d+): (cocci/[a-z0-9-]+): (.*)$")

    def cocci_rules(self):
        d = os.path.join(LINT, "cocci")
        return sorted(os.path.join(d, r) for r in os.listdir(d) if r.endswith(".cocci"))

    def cocci_args(self):
        # coccinelle reads the headers given with -I for types (struct members, typedefs)
        inc = [a for a in self.cflags if a.startswith("-I")]
        return ["--very-quiet", "--no-show-diff", "--timeout", "120", "--include-headers-for-types",
                "--local-includes", "--macro-file-builtins", "/usr/lib/coccinelle/standard.h"] + \
               [x for a in inc for x in ("-I", a[2:])]

    def cocci(self, files):
        pairs = [(rule, f) for rule in self.cocci_rules() for f in files]
        cmds = [["spatch", "-D", "report", "--sp-file", rule] + self.cocci_args()
                + self.extra.get("cocci", []) + [f] for rule, f in pairs]
        for (rule, f), (rc, out) in zip(pairs, run_all(cmds)):
            for line in out.splitlines():
                m = self.COCCI_RE.match(line)
                if m:
                    self.add(*m.groups())
            if rc != 0:
                self.fail("spatch " + os.path.basename(rule), f, rc, out)
        self.follow_calls(files)
        if self.sarif:
            self.cocci_patch_diffs(files)

    def call_facts(self, files):
        """lint/callgraph.cocci over each file: the facts of lint/callgraph.py."""
        rule = os.path.join(LINT, "callgraph.cocci")
        cmds = [["spatch", "--sp-file", rule] + self.cocci_args() + self.extra.get("cocci", []) + [f]
                for f in files]
        outs = []
        for f, (rc, out) in zip(files, run_all(cmds, stderr=subprocess.PIPE)):
            if rc != 0:
                self.fail("spatch callgraph.cocci", f, rc, out)
            else:
                outs.append(out)
        return callgraph.findings(callgraph.read_facts(outs))

    def follow_calls(self, files):
        """cocci/spin-lock-irq and cocci/self-wait through calls across the files: a
        finding the one-function rules already made at that line is not repeated."""
        if os.environ.get("IRQLINT_FOLLOW_CALLS", "1") == "0":
            return                  # the one-function rules alone (make lint-bench's baseline)
        have = {(norm(x[0]), x[1], x[3]) for x in self.findings}
        for f, ln, col, rule, msg, chain in self.call_facts(files):
            if (norm(f), ln, rule) in have:
                continue
            have.add((norm(f), ln, rule))
            self.add(f, ln, col, rule, msg)
            self.chains[(norm(f), ln, col, rule)] = [dict(s, file=norm(s["file"])) for s in chain]

    def flagged_env(self, files):
        """IRQLINT_FLAGGED for the patch mode of spin-lock-irq.cocci: the spin_lock_irq /
        spin_unlock_irq sites found through calls, so that their pairs are rewritten too
        (local_irq_enable has no automatic fix)."""
        sites = [[f, str(ln), str(col - 1)] for f, ln, col, rule, msg, ch in self.call_facts(files)
                 if rule == "cocci/spin-lock-irq" and not msg.startswith("local_irq_enable")]
        fd, path = tempfile.mkstemp(prefix="irqlint-flagged-", suffix=".json")
        with os.fdopen(fd, "w") as fh:
            json.dump(sites, fh)
        os.environ["IRQLINT_FLAGGED"] = path
        return path

    def cocci_patch_diffs(self, files):
        """For SARIF fixes: the diff the patch mode of spin-lock-irq.cocci would apply
        (not applied) to each file with a cocci/spin-lock-irq finding."""
        hit = {x[0] for x in self.findings if x[3] == "cocci/spin-lock-irq"}
        todo = [f for f in files if norm(f) in hit]
        flagged = self.flagged_env(files) if todo else None
        rule = os.path.join(LINT, "cocci", "spin-lock-irq.cocci")
        args = [a for a in self.cocci_args() if a != "--no-show-diff"]
        cmds = [["spatch", "-D", "patch", "--sp-file", rule] + args + self.extra.get("cocci", []) + [f]
                for f in todo]
        for f, (rc, out) in zip(todo, run_all(cmds, stderr=subprocess.PIPE)):
            if rc != 0:
                self.fail("spatch -D patch", f, rc, out)
            else:
                self.cocci_patches[norm(f)] = out
        if flagged:
            os.unlink(flagged)
            del os.environ["IRQLINT_FLAGGED"]

    def fix(self, files):
        """Patch mode of spin-lock-irq.cocci, in place; prints the diff.  The pairs found
        through calls (lint/callgraph.py, over all the files) are rewritten too."""
        rule = os.path.join(LINT, "cocci", "spin-lock-irq.cocci")
        args = [a for a in self.cocci_args() if a != "--no-show-diff"]
        flagged = self.flagged_env(files)
        for f in files:
            rc, out = run(["spatch", "-D", "patch", "--in-place", "--sp-file", rule] + args + [f])
            sys.stdout.write(out)
            if rc != 0:
                self.fail("spatch --in-place", f, rc, out)
        os.unlink(flagged)
        del os.environ["IRQLINT_FLAGGED"]

    # --- cppcheck with the irqsync library description and suppressions
    CPPCHECK_RE = re.compile(r"^(.*?):(\d+):(\d+): (cppcheck/[A-Za-z0-9_]+): (.*)$")

    def cppcheck(self, files):
        cfg = os.path.join(LINT, "cppcheck")
        cmd = ["cppcheck", "--quiet", "--enable=warning,style,performance,portability",
               "--inconclusive", "--std=c11", "--inline-suppr",
               "--library=" + os.path.join(cfg, "irqsync.cfg"),
               "--suppressions-list=" + os.path.join(cfg, "suppressions.txt"),
               "--error-exitcode=0",
               "--template={file}:{line}:{column}: cppcheck/{id}: {severity}: {message}"]
        cmd += [a for a in self.cflags if a[:2] in ("-I", "-D", "-U")] + self.extra.get("cppcheck", [])
        rc, out = run(cmd + list(files))
        for line in out.splitlines():
            m = self.CPPCHECK_RE.match(line)
            if m:
                sev = m.group(5).split(":", 1)[0]
                self.add(*m.groups(), level=LEVEL.get(sev, "warning"))
        if rc != 0:
            self.fail("cppcheck", " ".join(files), rc, out)

    # --- clang-tidy with lint/clang-tidy.yaml
    TIDY_RE = re.compile(r"^(.*?):(\d+):(\d+): (warning|error): (.*) \[([A-Za-z0-9_.,-]+)\]$")

    def clang_tidy(self, files):
        conf = os.path.join(LINT, "clang-tidy.yaml")
        tmp = tempfile.mkdtemp(prefix="irqlint-fixes-") if self.sarif else None
        fixes = [os.path.join(tmp, "%d.yaml" % i) for i in range(len(files))] if tmp else []
        cmds = [["clang-tidy", "--quiet", "--config-file=" + conf]
                + (["--export-fixes=" + fixes[i]] if tmp else [])
                + [f, "--"] + self.cflags + self.extra.get("clang-tidy", []) for i, f in enumerate(files)]
        for f, (rc, out) in zip(files, run_all(cmds)):
            n0 = len(self.findings)
            for line in out.splitlines():
                m = self.TIDY_RE.match(line)
                if m:
                    path, ln, col, kind, msg, check = m.groups()
                    self.add(path, ln, col, "clang-tidy/" + check.split(",")[0], msg, kind)
            # clang-tidy exits 1 on a compile error it has already reported as a finding
            if rc != 0 and len(self.findings) == n0:
                self.fail("clang-tidy", f, rc, out)
        if tmp:
            for y in fixes:
                self.read_tidy_fixes(y)
            shutil.rmtree(tmp, ignore_errors=True)

    def read_tidy_fixes(self, path):
        """clang-tidy's --export-fixes YAML: the fix-its of each diagnostic, its own and
        its notes' (alternatives, e.g. parentheses or '=='), as byte offsets."""
        if not os.path.isfile(path):
            return
        try:
            import yaml
        except ImportError:
            self.notes.append(("clang-tidy", "fix-its not read: the Python yaml module is missing (make deps)"))
            return
        with open(path, errors="replace") as fh:
            doc = yaml.safe_load(fh) or {}
        def reps(m):
            return [{"file": r["FilePath"], "offset": int(r["Offset"]), "length": int(r["Length"]),
                     "text": r.get("ReplacementText") or ""} for r in m.get("Replacements") or []]
        for d in doc.get("Diagnostics") or []:
            m = d.get("DiagnosticMessage") or {}
            alts = [{"description": x.get("Message", ""), "replacements": reps(x)}
                    for x in [m] + list(d.get("Notes") or []) if reps(x)]
            if alts and m.get("FilePath"):
                ln, col = byte_line_col(m["FilePath"], int(m.get("FileOffset", 0)))
                self.tidy_fixes.append({"file": norm(m["FilePath"]), "line": ln, "col": col,
                                        "rule": "clang-tidy/" + d.get("DiagnosticName", ""),
                                        "message": m.get("Message", ""), "fixes": alts})

def byte_line_col(path, offset):
    """1-based line and byte column of a byte offset, as the compilers print them."""
    with open(path, "rb") as fh:
        data = fh.read()
    return data.count(b"\n", 0, offset) + 1, offset - (data.rfind(b"\n", 0, offset) + 1) + 1

def tool_version(exe):
    rc, out = run([exe, "--version"])
    m = re.search(r"\d+(?:\.\d+)+", out) if rc == 0 else None
    return m.group(0) if m else None

def write_sarif_data(path, lint, argv, tools, files, findings):
    """What tools/lint_sarif.py turns into SARIF: one file per irqlint call."""
    data = {
        "format": "irqlint-sarif-data/1",
        "cwd": os.getcwd(),
        "command": argv,
        "tools": {t: {"installed": shutil.which({"cocci": "spatch"}.get(t, t)) is not None,
                      "version": tool_version({"cocci": "spatch"}.get(t, t))} for t in tools},
        "files": [norm(f) for f in files],
        "findings": [dict({"file": f, "line": ln, "col": col, "rule": rule, "message": msg,
                           "level": lint.levels.get((f, ln, col, rule), "warning")},
                          **({"chain": lint.chains[(f, ln, col, rule)]} if (f, ln, col, rule) in lint.chains else {}))
                     for f, ln, col, rule, msg in findings],
        "failures": [{"tool": t, "text": x} for t, x in lint.tool_failures],
        "notes": [{"tool": t, "text": x} for t, x in lint.notes],
        "cocci_patches": lint.cocci_patches,
        "tidy_fixes": lint.tidy_fixes,
    }
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, indent=1)
    os.replace(tmp, path)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--cflags", default="", help="-I/-D/-std options for every tool")
    ap.add_argument("--tool-flags", action="append", default=[], metavar='TOOL="FLAGS"')
    ap.add_argument("--fix", action="store_true")
    ap.add_argument("--sarif-data", metavar="FILE", help="also write the data for tools/lint_sarif.py")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    tools = [t for t in a.tools.split(",") if t]
    bad = [t for t in tools if t not in TOOLS]
    if bad:
        print("irqlint: unknown tool(s) %s; known: %s" % (",".join(bad), ",".join(TOOLS)), file=sys.stderr)
        return 2
    for f in a.files:
        if not os.path.isfile(f):
            print("irqlint: %s: no such file" % f, file=sys.stderr)
            return 2
    cflags = shlex.split(a.cflags)
    if not any(x.startswith("-std=") for x in cflags):
        cflags.insert(0, "-std=c11")
    cflags.append("-I" + os.path.join(ROOT, "src", "include"))
    extra = {}
    for tf in a.tool_flags:
        tool, _, flags = tf.partition("=")
        if tool not in TOOLS or not _:
            print("irqlint: --tool-flags wants TOOL=FLAGS with TOOL in %s, got %r" % (",".join(TOOLS), tf), file=sys.stderr)
            return 2
        extra.setdefault(tool, []).extend(shlex.split(flags))
    # cocci/irqflags-opaque: the port of this tree may look inside irq_flags_t, nothing else may
    os.environ["IRQLINT_PORT_DIR"] = os.path.join(ROOT, "src", "port")
    lint = Lint(cflags, extra, sarif=bool(a.sarif_data))
    if a.fix:
        lint.fix(a.files)
    for t in tools:
        exe = {"cocci": "spatch"}.get(t, t)
        if shutil.which(exe) is None:
            lint.failures.append("%s: not installed (make deps)" % exe)
            lint.tool_failures.append((t, lint.failures[-1]))
            continue
        getattr(lint, t.replace("-", "_"))(a.files)
    seen = set()
    printed = []
    for f in sorted(set(lint.findings)):
        key = f[:4]
        if key in seen:
            continue
        seen.add(key)
        printed.append(f)
        print("%s:%d:%d: %s: %s" % f)
    if a.sarif_data:
        write_sarif_data(a.sarif_data, lint, sys.argv, tools, a.files, printed)
    for x in lint.failures:
        print("irqlint: TOOL FAILURE: " + x, file=sys.stderr)
    counts = {}
    for f in seen:
        counts[f[3].split("/")[0]] = counts.get(f[3].split("/")[0], 0) + 1
    print("irqlint: %d file(s), %d finding(s)%s%s" % (
        len(a.files), len(seen),
        "".join(" %s=%d" % kv for kv in sorted(counts.items())),
        ", %d tool failure(s)" % len(lint.failures) if lint.failures else ""), file=sys.stderr)
    if lint.failures:
        return 2
    return 1 if seen else 0

if __name__ == "__main__":
    sys.exit(main())

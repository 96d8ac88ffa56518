#!/usr/bin/env python3
"""hooks_check.py -- the lock's bodies differ between production and the checked builds only
by hooks that are empty in production (issue 23, "proved is shipped"). [REQ-LOCK-1 REQ-MM-4]

<irqsync/spinlock_body.h> is compiled twice: inline in production (the `#else` of
<irqsync/spinlock.h> defines its hooks) and out of line in src/core/spinlock.c for the builds
that check it -- step hooks (refinement, conformance), valgrind, Frama-C and sparse -- which
define the hooks their own way. What the proofs and the refinement walker read is therefore
the shipped code only if the production definitions add nothing. This check shows it on the
preprocessor's own output, not on the macros' text:

  1. Preprocess a user's TU (`#include <irqsync/spinlock.h>`, no option) -- production -- and
     src/core/spinlock.c in each checked configuration.
  2. In the raw body, find every hook invocation; each must be a statement alone on its line
     (so that a line of the output is the hook's expansion and nothing else).
  3. Per line of spinlock_body.h: a hook line expands in production to exactly the tokens
     `((void)0);`; the linkage (IRQSYNC_SPIN_FN) is `static inline` in production and nothing
     in the checked builds; every other line expands to the same tokens in production and in
     every checked configuration.
  4. Per line of every other public header (spinlock.h included, #pragma lines too): each
     line production has, the step-hook and valgrind builds have with the same tokens (they
     have more: the out-of-line prototypes of spinlock.h's #if branch). (Frama-C and sparse read atomic.h's own model of the atomics, its
     `__FRAMAC__ || __CHECKER__` branch, on purpose: spec/proof.md's trusted base.)
  5. Every macro left defined in a user's TU (gcc -dM, compiler's own included) is defined
     the same in the step-hook and valgrind builds, but IRQSYNC_SPIN_INLINE: production
     defines no macro of its own that a user's call could expand (a `spin_unlock` macro).

A failure names the hook or line, the function and the configuration, e.g.
  FAIL production hook IRQSYNC_SPIN_RELEASED(lock) in spin_unlock (spinlock_body.h:57) expands to ...
Exit 0 when everything holds, 1 on a difference, 2 when the TUs cannot be preprocessed.

  python3 -m tests.shipped.hooks_check [--cc gcc] [-I DIR ...]
    -I DIR: searched before src/include (a mutant of tests/shipped/mutants.py)
"""
import argparse, os, re, subprocess, sys

BODY = "irqsync/spinlock_body.h"
HOOKS = ("IRQSYNC_SPIN_STEP", "IRQSYNC_SPIN_ACQUIRED", "IRQSYNC_SPIN_RELEASED")
LINKAGE = "IRQSYNC_SPIN_FN"
EMPTY = ["(", "(", "void", ")", "0", ")", ";"]
PROD_LINKAGE = ["static", "inline"]

# The checked builds of src/core/spinlock.c: name, defines, whether the other headers must
# match production token for token (step 4).
CHECKED = [
    ("step-hooks", ["-DIRQSYNC_TESTING", "-DIRQSYNC_STEP_HOOKS"], True),
    ("valgrind", ["-DIRQSYNC_TESTING", "-DIRQSYNC_VALGRIND"], True),
    ("frama-c", ["-D__FRAMAC__"], False),
    ("sparse", ["-D__CHECKER__"], False),
]

TOKEN = re.compile(r"""[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|"""
                   r"""\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|##|\S""")


def tokens(text):
    return TOKEN.findall(text)


def strip_comments(text):
    """C comments (ACSL annotations included) blanked, newlines kept: line numbers hold."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def preprocess(cc, args, src, stdin=None):
    """{(header path relative to its include dir, line): tokens} of the preprocessed TU, for
    the lines that came from headers under an irqsync/ directory."""
    cmd = [cc, "-std=c11", "-E"] + args + [src]
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    out, cur, line = {}, None, 0
    for raw in r.stdout.splitlines():
        m = re.match(r'^# (\d+) "([^"]*)"', raw)
        if m:
            line, path = int(m.group(1)), m.group(2)
            cur = path[path.rindex("irqsync/"):] if "irqsync/" in path else None
            continue
        if cur is not None and raw.strip() and (not raw.startswith("#") or raw.startswith("#pragma")):
            out.setdefault((cur, line), []).extend(tokens(raw))
        line += 1
    return out


def macros(cc, args, src, stdin=None):
    """{name: definition} of the macros defined at the end of the TU (gcc -dM)."""
    cmd = [cc, "-std=c11", "-E", "-dM"] + args + [src]
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    out = {}
    for ln in r.stdout.splitlines():
        m = re.match(r"^#define (\w+)(.*)$", ln)
        if m:
            out[m.group(1)] = " ".join(tokens(m.group(2)))
    return out


def compare_macros(prod, name, cx):
    """Step 5: every macro a user's TU gets in production is defined the same way in the
    checked build (whose TU includes every header the user's does, and more), but
    IRQSYNC_SPIN_INLINE, the switch itself."""
    fails = []
    for m in sorted(prod):
        if m == "IRQSYNC_SPIN_INLINE":
            continue
        if m not in cx:
            fails.append(f"FAIL macro {m} is defined in production, not in {name}: `{prod[m]}`")
        elif prod[m] != cx[m]:
            fails.append(f"FAIL macro {m} differs: production `{prod[m]}`, {name} `{cx[m]}`")
    return fails


def body_sites(path):
    """{line: (kind, text)} of the raw body: kind 'hook' (text: the invocation) or 'linkage';
    and a list of problems (a hook that is not a statement alone on its line)."""
    with open(path) as f:
        text = strip_comments(f.read())
    sites, problems = {}, []
    for n, ln in enumerate(text.splitlines(), 1):
        t = tokens(ln)
        if t[:1] == ["#"]:
            continue    # a directive: the preprocessor's, not the body's
        if LINKAGE in t:
            if t[0] != LINKAGE or t.count(LINKAGE) != 1:
                problems.append(f"{LINKAGE} does not open line {n} of {BODY}")
            sites[n] = ("linkage", " ".join(t))
            continue
        for h in HOOKS:
            if h in t:
                ok = t[0] == h and t[1] == "(" and t[-1] == ";" and t[-2] == ")" \
                    and not any(x in HOOKS for x in t[1:])
                if not ok:
                    problems.append(f"hook {h} is not a statement alone on line {n} of {BODY}")
                sites[n] = ("hook", "".join(t[:-1]))
    return sites, problems


def func_of(sites, line):
    """The function whose definition starts last before `line` (for the messages)."""
    best = None
    for n, s in sorted(sites.items()):
        if n <= line and s[0] == "linkage":
            best = s[1]
    m = re.search(r"(\w+) \(", best or "")
    return m.group(1) if m else "?"


def show(toks):
    return " ".join(toks) if toks else "(nothing)"


def compare(prod, checked, sites):
    """The failures, as lines of text."""
    fails = []
    body_lines = sorted({ln for (f, ln) in prod if f == BODY})
    if not body_lines:
        return [f"FAIL production does not include {BODY}: the bodies are not inline there"]
    # Step 3, production alone: every hook empty, the linkage static inline.
    for ln, s in sorted(sites.items()):
        got = prod.get((BODY, ln), [])
        where = f"in {func_of(sites, ln)} ({BODY.split('/')[1]}:{ln})"
        if s[0] == "hook" and got != EMPTY:
            fails.append(f"FAIL production hook {s[1]} {where} expands to `{show(got)}`, "
                         f"not `((void)0);`")
        if s[0] == "linkage" and got[:2] != PROD_LINKAGE:
            fails.append(f"FAIL production linkage {where} is `{show(got[:2])}`, not "
                         f"`static inline`")
    for name, cx, others in checked:
        lines = sorted({ln for (f, ln) in prod if f == BODY} | {ln for (f, ln) in cx if f == BODY})
        for ln in lines:
            p, c = prod.get((BODY, ln), []), cx.get((BODY, ln), [])
            where = f"in {func_of(sites, ln)} ({BODY.split('/')[1]}:{ln})"
            kind = sites.get(ln, ("code",))[0]
            if kind == "hook":
                continue
            if kind == "linkage":
                p = p[2:] if p[:2] == PROD_LINKAGE else p
            if p != c:
                fails.append(f"FAIL production and {name} differ {where}: production "
                             f"`{show(p)}`, {name} `{show(c)}`")
        if not others:
            continue
        # Step 4: the other headers both read, line for line.
        for key in sorted(set(prod) & set(cx)):
            if key[0] == BODY:
                continue
            if prod[key] != cx[key]:
                fails.append(f"FAIL production and {name} differ in {key[0]}:{key[1]}: "
                             f"production `{show(prod[key])}`, {name} `{show(cx[key])}`")
        for key in sorted(k for k in set(prod) - set(cx) if k[0] != BODY):
            fails.append(f"FAIL {key[0]}:{key[1]} is in production, not in {name}: `{show(prod[key])}`")
    return fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("-I", dest="incs", action="append", default=[],
                    help="include directory searched before src/include (a mutant)")
    a = ap.parse_args()
    inc = [f"-I{d}" for d in a.incs] + ["-Isrc/include"]
    body = next(os.path.join(d[2:], BODY) for d in inc if os.path.exists(os.path.join(d[2:], BODY)))
    sites, problems = body_sites(body)
    try:
        # Production: what a user's code compiles, with no option at all.
        prod = preprocess(a.cc, inc, "-", stdin="#include <irqsync/spinlock.h>\n")
        core = inc + ["-Isrc/core", "-Isrc/port/hosted"]
        checked = [(n, preprocess(a.cc, core + d, "src/core/spinlock.c"), o) for n, d, o in CHECKED]
        pmac = macros(a.cc, inc, "-", stdin="#include <irqsync/spinlock.h>\n")
        cmacs = [(n, macros(a.cc, core + d, "src/core/spinlock.c")) for n, d, o in CHECKED if o]
    except RuntimeError as e:
        print(f"hooks_check: cannot preprocess: {e}", file=sys.stderr)
        return 2
    fails = [f"FAIL {p}" for p in problems] + compare(prod, checked, sites)
    for n, cm in cmacs:
        fails += compare_macros(pmac, n, cm)
    nhooks = sum(s[0] == "hook" for s in sites.values())
    nlines = len({ln for (f, ln) in prod if f == BODY})
    for f in fails:
        print(f)
    if not fails:
        print(f"ok      {nhooks} hook sites of {BODY} expand to ((void)0) in production")
        print(f"ok      the other {nlines - nhooks} lines of the bodies expand the same in "
              f"production and in {', '.join(n for n, _, _ in CHECKED)}")
        print(f"ok      every other public header line, and each of the {len(pmac) - 1} macros "
              f"production defines, is the same in production and in "
              f"{', '.join(n for n, _, o in CHECKED if o)}")
    print(f"hooks check: {'PASS' if not fails else 'FAIL'} ({body})")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

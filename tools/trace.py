#!/usr/bin/env python3
"""make trace: requirement -> evidence, collected from the REQ IDs written next to the evidence.

  python3 -m tools.trace check       check spec/: every requirement well formed, listed in
                                    spec/traceability.md, and every REQ reference in the tree defined
  python3 -m tools.trace json OUT [--md MD]
                                    write the requirement -> evidence table (build/evidence/trace.json),
                                    and with --md its page (build/evidence/traceability.md): per
                                    requirement the places that cite it by kind, the twins of
                                    twins/catalog.yml that break it, and the judgement column of
                                    spec/traceability.md

A reference is any `REQ-<AREA>-<n>` outside spec/, or an ACSL clause name `REQ_<AREA>_<n>` in
the C and ACSL sources. Its kind comes from where it stands:
promela/ -> model, acsl/ proofs/ and ACSL comments in src/ -> proof, tests/ -> test,
lint/ -> lint, src/ (elsewhere) -> code. Exit status 1 on any problem, with one line per problem.
"""
import argparse, json, os, re, subprocess, sys

REQ = re.compile(r"\bREQ-([A-Z]+)-(\d+)\b")
# ACSL clause names cannot hold '-': contracts write REQ_SYNC_1 for REQ-SYNC-1 (spec/proof.md).
REQ_ACSL = re.compile(r"(?<![A-Za-z0-9])REQ_([A-Z]+)_(\d+)(?![0-9])")
ACSL_DIRS = ("acsl/", "src/", "proofs/")
HEAD = re.compile(r"^### (REQ-[A-Z]+-\d+) — (.+)$")
FIELDS = ("**Statement.**", "**Rationale.**", "**Verify.**")
METHODS = ("model", "proof", "test", "review", "lint")
# tests/tooling/: the tooling's own tests, whose fixtures use made-up requirement IDs: they test
# the tools, never a requirement.
SKIP_DIRS = ("spec/", "build/", ".git/", "tests/tooling/")


def root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_requirements(path="spec/requirements.md"):
    """Return {id: {title, area, statement, methods, line}} and a list of problems."""
    reqs, problems, cur = {}, [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines, 1):
        m = HEAD.match(line)
        if m:
            rid = m.group(1)
            if rid in reqs:
                problems.append(f"{path}:{i}: {rid} defined twice")
            cur = reqs[rid] = {"title": m.group(2), "area": rid.split("-")[1], "line": i,
                               "text": ""}
            continue
        if line.startswith("## ") or line.startswith("---"):
            cur = None
        elif cur is not None:
            cur["text"] += line + "\n"
    for rid, r in reqs.items():
        for fld in FIELDS:
            if fld not in r["text"]:
                problems.append(f"{path}:{r['line']}: {rid} has no {fld} field")
        stmt = r["text"].split("**Statement.**", 1)[-1].split("**Rationale.**", 1)[0]
        r["statement"] = " ".join(stmt.split())
        verify = top_level(r["text"].split("**Verify.**", 1)[-1])
        r["methods"] = [m for m in METHODS if re.search(rf"\b{m}\b", verify)]
        if not r["methods"] and "as REQ-" not in verify:
            problems.append(f"{path}:{r['line']}: {rid} names no verification method")
        del r["text"]
    return reqs, problems


def top_level(text):
    """text without what stands in parentheses: a Verify field names its methods at the top
    level, `test (debug build), proof (precondition)`; what a parenthesis says about a method
    (or about another method's expected failures) names none."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split("\n") if p and not p.startswith(SKIP_DIRS) and os.path.isfile(p)]


def kind_of(path, line):
    if path.startswith("promela/"):
        return "model"
    if path.startswith(("acsl/", "proofs/")):
        return "proof"
    if path.startswith("tests/"):
        return "test"
    if path.startswith("lint/"):
        return "lint"
    if path.startswith("src/"):
        s = line.strip()
        if s.startswith(("@", "/*@", "//@")) or re.search(r"\b(requires|ensures|assigns|behavior|invariant)\b", s):
            return "proof"
        return "code"
    return "doc"


def references():
    refs = []
    for p in tracked_files():
        try:
            with open(p, encoding="utf-8") as f:
                for i, line in enumerate(f, 1):
                    for m in REQ.finditer(line):
                        refs.append((m.group(0), p, i, kind_of(p, line)))
                    if p.startswith(ACSL_DIRS) and p.endswith((".c", ".h")):
                        for m in REQ_ACSL.finditer(line):
                            refs.append((f"REQ-{m.group(1)}-{m.group(2)}", p, i, "proof"))
        except (UnicodeDecodeError, OSError):
            continue
    return refs


def judgements(path="spec/traceability.md"):
    """{id: the judgement column of spec/traceability.md} ("—" is no judgement)."""
    with open(path, encoding="utf-8") as f:
        rows = re.findall(r"^\| (REQ-[A-Z]+-\d+) \| (.*) \|$", f.read(), re.M)
    return {rid: ("" if j.strip() == "—" else j.strip()) for rid, j in rows}


def twins_breaking():
    """{id: [twin ids of twins/catalog.yml whose `breaks` names it]}."""
    from tools import twins
    out = {}
    for t in twins.load():
        for r in t["breaks"]:
            out.setdefault(r, []).append(t["id"])
    return out


def check():
    reqs, problems = parse_requirements()
    with open("spec/traceability.md", encoding="utf-8") as f:
        table = f.read()
    rows = set(re.findall(r"^\| (REQ-[A-Z]+-\d+) ", table, re.M))
    for rid in reqs:
        if rid not in rows:
            problems.append(f"spec/traceability.md: {rid} has no row")
    for rid in sorted(rows - set(reqs)):
        problems.append(f"spec/traceability.md: row {rid} is not a requirement")
    for rid, p, i, _ in references():
        if rid not in reqs:
            problems.append(f"{p}:{i}: {rid} is not defined in spec/requirements.md")
    # IDs cited inside spec/ must exist too.
    for name in sorted(os.listdir("spec")):
        if name.endswith(".md"):
            with open(os.path.join("spec", name), encoding="utf-8") as f:
                for i, line in enumerate(f, 1):
                    for m in REQ.finditer(line):
                        if m.group(0) not in reqs:
                            problems.append(f"spec/{name}:{i}: {m.group(0)} is not defined")
    for prob in problems:
        print(prob)
    print(f"trace: {len(reqs)} requirements, {len(problems)} problem(s)")
    return 1 if problems else 0


def _places(locs, most=4):
    """`file:line` places, grouped by file: the first `most` files, then a count."""
    files = {}
    for loc in locs:
        f, _, line = loc.rpartition(":")
        files.setdefault(f, []).append(line)
    shown = [f"`{f}`:{','.join(ls[:3])}{'…' if len(ls) > 3 else ''}" for f, ls in list(files.items())[:most]]
    return "; ".join(shown) + (f" (+{len(files) - most} files)" if len(files) > most else "")


def write_md(reqs, path):
    """build/evidence/traceability.md: the trace as a table a reader can scan (generated)."""
    kinds = ("model", "proof", "test", "lint", "code")
    lines = ["# Traceability (generated by `make trace` from the IDs in the tree; do not edit)", "",
             "Places that cite each requirement, by kind (where they stand: promela/ model, acsl/ "
             "and proofs/ proof, tests/ test, lint/ lint, src/ code); the twins of "
             "`twins/catalog.yml` that break it; the judgement of `spec/traceability.md`. "
             "What each method is credited with is the evidence report's (spec/report.md §2).", "",
             "| Requirement | " + " | ".join(k.capitalize() for k in kinds) + " | Twins | Judgement |",
             "|---|" + "---|" * (len(kinds) + 2)]
    for rid in sorted(reqs, key=lambda r: (r.split("-")[1], int(r.split("-")[2]))):
        r = reqs[rid]
        cells = [_places(r["evidence"].get(k, [])) or "—" for k in kinds]
        tw = ", ".join(f"`{t}`" for t in r["twins"]) or "—"
        lines.append(f"| {rid} | " + " | ".join(cells) + f" | {tw} | {r['judgement'] or '—'} |")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_json(out, md=None):
    reqs, problems = parse_requirements()
    for r in reqs.values():
        r["evidence"] = {}
    for rid, p, i, kind in references():
        if rid in reqs:
            reqs[rid]["evidence"].setdefault(kind, [])
            loc = f"{p}:{i}"
            if loc not in reqs[rid]["evidence"][kind]:
                reqs[rid]["evidence"][kind].append(loc)
    judge, broken = judgements(), twins_breaking()
    for rid, r in reqs.items():
        r["covered_by"] = sorted(k for k in r["evidence"] if k != "doc")
        r["judgement"] = judge.get(rid, "")
        r["twins"] = broken.get(rid, [])
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"requirements": reqs, "problems": problems}, f, indent=1, sort_keys=True)
    if md:
        write_md(reqs, md)
    bare = [rid for rid, r in reqs.items() if not r["covered_by"]]
    print(f"trace: {len(reqs)} requirements, {len(reqs) - len(bare)} with evidence references, "
          f"{len(bare)} without{': ' + ' '.join(bare) if bare else ''}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.trace", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    sub.add_parser("check", help="every requirement well formed and listed in "
                                 "spec/traceability.md, every REQ reference in the tree defined")
    js = sub.add_parser("json", help="write the requirement -> evidence table")
    js.add_argument("out", metavar="OUT", help="the JSON file to write (build/evidence/trace.json)")
    js.add_argument("--md", metavar="MD", help="also write the table as markdown "
                                               "(build/evidence/traceability.md)")
    a = ap.parse_args(argv)
    os.chdir(root())
    return check() if a.cmd == "check" else write_json(a.out, a.md)


if __name__ == "__main__":
    sys.exit(main())

"""The list of proof goals per requirement (spec/proof-goals.md), and what it credits.

A requirement's proof column counts only the goals this list credits to it (spec/report.md §2).
Each row of the list's table is `| REQ-X-N | `function:goal` | credit |`:
- the goal is a pattern over WP's goal names as `proofs.json` (`goals`) has them, `function:goal`,
  where `*` stands for any text without `:` and a goal WP numbered as a repeat (`…_2`, `…_3`: the
  same clause at another call site or the same name given twice) is matched too;
- the credit is `proof` (the goals count for the requirement) or `no: <why>` (the goals cite it
  but do not show it; listed so that the reason is written down and the goal is not flagged).
A goal whose name carries REQ_X_N but that no row of REQ-X-N matches gives no credit and is
flagged (list it or rename it); a row that matches no goal of a fresh proofs.json is stale and
fails the requirement (the clause was renamed or removed: update the list).

  python3 -m tools.report.goals [PROOFS.json]   the list checked against a proofs.json: each
                                                row with the goals it matches, then the unlisted
                                                goals; exit 1 on a stale row or a malformed list
                                                (or no goal names), 2 when PROOFS.json cannot
                                                be read or on a usage error
"""
import argparse, json, os, re, sys

LIST = os.path.join("spec", "proof-goals.md")
ID = r"[A-Z]+-[A-Z]+-\d+"  # REQ-SYNC-1 (the report's fixtures use FIX-SYNC-1)
ROW = re.compile(rf"^\|\s*({ID})\s*\|\s*`([^`]+)`\s*\|\s*(.*?)\s*\|\s*$")
# The gate's own check, not a goal: every assumed contract is listed in the trusted base
# (proofs.json `assumptions`, no `problems`); REQ-TCB-2 is credited with it.
TRUSTED_BASE = "(trusted base)"


def read(root):
    """(rows, problems): rows [{rid, pattern, credit, why, line}] of the list's table."""
    path = os.path.join(root, LIST)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        return [], [f"{LIST}: cannot read ({e.strerror}): no goal counts as proof"]
    rows, probs, seen = [], [], set()
    for i, line in enumerate(lines, 1):
        if not re.match(rf"\|\s*{ID}\s*\|", line):
            continue
        m = ROW.match(line)
        if not m:
            probs.append(f"{LIST}:{i}: not a row `| REQ-X-N | `function:goal` | proof or no: why |`")
            continue
        rid, pat, credit = m.groups()
        if pat != TRUSTED_BASE and pat.count(":") != 1:
            probs.append(f"{LIST}:{i}: goal {pat!r} is not `function:goal`")
            continue
        if credit == "proof":
            ok, why = True, ""
        elif credit.startswith("no:") and credit[3:].strip():
            ok, why = False, credit[3:].strip()
        else:
            probs.append(f"{LIST}:{i}: credit {credit!r} is neither `proof` nor `no: <why>`")
            continue
        if (rid, pat) in seen:
            probs.append(f"{LIST}:{i}: {rid} {pat} listed twice")
            continue
        seen.add((rid, pat))
        rows.append({"rid": rid, "pattern": pat, "credit": ok, "why": why, "line": i})
    return rows, probs


def compile_pattern(pat):
    body = "".join("[^:]*" if ch == "*" else re.escape(ch) for ch in pat)
    return re.compile(body + r"(?:_\d+)?\Z")


def tags(name, prefix="REQ"):
    """The requirements a goal name cites (REQ_X_N -> REQ-X-N), as the gate reads them."""
    return sorted({f"{prefix}-{a}-{n}"
                   for a, n in re.findall(rf"(?<![A-Za-z0-9]){prefix}_([A-Z]+)_(\d+)(?![0-9])", name)})


def evaluate(rows, proofs, prefix="REQ"):
    """Per requirement: {rid: {"rows": [row + matched goals and status], "unlisted": [names]}}.
    A row's status: pass (it matches goals, all proved), fail (a goal unproved, or stale: it
    matches none), or for the trusted-base row the gate's assumption check. `None` when
    proofs.json has no goal names (an older gate): then nothing can be credited."""
    goals = proofs.get("goals") if isinstance(proofs, dict) else None
    if not isinstance(goals, dict):
        return None
    out = {}
    matched_by = {}  # goal -> requirements whose rows match it
    for r in rows:
        e = out.setdefault(r["rid"], {"rows": [], "unlisted": []})
        if r["pattern"] == TRUSTED_BASE:
            n = len(proofs.get("assumptions") or [])
            ok = n > 0 and not proofs.get("problems")
            e["rows"].append(dict(r, goals=[], proved=0, total=0, status="pass" if ok else "fail",
                                  detail=f"{n} assumed contract(s) listed, each checked against "
                                         f"the trusted base" if ok else
                                         "the gate listed no assumption or reported a problem"))
            continue
        rx = compile_pattern(r["pattern"])
        mine = sorted(g for g in goals if rx.match(g))
        for g in mine:
            matched_by.setdefault(g, set()).add(r["rid"])
        pr = sum(_count(goals[g])[0] for g in mine)
        tot = sum(_count(goals[g])[1] for g in mine)
        if not mine:
            st, det = "fail", (f"stale: matches no goal of proofs.json (renamed or removed?); "
                               f"update {LIST}:{r['line']}")
        elif pr != tot:
            st, det = "fail", f"{pr}/{tot} goals proved"
        else:
            st, det = "pass", f"{pr}/{tot} goals proved"
        e["rows"].append(dict(r, goals=mine, proved=pr, total=tot, status=st, detail=det))
    for g in sorted(goals):
        for rid in tags(g.split(":", 1)[-1], prefix):
            if rid not in matched_by.get(g, ()):
                out.setdefault(rid, {"rows": [], "unlisted": []})["unlisted"].append(g)
    return out


def _count(v):
    """[proved, total] of a goal entry (a list, or an object with those keys)."""
    if isinstance(v, dict):
        return v.get("proved", 0), v.get("total", 0)
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return v[0], v[1]
    return 0, 0


def main(argv=None):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(prog="python3 -m tools.report.goals", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("proofs", metavar="PROOFS.json", nargs="?",
                    default=os.path.join(root, "build", "evidence", "proofs.json"),
                    help="the gate's proofs.json (default: build/evidence/proofs.json of this "
                         "repository)")
    path = ap.parse_args(argv).proofs
    rows, probs = read(root)
    try:
        with open(path, encoding="utf-8") as f:
            proofs = json.load(f)
    except (OSError, ValueError) as e:
        print(f"goals: cannot read {path} ({e})", file=sys.stderr)
        return 2
    ev = evaluate(rows, proofs)
    if ev is None:
        print(f"goals: {path} has no `goals` (names of the goals): rerun `make prove`")
        return 1
    bad = len(probs)
    for p in probs:
        print(p)
    for rid in sorted(ev):
        for r in ev[rid]["rows"]:
            bad += r["status"] == "fail"
            print(f"{r['status']:4} {rid} {r['pattern']} [{'proof' if r['credit'] else 'no credit'}]"
                  f" {r['detail']}")
        for g in ev[rid]["unlisted"]:
            print(f"unlisted {rid} {g}: cites it, no row of {LIST} lists it (no credit); a row: "
                  f"| {rid} | `{g}` | proof |   (or `no: <why>`)")
    n = sum(len(e["unlisted"]) for e in ev.values())
    print(f"goals: {len(rows)} rows, {bad} stale, failing or malformed, {n} unlisted goal(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

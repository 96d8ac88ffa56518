"""The one-screen terminal summary of a report (printed at the end of `make`)."""
import os
import sys


def _colour(code, s):
    """s in ANSI colour `code` on a terminal (not when NO_COLOR is set or output is a file)."""
    return f"\033[{code}m{s}\033[0m" if sys.stdout.isatty() and not os.environ.get("NO_COLOR") else s


def _count_line(label, part, whole, good, extra="", missing=None):
    """One line: label, ok/FAIL, part / whole and extra; NOT RUN (and why) when part is None."""
    if part is None:
        return f"  {label:26} {_colour('31;1', 'NOT RUN')}  {missing or ''}"
    mark = _colour("32", "ok  ") if good else _colour("31;1", "FAIL")
    return f"  {label:26} {mark} {part:>5} / {whole:<5} {extra}"


def lines(ev):
    """The count lines of the summary: (label, part, whole, good, extra, why-not-run). A line is
    good only when it prints ok; a card whose result is not there (part None) is NOT RUN."""
    v, p = ev["verdict"], ev["producers"]
    why = lambda n: f"({p[n]['status']}: {p[n]['reason']})"[:100]
    r, g, m, t, c = v["requirements"], v["goals"], v["model"], v["tests"], v["targets"]
    out = [
        ("requirements verified", r and r["verified"], r and r["total"],
         bool(r) and r["verified"] == r["total"] and r["total"] > 0,
         f"{r['partial']} partial, {r['failed']} failed, {r['none']} without evidence" if r else "",
         why("trace")),
        ("proof goals proved", g and g["proved"], g and g["total"],
         bool(g) and g["proved"] == g["total"] and g["total"] > 0,
         f"{g['assumptions']} assumed contracts" if g else "", why("proofs")),
    ]
    pl = ev.get("proof_list")
    if g and pl:
        stale = len(pl["stale"])
        out.append(("proof goals listed", pl["rows"] - stale if pl["checked"] else None, pl["rows"],
                    pl["checked"] and stale == 0,
                    f"rows of {pl['file']} matching goals; {stale} stale, "
                    f"{sum(len(x) for x in pl['unlisted'].values())} unlisted goal(s)",
                    f"({pl.get('why', 'not checked')})"))
    out += [
        ("model runs as expected", m and m["as_expected"], m and m["total"],
         bool(m) and m["as_expected"] == m["total"] and m["total"] > 0,
         f"{m['expected_violations']} expected violations, {m['litmus']} litmus" if m else "",
         why("model")),
        ("tests passed", t and t["passed"], t and t["total"],
         bool(t) and t["failed"] == 0 and t["passed"] > 0,
         f"{t['failed']} failed, {t['skipped']} skipped" if t else "", why("tests")),
        ("cross targets passing", c and c["ok"], c and c["total"],
         bool(c) and c["ok"] == c["total"] and c["total"] > 0, "", why("cross")),
        ("results fresh", v["fresh"], v["producers"], v["fresh"] == v["producers"], "", ""),
    ]
    return out


def print_summary(ev, out="build/evidence"):
    """The summary of a report, a line per kind of evidence, then what is not fresh or red."""
    p = ev["producers"]
    print()
    print(f"irqsync evidence — commit {(ev['environment'].get('commit') or '?')[:12]}"
          f"{' (dirty)' if ev['environment'].get('dirty') else ''}, {ev['generated']}")
    for label, part, whole, good, extra, missing in lines(ev):
        print(_count_line(label, part, whole, good, extra, missing))
    for n, x in sorted(p.items()):
        if x.get("optional") and x["status"] == "missing":
            continue
        if x["status"] != "fresh":
            print(f"    {n:8} {_colour('31', x['status']):9} {x['reason'][:110]}")
        elif x["rc"]:
            print(f"    {n:8} {_colour('31', 'exit ' + str(x['rc']))} `make {x['target']}` failed; its result is shown")
    bad = [rid for rid, q in (ev["requirements"] or {}).items() if q["status"] != "verified"]
    if bad:
        print(f"  requirements not verified ({len(bad)}): "
              + " ".join(f"{rid} ({ev['requirements'][rid]['status']}: "
                         + ", ".join(f"{m} {s}" for m, s in ev["requirements"][rid]["method_status"].items()
                                     if s != "pass") + ")" for rid in bad[:8])
              + (" …" if len(bad) > 8 else ""))
    pl = ev.get("proof_list") or {}
    for s in pl.get("stale", [])[:6]:
        print(f"  {_colour('31', 'stale')} goal list row matches no goal: {s}")
    if pl.get("unlisted"):
        u = pl["unlisted"]
        print(f"  {_colour('33', 'note')} goals citing a requirement without a row of {pl['file']} "
              f"(no credit; list or rename): " + ", ".join(f"{rid} {len(x)}" for rid, x in sorted(u.items())))
    n = sum(t.get("group", "counterexample") == "counterexample" for t in ev["timelines"])
    print(f"  {n} counterexample timeline(s), {len(ev['timelines']) - n} witness trail(s); "
          f"open {out}/index.html")


def all_good(ev):
    """The default `make` succeeds only when every line of the summary says ok (no FAIL, no
    NOT RUN), every required result is fresh and no producer failed (spec/report.md §5)."""
    p = ev["producers"]
    # optional producers do not fail `make` by their status (bench, mutants, scale are not run by it;
    # a failing conformance run fails it through the 80-conformance test group)
    if any(x["status"] != "fresh" or x["rc"] for x in p.values() if not x.get("optional")):
        return False
    return all(good and part is not None for _, part, _, good, _, _ in lines(ev))

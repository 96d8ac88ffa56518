"""index.html: one self-contained page (no script, no network), rendered from evidence.json.

The markup is in the Jinja2 templates of templates/ (page.html, and macros.html for the pieces
it repeats), rendered by an environment that autoescapes: every value of the evidence — a test
name, a detail, a reason, a trail's text — reaches the page as text, whatever characters it
holds. This module only shapes the evidence for the templates (which entries a matrix cell
lists, the rows of a timeline); it writes no markup. The one exception is md_inline, the
`code` and **bold** of spec/tcb.md, which it builds around text markupsafe has escaped.

Every number of the verdict carries an id (v-…) so the browser test can read it back from the
DOM and compare it with evidence.json.
"""
import os
import re

try:
    import jinja2
    from markupsafe import Markup, escape
except ImportError as e:
    raise SystemExit(f"report: Python module {e.name} missing: make deps (python3-jinja2, tools/deps.list)")

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")

MACHINE_ORDER = ("model", "proof", "test", "lint")

EFFECT = {"enter": "→ store buffer", "store": "store", "load": "load", "atomic": "on memory (locked/fenced)",
          "other": ""}

GROUPS = [("counterexample", "Counterexamples", True,
           "Each violation SPIN found, drawn as a timeline: a column per CPU, one for memory, a row "
           "per step. A store enters its CPU's buffer (orange) and becomes visible when it reaches "
           "memory (green)."),
          ("litmus", "Litmus tests: relaxed outcomes the memory model allows", False,
           "Each trail shows how the relaxed outcome comes about; the real architecture allows it too."),
          ("probe", "Non-vacuity probes: interesting states the model reaches", False,
           "A probe \"violates\" when the state it looks for is reachable: these show that the "
           "properties that hold are not vacuous.")]


def md_inline(s):
    """`code` and **bold** of the spec's markdown, everything else escaped (a template filter)."""
    out = str(escape(s))
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return Markup(re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out))


def state_of(ev, name):
    """What a verdict card without numbers shows: its producer's status (a fresh result without
    data: invalid) and the reason."""
    p = ev["producers"][name]
    return (p["status"] if p["status"] != "fresh" else "invalid", p["reason"])


def items(r, methods):
    """The entries of one matrix cell: failures listed in full, passes counted (their names in
    the template: a few, the rest behind a <details>), then what is missing. Each entry is a
    dict whose "kind" the template's `entry` macro renders."""
    its = [x for x in r["items"] if x["method"] in methods]
    out = []
    for st in ("fail", "assumed", "none", "skip", "unlisted", "cited"):
        out += [{"kind": "item", "status": st, "x": x} for x in its if x["status"] == st]
    ok = [x for x in its if x["status"] == "pass" and not x.get("xfail")]
    if ok:
        out.append({"kind": "passes", "status": "pass", "label": f"{len(ok)} pass", "xs": ok})
    refs = []
    for m in methods:
        refs += r["refs"].get(m, [])
    for m in methods:
        if m in r["methods"] and not any(x["method"] == m for x in its):
            out.append({"kind": "no-result", "method": m, "refs": refs})
    for m in methods:
        mine = [x for x in its if x["method"] == m]
        if mine and all(x.get("xfail") and x["status"] == "pass" for x in mine):
            out.append({"kind": "only-xfail", "method": m})
    if not its and refs and not any(m in r["methods"] for m in methods):
        out.append({"kind": "cited", "refs": refs})
    return out


def able_to_fail(r):
    """The matrix cell of expected failures that failed as expected: the checks citing the
    requirement are shown able to fail; this is not evidence that it holds (spec/report.md)."""
    out = []
    for m in MACHINE_ORDER:
        its = [x for x in r["items"] if x["method"] == m and x.get("xfail") and x["status"] == "pass"]
        if its:
            out.append({"kind": "passes", "status": "xfail", "label": f"{len(its)} {m}", "xs": its})
    return out


def timeline_notes(tl):
    notes = []
    if tl.get("inferred"):
        ex = tl.get("explicit", [])
        notes.append("A store enters its CPU's buffer when its step runs in a buffering primitive of "
                     "promela/mm/ (mm_store, mm_unlock, …); "
                     + ("it leaves when the trail prints FLUSH." if "flush" in ex else
                        "it leaves when the CPU's flusher process moves (the entry its walk selects)."))
    return notes + tl.get("notes", [])


def timeline_rows(tl):
    """The rows of a timeline table, numbered as the steps (prints left out). A row is either
    {"k", "kind", "text"} (a line across the table: an error, a cycle, …) or {"k", "cells",
    "mem"}: a cell per CPU ({"kind": step|late|enter, …} or None, with the CPU's store buffer
    "buf" after that step) and what happened in memory ({"kind": atomic|flush, "text"} or None)."""
    n = tl["cpus"]
    rows, k = [], 0
    for s in tl["steps"]:
        if s["kind"] == "print":
            continue
        k += 1
        cells = [None] * n
        mem = None
        on_cpu = s["cpu"] is not None and s["cpu"] < n
        if s["kind"] == "step" and on_cpu:
            eff = s.get("effect", "")
            what = EFFECT.get(eff, eff) + (f' {s["read"]}' if s.get("read") else "")
            cells[s["cpu"]] = {"kind": "step", "cls": "enter" if eff == "enter" else "",
                               "name": s.get("store") or s["step"], "effect": what}
            if eff == "atomic":
                mem = {"kind": "atomic", "text": f'{s["step"]} (CPU{s["cpu"]}) acts on memory'}
        elif s["kind"] == "late" and on_cpu:
            cells[s["cpu"]] = {"kind": "late", "text": s["text"]}
        elif s["kind"] == "flush" and on_cpu:
            mem = {"kind": "flush", "text": s["text"]}
        elif s["kind"] == "enter" and on_cpu:
            cells[s["cpu"]] = {"kind": "enter", "text": s["text"]}
        else:
            rows.append({"k": k, "kind": s["kind"], "text": s["text"]})
            continue
        bufs = s.get("buffers", {})
        rows.append({"k": k, "mem": mem,
                     "cells": [{"cell": cells[c], "buf": bufs.get(str(c))} for c in range(n)]})
    return rows


def groups(tls):
    """The timeline sections: (group, title, open, intro, [(index, timeline)]), a group other
    than the counterexamples only when it has a trail."""
    out = []
    for g, title, open_, intro in GROUPS:
        sel = [(i, t) for i, t in enumerate(tls) if t.get("group", "counterexample") == g]
        if sel or g == "counterexample":
            out.append((g, title, open_, intro, sel))
    return out


def generic_view(x, depth):
    """A result of a format this page does not know in detail, for the `generic` macro: a list
    of records as a table (the scalar keys in order of first appearance, at most 12 columns and
    300 rows), a record (to depth 2) as a key/value table then a section per nested value, else
    its text."""
    if isinstance(x, list) and x and all(isinstance(r, dict) for r in x):
        cols = []
        for r in x:
            cols += [k for k, v in r.items() if k not in cols and not isinstance(v, (dict, list))]
        return {"kind": "records", "cols": cols[:12], "rows": x[:300], "more": max(len(x) - 300, 0)}
    if isinstance(x, dict) and depth < 2:
        return {"kind": "record",
                "flat": [(k, v) for k, v in x.items() if not isinstance(v, (dict, list))],
                "nested": [(k, v) for k, v in x.items() if isinstance(v, (dict, list)) and v]}
    return {"kind": "text", "text": str(x)[:2000]}


def environment():
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        # None prints as nothing (a value the evidence leaves out), not as "None"
        finalize=lambda v: "" if v is None else v)
    env.filters["md_inline"] = md_inline
    env.globals.update(items=items, able_to_fail=able_to_fail, timeline_rows=timeline_rows,
                       timeline_notes=timeline_notes, groups=groups, generic_view=generic_view,
                       state_of=state_of)
    return env


def render(ev):
    tls = ev["timelines"]
    tl_index = {t["run"]: i for i, t in enumerate(tls) if not t.get("missing")}
    probs = ev["problems"] + [f"trace: {x}" for x in ev.get("trace_problems", [])]
    return environment().get_template("page.html").render(ev=ev, tl_index=tl_index, problems=probs)

"""index.html: one self-contained page (no script, no network), rendered from evidence.json.

Every number of the verdict carries an id (v-…) so the browser test can read it back from the
DOM and compare it with evidence.json.
"""
import html
import re

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 4em;color:#222;background:#fff}
h1{margin:.6em 0 .1em}h2{border-bottom:2px solid #ccc;margin-top:1.6em}
.meta{color:#555}.meta code{font-size:12px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:1em 0}
.card{border:2px solid #999;border-radius:8px;padding:8px 14px;min-width:150px;max-width:330px}
.card .why{font-size:11px;color:#666}
.card .n{font-size:26px;font-weight:700}.card .l{color:#444}
.good{border-color:#2a7d2a;background:#eef8ee}.bad{border-color:#c0392b;background:#fdecea}
.warn{border-color:#c98a00;background:#fff6e0}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 6px;
vertical-align:top;text-align:left}th{background:#f2f2f2}
tr.r-none td,tr.r-failed td{background:#fdecea}tr.r-partial td{background:#fff6e0}
.b{display:inline-block;border-radius:4px;padding:0 5px;margin:1px;font-size:12px;white-space:nowrap}
.pass,.fresh,.verified,.hold{background:#2a7d2a;color:#fff}
.fail,.failed,.stale,.unstamped,.missing,.invalid,.none,.violate{background:#c0392b;color:#fff}
.partial,.skip,.assumed,.incomplete{background:#c98a00;color:#fff}
.xfail{background:#5a5a8a;color:#fff}
.cited{background:#888;color:#fff}.unlisted{background:#c98a00;color:#fff}
.ref{color:#666;font-size:11px}
.tl td{min-width:160px;font-size:12px}.tl td:first-child{min-width:2em;width:2em}.tl td.mem{background:#f4f4ff}
.tl .enter{border-left:4px solid #c98a00}.tl .flush{border-left:4px solid #2a7d2a}
.tl .sb{color:#8a5a00;font-size:11px}.tl tr.error td{background:#fdecea;font-weight:700}
.tl .effect{color:#666;font-size:11px}
details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
"""


def esc(x):
    """x as HTML text (None as nothing)."""
    return html.escape("" if x is None else str(x))


def badge(status, text=None):
    return f'<span class="b {esc(status)}">{esc(text or status)}</span>'


def unavailable(ev, producer, label=""):
    """What stands in a section for a result the report does not have: the producer's status
    and the reason (stale, missing, …), so that a gap is never silent."""
    p = ev["producers"][producer]
    return f'<p>{label}{badge(p["status"])} {esc(p["reason"])}</p>'


def table(heads, rows, attrs=""):
    """A table: a header row of the heads (plain text), then the rows (<tr> HTML)."""
    return "\n".join([f"<table{attrs}><tr>" + "".join(f"<th>{esc(h)}</th>" for h in heads)
                      + "</tr>"] + list(rows) + ["</table>"])


def row(cells, attrs=""):
    """A <tr> of cells (HTML)."""
    return f"<tr{attrs}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def md_inline(s):
    """`code` and **bold** of the spec's markdown, everything else escaped."""
    out = esc(s)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


def state_word(status):
    return "not run" if status == "missing" else status


def card(cid, label, num, den, good, sub="", state=None):
    if num is None:
        st, why = state or ("missing", "")
        why = why if len(why) <= 140 else why[:137] + "…"
        return (f'<div class="card bad" id="{cid}"><div class="n" id="{cid}-state">{esc(state_word(st))}</div>'
                f'<div class="l">{esc(label)}</div><div class="l why">{esc(why)}</div></div>')
    cls = "good" if good else "bad"
    return (f'<div class="card {cls}" id="{cid}"><div class="n"><span id="{cid}-num">{num}</span> / '
            f'<span id="{cid}-den">{den}</span></div><div class="l">{esc(label)}</div>'
            f'<div class="l">{sub}</div></div>')


def verdict_cards(ev):
    v, p = ev["verdict"], ev["producers"]
    # a card without numbers shows its producer's state (a fresh result without data: invalid)
    state_of = lambda n: (p[n]["status"] if p[n]["status"] != "fresh" else "invalid", p[n]["reason"])
    out = ['<div class="cards">']
    r = v["requirements"]
    out.append(card("v-req", "requirements verified", r and r["verified"], r and r["total"],
                    bool(r) and r["verified"] == r["total"],
                    (f'<span id="v-req-partial">{r["partial"]}</span> partial, '
                     f'<span id="v-req-failed">{r["failed"]}</span> failed, '
                     f'<span id="v-req-none">{r["none"]}</span> without evidence') if r else "", state_of("trace")))
    g = v["goals"]
    out.append(card("v-goals", "proof goals proved", g and g["proved"], g and g["total"],
                    bool(g) and g["proved"] == g["total"] and g["total"] > 0,
                    f'<span id="v-goals-assumptions">{g["assumptions"]}</span> assumed contracts'
                    if g else "", state_of("proofs")))
    m = v["model"]
    out.append(card("v-model", "model runs as expected", m and m["as_expected"], m and m["total"],
                    bool(m) and m["as_expected"] == m["total"] and m["total"] > 0,
                    f'{m["protocol"]} protocol, {m["litmus"]} litmus, {m["expected_violations"]} '
                    f'expected violations' if m else "", state_of("model")))
    t = v["tests"]
    out.append(card("v-tests", "tests passed", t and t["passed"], t and t["total"],
                    bool(t) and t["failed"] == 0 and t["passed"] > 0,
                    f'<span id="v-tests-failed">{t["failed"]}</span> failed, '
                    f'<span id="v-tests-skipped">{t["skipped"]}</span> skipped' if t else "", state_of("tests")))
    c = v["targets"]
    out.append(card("v-targets", "cross targets passing", c and c["ok"], c and c["total"],
                    bool(c) and c["ok"] == c["total"] and c["total"] > 0, "", state_of("cross")))
    out.append(card("v-fresh", "results fresh", v["fresh"], v["producers"],
                    v["fresh"] == v["producers"]))
    out.append("</div>")
    return "\n".join(out)


def producers(ev):
    return table(("result", "make target", "status", "producer exit", "stamped", "why"),
                 (row((esc(n), f'<code>make {esc(p["target"])}</code>', badge(p["status"]),
                       esc(p["rc"]), esc(p["stamped"]), esc(p["reason"])), f' id="prod-{esc(n)}"')
                  for n, p in sorted(ev["producers"].items())))


TL_INDEX = {}  # run label -> timeline anchor, set by render()


def _name(x):
    i = TL_INDEX.get(x["name"]) if x["method"] == "model" else None
    return esc(x["name"]) + (f' <a href="#tl-{i}">timeline</a>' if i is not None else "")


def _items(r, methods):
    """One matrix cell: failures listed in full, passes counted with a few names and the rest
    behind a <details>, then what is missing."""
    its = [x for x in r["items"] if x["method"] in methods]
    out = []
    for st in ("fail", "assumed", "none", "skip", "unlisted", "cited"):
        for x in (x for x in its if x["status"] == st):
            out.append(f'{badge(st)} {_name(x)} <span class="ref">{esc(x.get("detail", ""))}</span>')
    ok = [x for x in its if x["status"] == "pass" and not x.get("xfail")]
    if ok:
        names = [_name(x) for x in ok]
        head = f'{badge("pass", f"{len(ok)} pass")} ' + "; ".join(names[:2])
        if len(ok) > 2:
            head += (f'<details><summary>all {len(ok)}</summary>'
                     + "<br>".join(names) + "</details>")
        out.append(head)
    refs = []
    for m in methods:
        refs += r["refs"].get(m, [])
    for m in methods:
        if m in r["methods"] and not any(x["method"] == m for x in its):
            out.append(badge("none", f"no {m} result") + (
                f' <span class="ref">cited at {esc(", ".join(refs[:3]))}{" …" if len(refs) > 3 else ""}</span>'
                if refs else ' <span class="ref">not cited anywhere</span>'))
    for m in methods:
        mine = [x for x in its if x["method"] == m]
        if mine and all(x.get("xfail") and x["status"] == "pass" for x in mine):
            out.append(badge("none", f"no supporting {m} result") +
                       ' <span class="ref">only expected failures cite it (shown able to fail)</span>')
    if not its and refs and not any(m in r["methods"] for m in methods):
        out.append(f'<span class="ref">cited at {esc(", ".join(refs[:3]))}</span>')
    return "<br>".join(out)


def _able_to_fail(r):
    """The matrix cell of expected failures that failed as expected: the checks citing the
    requirement are shown able to fail; this is not evidence that it holds (spec/report.md)."""
    out = []
    for m in MACHINE_ORDER:
        its = [x for x in r["items"] if x["method"] == m and x.get("xfail") and x["status"] == "pass"]
        if its:
            names = [_name(x) for x in its]
            head = f'{badge("xfail", f"{len(its)} {m}")} ' + "; ".join(names[:2])
            if len(its) > 2:
                head += f'<details><summary>all {len(its)}</summary>' + "<br>".join(names) + "</details>"
            out.append(head)
    return "<br>".join(out)


MACHINE_ORDER = ("model", "proof", "test", "lint")


def matrix(ev):
    reqs = ev["requirements"]
    if not reqs:
        return (f'<p class="card bad">No requirement table: trace.json is '
                f'{esc(ev["producers"]["trace"]["status"])} — {esc(ev["producers"]["trace"]["reason"])}</p>')
    return table(("requirement", "status", "model", "proof", "tests / lint",
                  "shown able to fail (not support)", "review, code"),
                 (_requirement_row(rid, r) for rid, r in reqs.items()), ' id="matrix"')


def _requirement_row(rid, r):
    rev = r["refs"].get("doc", []) + r["refs"].get("code", [])
    return (f'<tr class="r-{esc(r["status"])}" id="req-{esc(rid)}"><td><b>{esc(rid)}</b><br>{esc(r["title"])}'
            f'<div class="ref">verify: {esc(", ".join(r["methods"]) or "—")}</div></td>'
            f'<td>{badge(r["status"], "no evidence" if r["status"] == "none" else r["status"])}</td>'
            f'<td>{_items(r, ("model",))}</td><td>{_items(r, ("proof",))}</td>'
            f'<td>{_items(r, ("test", "lint"))}</td>'
            f'<td id="xfail-{esc(rid)}">{_able_to_fail(r)}</td>'
            f'<td class="ref">{"review" if "review" in r["methods"] else ""} '
            f'{esc(", ".join(rev[:3]))}{" …" if len(rev) > 3 else ""}</td></tr>')


def model_table(ev):
    m = ev["model"]
    if m is None:
        return unavailable(ev, "model")
    return table(("kind", "run", "variant", "memory model", "config", "property", "requirements",
                  "expected", "result", "exhaustive", "states", "transitions", "depth", "MB", "s"),
                 (_model_row(r) for r in m))


def _model_row(r):
    config = " ".join(f"{k}={v}" for k, v in (r.get("config") or {}).items())
    result = badge("pass" if r["as_expected"] else "fail", r.get("result"))
    return row([esc(r["kind"]), esc(r.get("name")), esc(r.get("variant")),
                esc(r.get("memory_model")), esc(config), esc(r.get("property")),
                esc(" ".join(r["requirements"])), esc(r.get("expected")), result]
               + [esc(r.get(k)) for k in ("exhaustive", "states", "transitions", "depth",
                                          "memory_mb", "seconds")])


def proofs_table(ev):
    p = ev["proofs"]
    if p is None:
        return unavailable(ev, "proofs")
    out = [f'<p>provers: {esc(", ".join(f"{k}: {v}" for k, v in sorted(p["provers"].items())))}</p>',
           table(("function", "proved", "total", "status"),
                 (_function_row(fn, f) for fn, f in sorted(p["functions"].items())))]
    if p["unproved"]:
        out.append("<p><b>Unproved goals</b></p><ul>" +
                   "".join(f"<li>{esc(u)}</li>" for u in p["unproved"]) + "</ul>")
    return "\n".join(out)


def goal_list(ev):
    """The list of goals per requirement (spec/proof-goals.md) against this run: stale rows
    (failures) and the goals that cite a requirement without being listed (no credit)."""
    pl = ev.get("proof_list")
    if not pl:
        return ""
    out = [f'<p id="goal-list">Proof credit: {pl["credited"]} of {pl["rows"]} rows of '
           f'<code>{esc(pl["file"])}</code> credit their goals to a requirement; a goal counts '
           f'as proof of a requirement only through such a row (spec/report.md).</p>']
    if not pl["checked"]:
        out.append(f'<p>{badge("none", "not checked")} {esc(pl.get("why", "no fresh proofs.json"))}</p>')
    if pl["stale"]:
        out.append('<p><b>Stale rows</b> (match no goal: the clause was renamed or removed)</p><ul>'
                   + "".join(f'<li>{badge("fail", "stale")} {esc(x)}</li>' for x in pl["stale"]) + "</ul>")
    if pl["unlisted"]:
        out.append('<details open><summary>Goals citing a requirement that no row lists (no credit: '
                   'list them or rename them)</summary><ul>' + "".join(
                       f'<li id="unlisted-{esc(rid)}">{badge("unlisted", rid)} '
                       + esc(", ".join(gs)) + "</li>" for rid, gs in sorted(pl["unlisted"].items()))
                   + "</ul></details>")
    return "\n".join(out)


def _function_row(fn, f):
    f = f if isinstance(f, dict) else {}
    proved = f.get("total") and f.get("proved") == f.get("total")
    return row((esc(fn), esc(f.get("proved")), esc(f.get("total")),
                badge("pass" if proved else "fail")))


def tests_table(ev):
    t = ev["tests"]
    if t is None:
        return unavailable(ev, "tests")
    out = [table(("group", "passed", "failed", "skipped"),
                 (_group_row(s["suite"], t["cases"]) for s in t["suites"]))]
    bad = [c for c in t["cases"] if c["status"] != "pass"]
    if bad:
        out.append("<details open><summary>Failed and skipped cases</summary><ul>" + "".join(
            f'<li>{badge(c["status"])} {esc(c["name"])} <span class="ref">{esc(c["detail"])}</span></li>'
            for c in bad) + "</ul></details>")
    out.append("<details><summary>All cases</summary><ul>" + "".join(
        f'<li>{badge(c["status"])} {esc(c["name"])}</li>' for c in t["cases"]) + "</ul></details>")
    return "\n".join(out)


def _group_row(suite, cases):
    mine = [c for c in cases if c["suite"] == suite]
    return row([esc(suite)] + [sum(c["status"] == k for c in mine) for k in ("pass", "fail", "skip")])


def _barrier(b):
    if not isinstance(b, dict):
        return "—"
    return (badge("pass" if b.get("passed") else "fail", "barriers found" if b.get("passed") else "missing")
            + (" " + badge("pass", "relaxed build rejected") if b.get("relaxed_build_rejected")
               else " " + badge("fail", "relaxed build NOT rejected") if "relaxed_build_rejected" in b else ""))


def cross_table(ev):
    c, b = ev["cross"], ev["bench"]
    out = [unavailable(ev, "cross", "cross: ") if c is None else
           table(("target", "triple", "compiler", "built", "runner", "passed", "failed",
                  "barrier check", "status"), (_target_row(t) for t in c)),
           "<h3>Benchmarks</h3>",
           unavailable(ev, "bench", "bench: ") if b is None else
           table(("benchmark", "value", "unit", "baseline", "ratio"),
                 (row(esc(x.get(k)) for k in ("name", "value", "unit", "baseline", "ratio"))
                  for x in b))]
    return "\n".join(out)


def _target_row(t):
    return row([esc(t.get(k)) for k in ("target", "triple", "compiler", "built", "runner",
                                        "passed", "failed")]
               + [_barrier(t.get("barrier")), badge("pass" if t["ok"] else "fail")])


EFFECT = {"enter": "→ store buffer", "store": "store", "load": "load", "atomic": "on memory (locked/fenced)",
          "other": ""}


def timeline(tl, idx):
    head = (f'<h3 id="tl-{idx}">{esc(tl["run"])}</h3><p>{esc(" ".join(tl.get("requirements", [])))} — '
            f'expected {esc(tl.get("expected"))}, result {esc(tl.get("result"))}; trail '
            f'<code>{esc(tl.get("trail"))}</code></p>')
    if tl.get("missing"):
        return head + f'<p>{badge("missing", "trail file not found")}</p>'
    n = tl["cpus"]
    notes = []
    if tl.get("inferred"):
        ex = tl.get("explicit", [])
        notes.append("A store enters its CPU's buffer when its step runs in a buffering primitive of "
                     "promela/mm/ (mm_store, mm_unlock, …); "
                     + ("it leaves when the trail prints FLUSH." if "flush" in ex else
                        "it leaves when the CPU's flusher process moves (the entry its walk selects)."))
    notes += tl.get("notes", [])
    rows = ['<table class="tl"><tr><th>#</th>' + "".join(f"<th>CPU{c}</th>" for c in range(n))
            + '<th>memory</th></tr>']
    k = 0
    for s in tl["steps"]:
        if s["kind"] == "print":
            continue
        k += 1
        cells = [""] * n
        mem = ""
        bufs = s.get("buffers", {})
        if s["kind"] == "step" and s["cpu"] is not None and s["cpu"] < n:
            eff = s.get("effect", "")
            cls = "enter" if eff == "enter" else ""
            what = EFFECT.get(eff, eff) + (f' {s["read"]}' if s.get("read") else "")
            cells[s["cpu"]] = (f'<div class="{cls}"><b>{esc(s.get("store") or s["step"])}</b> <span class="effect">'
                               f'{esc(what)}</span></div>')
            if eff == "atomic":
                mem = f'{esc(s["step"])} (CPU{s["cpu"]}) acts on memory'
        elif s["kind"] == "late" and s["cpu"] is not None and s["cpu"] < n:
            cells[s["cpu"]] = f'<div>{esc(s["text"])}</div>'
        elif s["kind"] in ("flush", "enter") and s["cpu"] is not None and s["cpu"] < n:
            if s["kind"] == "flush":
                mem = f'<div class="flush">{esc(s["text"])} — now visible to all CPUs</div>'
            else:
                cells[s["cpu"]] = f'<div class="enter">{esc(s["text"])}</div>'
        else:
            rows.append(f'<tr class="{esc(s["kind"])}"><td>{k}</td><td colspan="{n + 1}">{esc(s["text"])}</td></tr>')
            continue
        for c in range(n):
            q = bufs.get(str(c))
            if q:
                cells[c] += f'<div class="sb">buffer: {esc(", ".join(q))}</div>'
        rows.append(f"<tr><td>{k}</td>" + "".join(f"<td>{x}</td>" for x in cells)
                    + f'<td class="mem">{mem}</td></tr>')
    rows.append("</table>")
    return head + "".join(f'<p class="ref">{esc(x)}</p>' for x in notes) + "\n".join(rows)


def generic(x, depth=0):
    """A result of a format this page does not know in detail, as tables."""
    if isinstance(x, list) and x and all(isinstance(r, dict) for r in x):
        cols = []
        for r in x:
            cols += [k for k, v in r.items() if k not in cols and not isinstance(v, (dict, list))]
        cols = cols[:12]
        return ("<table><tr>" + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>"
                + "".join("<tr>" + "".join(f"<td>{esc(r.get(c))}</td>" for c in cols) + "</tr>" for r in x[:300])
                + "</table>" + (f"<p>… {len(x) - 300} more rows in the file</p>" if len(x) > 300 else ""))
    if isinstance(x, dict) and depth < 2:
        flat = [(k, v) for k, v in x.items() if not isinstance(v, (dict, list))]
        out = ("<table>" + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in flat) + "</table>") if flat else ""
        for k, v in x.items():
            if isinstance(v, (dict, list)) and v:
                out += f"<h4>{esc(k)}</h4>" + generic(v, depth + 1)
        return out
    return f"<pre>{esc(str(x)[:2000])}</pre>"


def others(ev):
    out = []
    for n, title in (("race", "Hardware race rounds (race.json)"), ("conformance", "Model ↔ code conformance"),
                     ("mutants", "Mutation campaign"), ("scale", "Model scale")):
        data = ev["race"] if n == "race" else ev["other"][n]
        out.append(f"<h3>{esc(title)}</h3>")
        out.append(generic(data) if data is not None else
                   unavailable(ev, "bench" if n == "race" else n))
    return "\n".join(out)


GROUPS = [("counterexample", "Counterexamples", True,
           "Each violation SPIN found, drawn as a timeline: a column per CPU, one for memory, a row "
           "per step. A store enters its CPU's buffer (orange) and becomes visible when it reaches "
           "memory (green)."),
          ("litmus", "Litmus tests: relaxed outcomes the memory model allows", False,
           "Each trail shows how the relaxed outcome comes about; the real architecture allows it too."),
          ("probe", "Non-vacuity probes: interesting states the model reaches", False,
           "A probe \"violates\" when the state it looks for is reachable: these show that the "
           "properties that hold are not vacuous.")]


def timelines(tls):
    out = []
    for g, title, open_, intro in GROUPS:
        sel = [(i, t) for i, t in enumerate(tls) if t.get("group", "counterexample") == g]
        if not sel and g != "counterexample":
            continue
        body = (f"<p>{esc(intro)}</p>"
                + ("<ul>" + "".join(f'<li><a href="#tl-{i}">{esc(t["run"])}</a></li>' for i, t in sel) + "</ul>"
                   if sel else "<p>no trail</p>")
                + "\n".join(timeline(t, i) for i, t in sel))
        out.append(f'<h2 id="g-{g}">{esc(title)} (<span id="n-{g}">{len(sel)}</span>)</h2>'
                   + (body if open_ else f"<details><summary>show {len(sel)}</summary>{body}</details>"))
    return "\n".join(out)


def tcb(ev):
    out = []
    rows = ev["tcb"]
    if rows:
        out.append("<table>" + f"<tr>{''.join(f'<th>{md_inline(c)}</th>' for c in rows[0])}</tr>"
                   + "".join(f"<tr>{''.join(f'<td>{md_inline(c)}</td>' for c in r)}</tr>" for r in rows[1:])
                   + "</table>")
    else:
        out.append(f"<p>{badge('missing', 'spec/tcb.md not found')}</p>")
    p = ev["proofs"]
    out.append("<h3>Contracts assumed by the proofs</h3>")
    if p is None:
        out.append(f'<p>{badge(ev["producers"]["proofs"]["status"])} proof results not available</p>')
    elif not p["assumptions"]:
        out.append("<p>none listed in proofs.json</p>")
    else:
        out.append("<ul>" + "".join(f"<li>{_assumption(a)}</li>" for a in p["assumptions"])
                   + "</ul>")
    return "\n".join(out)


def _assumption(a):
    """One assumed contract: the function and its clauses (or the entry as it stands)."""
    if isinstance(a, dict) and "function" in a:
        clauses = a.get("clauses") or []
        return (f"<b>{esc(a['function'])}</b>: "
                + "; ".join(esc(c if not isinstance(c, dict) else c.get("property", c)) for c in clauses))
    return esc(a)


def environment(ev):
    en = ev["environment"]
    rows = [f"<tr><td>commit</td><td><code>{esc(en.get('commit'))}</code>{' (with uncommitted changes)' if en.get('dirty') else ''}</td></tr>",
            f"<tr><td>generated</td><td>{esc(ev['generated'])}</td></tr>"]
    for k, v in sorted(en.get("tools", {}).items()):
        rows.append(f"<tr><td>{esc(k)}</td><td>{esc(v) if v else badge('missing', 'not installed')}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def render(ev):
    tls = ev["timelines"]
    TL_INDEX.clear()
    TL_INDEX.update({t["run"]: i for i, t in enumerate(tls) if not t.get("missing")})
    probs = ev["problems"] + [f"trace: {x}" for x in ev.get("trace_problems", [])]
    body = [
        "<h1>irqsync — evidence</h1>",
        f'<p class="meta">commit <code>{esc(ev["environment"].get("commit"))}</code>, generated '
        f'{esc(ev["generated"])}. Only results produced from the current sources are counted '
        f'(spec/report.md).</p>',
        verdict_cards(ev),
        "<h2>Results and their freshness</h2>", producers(ev),
        "<h2>Traceability matrix</h2>",
        "<p>Each requirement with the model runs, proofs and tests that cite it, and their status. "
        "Verified = every machine-checkable method its Verify field names has passing evidence and "
        "nothing citing it failed. Red: failed or no evidence. An expected failure (a model run "
        "expected to violate, a test that must fail) that fails as expected is listed under "
        "&ldquo;shown able to fail&rdquo;: it shows the check can fail, and is never counted as "
        "support for the requirement. The proof column credits only the goals "
        "<code>spec/proof-goals.md</code> lists for the requirement (rows marked <i>cited</i> "
        "cite it without showing it); the test column counts only cases of the test groups "
        "(foundation, unit, examples, stress, port, cross, conformance, mutants): a case of the "
        "model, proof or refinement groups checks a checker, not the requirement.</p>", matrix(ev),
        timelines(tls),
        "<h2>Model runs</h2>", model_table(ev),
        "<h2>Proofs</h2>", goal_list(ev), proofs_table(ev),
        "<h2>Tests</h2>", tests_table(ev),
        "<h2>Cross targets</h2>", cross_table(ev),
        "<h2>Other results</h2>", others(ev),
        "<h2>Assumptions and trusted base</h2>", tcb(ev),
        "<h2>Environment</h2>", environment(ev),
        "<h2>Problems</h2>", ("<ul>" + "".join(f"<li>{esc(p)}</li>" for p in probs) + "</ul>")
        if probs else "<p>none</p>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>irqsync evidence</title>"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")

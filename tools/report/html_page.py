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
.ref{color:#666;font-size:11px}
.tl td{min-width:160px;font-size:12px}.tl td:first-child{min-width:2em;width:2em}.tl td.mem{background:#f4f4ff}
.tl .enter{border-left:4px solid #c98a00}.tl .flush{border-left:4px solid #2a7d2a}
.tl .sb{color:#8a5a00;font-size:11px}.tl tr.error td{background:#fdecea;font-weight:700}
.tl .effect{color:#666;font-size:11px}
details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
"""


def e(x):
    return html.escape("" if x is None else str(x))


def badge(status, text=None):
    return f'<span class="b {e(status)}">{e(text or status)}</span>'


def md_inline(s):
    """`code` and **bold** of the spec's markdown, everything else escaped."""
    out = e(s)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


def state_word(status):
    return "not run" if status == "missing" else status


def card(cid, label, num, den, good, sub="", state=None):
    if num is None:
        st, why = state or ("missing", "")
        why = why if len(why) <= 140 else why[:137] + "…"
        return (f'<div class="card bad" id="{cid}"><div class="n" id="{cid}-state">{e(state_word(st))}</div>'
                f'<div class="l">{e(label)}</div><div class="l why">{e(why)}</div></div>')
    cls = "good" if good else "bad"
    return (f'<div class="card {cls}" id="{cid}"><div class="n"><span id="{cid}-num">{num}</span> / '
            f'<span id="{cid}-den">{den}</span></div><div class="l">{e(label)}</div>'
            f'<div class="l">{sub}</div></div>')


def verdict_cards(ev):
    v, p = ev["verdict"], ev["producers"]
    st = lambda n: (p[n]["status"] if p[n]["status"] != "fresh" else "invalid", p[n]["reason"])
    out = ['<div class="cards">']
    r = v["requirements"]
    out.append(card("v-req", "requirements verified", r and r["verified"], r and r["total"],
                    bool(r) and r["verified"] == r["total"],
                    (f'<span id="v-req-partial">{r["partial"]}</span> partial, '
                     f'<span id="v-req-failed">{r["failed"]}</span> failed, '
                     f'<span id="v-req-none">{r["none"]}</span> without evidence') if r else "", st("trace")))
    g = v["goals"]
    out.append(card("v-goals", "proof goals proved", g and g["proved"], g and g["total"],
                    bool(g) and g["proved"] == g["total"] and g["total"] > 0,
                    f'<span id="v-goals-assumptions">{g["assumptions"]}</span> assumed contracts'
                    if g else "", st("proofs")))
    m = v["model"]
    out.append(card("v-model", "model runs as expected", m and m["as_expected"], m and m["total"],
                    bool(m) and m["as_expected"] == m["total"] and m["total"] > 0,
                    f'{m["protocol"]} protocol, {m["litmus"]} litmus, {m["expected_violations"]} '
                    f'expected violations' if m else "", st("model")))
    t = v["tests"]
    out.append(card("v-tests", "tests passed", t and t["passed"], t and t["total"],
                    bool(t) and t["failed"] == 0 and t["passed"] > 0,
                    f'<span id="v-tests-failed">{t["failed"]}</span> failed, '
                    f'<span id="v-tests-skipped">{t["skipped"]}</span> skipped' if t else "", st("tests")))
    c = v["targets"]
    out.append(card("v-targets", "cross targets passing", c and c["ok"], c and c["total"],
                    bool(c) and c["ok"] == c["total"] and c["total"] > 0, "", st("cross")))
    out.append(card("v-fresh", "results fresh", v["fresh"], v["producers"],
                    v["fresh"] == v["producers"]))
    out.append("</div>")
    return "\n".join(out)


def producers(ev):
    rows = ["<table><tr><th>result</th><th>make target</th><th>status</th><th>producer exit</th>"
            "<th>stamped</th><th>why</th></tr>"]
    for n, p in sorted(ev["producers"].items()):
        rows.append(f'<tr id="prod-{e(n)}"><td>{e(n)}</td><td><code>make {e(p["target"])}</code></td>'
                    f'<td>{badge(p["status"])}</td><td>{e(p["rc"])}</td><td>{e(p["stamped"])}</td>'
                    f'<td>{e(p["reason"])}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


TL_INDEX = {}  # run label -> timeline anchor, set by render()


def _name(x):
    i = TL_INDEX.get(x["name"]) if x["method"] == "model" else None
    return e(x["name"]) + (f' <a href="#tl-{i}">timeline</a>' if i is not None else "")


def _items(r, methods):
    """One matrix cell: failures listed in full, passes counted with a few names and the rest
    behind a <details>, then what is missing."""
    its = [x for x in r["items"] if x["method"] in methods]
    out = []
    for st in ("fail", "assumed", "none", "skip"):
        for x in (x for x in its if x["status"] == st):
            out.append(f'{badge(st)} {_name(x)} <span class="ref">{e(x.get("detail", ""))}</span>')
    ok = [x for x in its if x["status"] == "pass"]
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
                f' <span class="ref">cited at {e(", ".join(refs[:3]))}{" …" if len(refs) > 3 else ""}</span>'
                if refs else ' <span class="ref">not cited anywhere</span>'))
    if not its and refs and not any(m in r["methods"] for m in methods):
        out.append(f'<span class="ref">cited at {e(", ".join(refs[:3]))}</span>')
    return "<br>".join(out)


def matrix(ev):
    reqs = ev["requirements"]
    if not reqs:
        return (f'<p class="card bad">No requirement table: trace.json is '
                f'{e(ev["producers"]["trace"]["status"])} — {e(ev["producers"]["trace"]["reason"])}</p>')
    rows = ['<table id="matrix"><tr><th>requirement</th><th>status</th><th>model</th><th>proof</th>'
            '<th>tests / lint</th><th>review, code</th></tr>']
    for rid, r in reqs.items():
        rev = r["refs"].get("doc", []) + r["refs"].get("code", [])
        rows.append(
            f'<tr class="r-{e(r["status"])}" id="req-{e(rid)}"><td><b>{e(rid)}</b><br>{e(r["title"])}'
            f'<div class="ref">verify: {e(", ".join(r["methods"]) or "—")}</div></td>'
            f'<td>{badge(r["status"], "no evidence" if r["status"] == "none" else r["status"])}</td>'
            f'<td>{_items(r, ("model",))}</td><td>{_items(r, ("proof",))}</td>'
            f'<td>{_items(r, ("test", "lint"))}</td>'
            f'<td class="ref">{"review" if "review" in r["methods"] else ""} '
            f'{e(", ".join(rev[:3]))}{" …" if len(rev) > 3 else ""}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def model_table(ev):
    m = ev["model"]
    if m is None:
        return f'<p>{badge(ev["producers"]["model"]["status"])} {e(ev["producers"]["model"]["reason"])}</p>'
    rows = ["<table><tr><th>kind</th><th>run</th><th>variant</th><th>memory model</th><th>config</th>"
            "<th>property</th><th>requirements</th><th>expected</th><th>result</th><th>exhaustive</th>"
            "<th>states</th><th>transitions</th><th>depth</th><th>MB</th><th>s</th></tr>"]
    for r in m:
        c = r.get("config") or {}
        rows.append(
            f'<tr><td>{e(r["kind"])}</td><td>{e(r.get("name"))}</td><td>{e(r.get("variant"))}</td>'
            f'<td>{e(r.get("memory_model"))}</td><td>{e(" ".join(f"{k}={v}" for k, v in c.items()))}</td>'
            f'<td>{e(r.get("property"))}</td><td>{e(" ".join(r["requirements"]))}</td>'
            f'<td>{e(r.get("expected"))}</td><td>{badge("pass" if r["as_expected"] else "fail", r.get("result"))}</td>'
            f'<td>{e(r.get("exhaustive"))}</td><td>{e(r.get("states"))}</td><td>{e(r.get("transitions"))}</td>'
            f'<td>{e(r.get("depth"))}</td><td>{e(r.get("memory_mb"))}</td><td>{e(r.get("seconds"))}</td></tr>')
    rows.append("</table>")
    return "\n".join(rows)


def proofs_table(ev):
    p = ev["proofs"]
    if p is None:
        return f'<p>{badge(ev["producers"]["proofs"]["status"])} {e(ev["producers"]["proofs"]["reason"])}</p>'
    out = [f'<p>provers: {e(", ".join(f"{k}: {v}" for k, v in sorted(p["provers"].items())))}</p>',
           "<table><tr><th>function</th><th>proved</th><th>total</th><th>status</th></tr>"]
    for fn, f in sorted(p["functions"].items()):
        f = f if isinstance(f, dict) else {}
        ok = f.get("total") and f.get("proved") == f.get("total")
        out.append(f'<tr><td>{e(fn)}</td><td>{e(f.get("proved"))}</td><td>{e(f.get("total"))}</td>'
                   f'<td>{badge("pass" if ok else "fail")}</td></tr>')
    out.append("</table>")
    if p["unproved"]:
        out.append("<p><b>Unproved goals</b></p><ul>" +
                   "".join(f"<li>{e(u)}</li>" for u in p["unproved"]) + "</ul>")
    return "\n".join(out)


def tests_table(ev):
    t = ev["tests"]
    if t is None:
        return f'<p>{badge(ev["producers"]["tests"]["status"])} {e(ev["producers"]["tests"]["reason"])}</p>'
    out = ["<table><tr><th>group</th><th>passed</th><th>failed</th><th>skipped</th></tr>"]
    for s in t["suites"]:
        cs = [c for c in t["cases"] if c["suite"] == s["suite"]]
        n = {k: sum(c["status"] == k for c in cs) for k in ("pass", "fail", "skip")}
        out.append(f'<tr><td>{e(s["suite"])}</td><td>{n["pass"]}</td><td>{n["fail"]}</td><td>{n["skip"]}</td></tr>')
    out.append("</table>")
    bad = [c for c in t["cases"] if c["status"] != "pass"]
    if bad:
        out.append("<details open><summary>Failed and skipped cases</summary><ul>" + "".join(
            f'<li>{badge(c["status"])} {e(c["name"])} <span class="ref">{e(c["detail"])}</span></li>'
            for c in bad) + "</ul></details>")
    out.append("<details><summary>All cases</summary><ul>" + "".join(
        f'<li>{badge(c["status"])} {e(c["name"])}</li>' for c in t["cases"]) + "</ul></details>")
    return "\n".join(out)


def _barrier(b):
    if not isinstance(b, dict):
        return "—"
    return (badge("pass" if b.get("passed") else "fail", "barriers found" if b.get("passed") else "missing")
            + (" " + badge("pass", "relaxed build rejected") if b.get("relaxed_build_rejected")
               else " " + badge("fail", "relaxed build NOT rejected") if "relaxed_build_rejected" in b else ""))


def cross_table(ev):
    out = []
    c = ev["cross"]
    if c is None:
        out.append(f'<p>cross: {badge(ev["producers"]["cross"]["status"])} {e(ev["producers"]["cross"]["reason"])}</p>')
    else:
        out.append("<table><tr><th>target</th><th>triple</th><th>compiler</th><th>built</th><th>runner</th>"
                   "<th>passed</th><th>failed</th><th>barrier check</th><th>status</th></tr>")
        for t in c:
            out.append(f'<tr><td>{e(t.get("target"))}</td><td>{e(t.get("triple"))}</td><td>{e(t.get("compiler"))}</td>'
                       f'<td>{e(t.get("built"))}</td><td>{e(t.get("runner"))}</td><td>{e(t.get("passed"))}</td>'
                       f'<td>{e(t.get("failed"))}</td><td>{_barrier(t.get("barrier"))}</td>'
                       f'<td>{badge("pass" if t["ok"] else "fail")}</td></tr>')
        out.append("</table>")
    b = ev["bench"]
    out.append("<h3>Benchmarks</h3>")
    if b is None:
        out.append(f'<p>bench: {badge(ev["producers"]["bench"]["status"])} {e(ev["producers"]["bench"]["reason"])}</p>')
    else:
        out.append("<table><tr><th>benchmark</th><th>value</th><th>unit</th><th>baseline</th><th>ratio</th></tr>"
                   + "".join(f'<tr><td>{e(x.get("name"))}</td><td>{e(x.get("value"))}</td><td>{e(x.get("unit"))}</td>'
                             f'<td>{e(x.get("baseline"))}</td><td>{e(x.get("ratio"))}</td></tr>' for x in b)
                   + "</table>")
    return "\n".join(out)


EFFECT = {"enter": "→ store buffer", "store": "store", "load": "load", "atomic": "on memory (locked/fenced)",
          "other": ""}


def timeline(tl, idx):
    head = (f'<h3 id="tl-{idx}">{e(tl["run"])}</h3><p>{e(" ".join(tl.get("requirements", [])))} — '
            f'expected {e(tl.get("expected"))}, result {e(tl.get("result"))}; trail '
            f'<code>{e(tl.get("trail"))}</code></p>')
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
            cells[s["cpu"]] = (f'<div class="{cls}"><b>{e(s.get("store") or s["step"])}</b> <span class="effect">'
                               f'{e(what)}</span></div>')
            if eff == "atomic":
                mem = f'{e(s["step"])} (CPU{s["cpu"]}) acts on memory'
        elif s["kind"] == "late" and s["cpu"] is not None and s["cpu"] < n:
            cells[s["cpu"]] = f'<div>{e(s["text"])}</div>'
        elif s["kind"] in ("flush", "enter") and s["cpu"] is not None and s["cpu"] < n:
            if s["kind"] == "flush":
                mem = f'<div class="flush">{e(s["text"])} — now visible to all CPUs</div>'
            else:
                cells[s["cpu"]] = f'<div class="enter">{e(s["text"])}</div>'
        else:
            rows.append(f'<tr class="{e(s["kind"])}"><td>{k}</td><td colspan="{n + 1}">{e(s["text"])}</td></tr>')
            continue
        for c in range(n):
            q = bufs.get(str(c))
            if q:
                cells[c] += f'<div class="sb">buffer: {e(", ".join(q))}</div>'
        rows.append(f"<tr><td>{k}</td>" + "".join(f"<td>{x}</td>" for x in cells)
                    + f'<td class="mem">{mem}</td></tr>')
    rows.append("</table>")
    return head + "".join(f'<p class="ref">{e(x)}</p>' for x in notes) + "\n".join(rows)


def generic(x, depth=0):
    """A result of a format this page does not know in detail, as tables."""
    if isinstance(x, list) and x and all(isinstance(r, dict) for r in x):
        cols = []
        for r in x:
            cols += [k for k, v in r.items() if k not in cols and not isinstance(v, (dict, list))]
        cols = cols[:12]
        return ("<table><tr>" + "".join(f"<th>{e(c)}</th>" for c in cols) + "</tr>"
                + "".join("<tr>" + "".join(f"<td>{e(r.get(c))}</td>" for c in cols) + "</tr>" for r in x[:300])
                + "</table>" + (f"<p>… {len(x) - 300} more rows in the file</p>" if len(x) > 300 else ""))
    if isinstance(x, dict) and depth < 2:
        flat = [(k, v) for k, v in x.items() if not isinstance(v, (dict, list))]
        out = ("<table>" + "".join(f"<tr><td>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in flat) + "</table>") if flat else ""
        for k, v in x.items():
            if isinstance(v, (dict, list)) and v:
                out += f"<h4>{e(k)}</h4>" + generic(v, depth + 1)
        return out
    return f"<pre>{e(str(x)[:2000])}</pre>"


def others(ev):
    out = []
    for n, title in (("race", "Hardware race rounds (race.json)"), ("conformance", "Model ↔ code conformance"),
                     ("mutants", "Mutation campaign"), ("scale", "Model scale")):
        data = ev["race"] if n == "race" else ev["other"][n]
        p = ev["producers"]["bench" if n == "race" else n]
        out.append(f"<h3>{e(title)}</h3>")
        out.append(generic(data) if data is not None else f'<p>{badge(p["status"])} {e(p["reason"])}</p>')
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
        body = (f"<p>{e(intro)}</p>"
                + ("<ul>" + "".join(f'<li><a href="#tl-{i}">{e(t["run"])}</a></li>' for i, t in sel) + "</ul>"
                   if sel else "<p>no trail</p>")
                + "\n".join(timeline(t, i) for i, t in sel))
        out.append(f'<h2 id="g-{g}">{e(title)} (<span id="n-{g}">{len(sel)}</span>)</h2>'
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
        def one(a):
            if isinstance(a, dict) and "function" in a:
                cl = a.get("clauses") or []
                return (f"<b>{e(a['function'])}</b>: "
                        + "; ".join(e(c if not isinstance(c, dict) else c.get("property", c)) for c in cl))
            return e(a)
        out.append("<ul>" + "".join(f"<li>{one(a)}</li>" for a in p["assumptions"]) + "</ul>")
    return "\n".join(out)


def environment(ev):
    en = ev["environment"]
    rows = [f"<tr><td>commit</td><td><code>{e(en.get('commit'))}</code>{' (with uncommitted changes)' if en.get('dirty') else ''}</td></tr>",
            f"<tr><td>generated</td><td>{e(ev['generated'])}</td></tr>"]
    for k, v in sorted(en.get("tools", {}).items()):
        rows.append(f"<tr><td>{e(k)}</td><td>{e(v) if v else badge('missing', 'not installed')}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def render(ev):
    tls = ev["timelines"]
    TL_INDEX.clear()
    TL_INDEX.update({t["run"]: i for i, t in enumerate(tls) if not t.get("missing")})
    probs = ev["problems"] + [f"trace: {x}" for x in ev.get("trace_problems", [])]
    body = [
        "<h1>irqsync — evidence</h1>",
        f'<p class="meta">commit <code>{e(ev["environment"].get("commit"))}</code>, generated '
        f'{e(ev["generated"])}. Only results produced from the current sources are counted '
        f'(spec/report.md).</p>',
        verdict_cards(ev),
        "<h2>Results and their freshness</h2>", producers(ev),
        "<h2>Traceability matrix</h2>",
        "<p>Each requirement with the model runs, proofs and tests that cite it, and their status. "
        "Verified = every machine-checkable method its Verify field names has passing evidence and "
        "nothing citing it failed. Red: failed or no evidence.</p>", matrix(ev),
        timelines(tls),
        "<h2>Model runs</h2>", model_table(ev),
        "<h2>Proofs</h2>", proofs_table(ev),
        "<h2>Tests</h2>", tests_table(ev),
        "<h2>Cross targets</h2>", cross_table(ev),
        "<h2>Other results</h2>", others(ev),
        "<h2>Assumptions and trusted base</h2>", tcb(ev),
        "<h2>Environment</h2>", environment(ev),
        "<h2>Problems</h2>", ("<ul>" + "".join(f"<li>{e(p)}</li>" for p in probs) + "</ul>")
        if probs else "<p>none</p>",
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>irqsync evidence</title>"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")

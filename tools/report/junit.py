"""junit.xml: every model run, litmus test, proof function, test case and cross target as a
test case; every producer's freshness too, so a stale or missing result is red on a dashboard."""
import re
import xml.etree.ElementTree as ET


BAD_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(s):
    """Text XML 1.0 can carry (a test's detail may hold terminal escapes)."""
    return None if s is None else BAD_XML.sub("?", str(s))


def _case(suite, classname, name, seconds=0, failure=None, skipped=None, out=None):
    classname, name, failure, skipped, out = map(_xml_text, (classname, name, failure, skipped, out))
    c = ET.SubElement(suite, "testcase", classname=classname, name=name,
                      time=f"{float(seconds or 0):.2f}")
    if failure:
        ET.SubElement(c, "failure", message=failure[:300]).text = failure
    elif skipped is not None:
        ET.SubElement(c, "skipped", message=skipped[:300])
    if out:
        ET.SubElement(c, "system-out").text = out
    return c


def _suite(root, name):
    return ET.SubElement(root, "testsuite", name=name)


def render(ev):
    root = ET.Element("testsuites", name="irqsync evidence")
    s = _suite(root, "evidence")
    for n, p in sorted(ev["producers"].items()):
        if p.get("optional") and p["status"] == "missing":
            continue  # optional (bench, mutants, scale: not run by `make`): counted once present
        _case(s, "evidence", f"{n} result is fresh",
              failure=None if p["status"] == "fresh" else f"{p['status']}: {p['reason']}")
    for kind in ("protocol", "litmus"):
        s = _suite(root, "model" if kind == "protocol" else "litmus")
        for r in ev["model"] or []:
            if (r["kind"] == "litmus") != (kind == "litmus"):
                continue
            knob = f"{r['knob']}={r.get('value')}" if r.get("knob") else None   # saturation rows
            name = " ".join(str(x) for x in (r.get("name"), r.get("variant"), r.get("memory_model"), knob)
                            if x) + (f" [{' '.join(r['requirements'])}]" if r["requirements"] else "")
            info = (f"expected {r.get('expected')}, result {r.get('result')}, exhaustive "
                    f"{r.get('exhaustive')}, states {r.get('states')}, depth {r.get('depth')}")
            _case(s, kind, name, r.get("seconds"), None if r["as_expected"] else info,
                  out=info + (f"\ntrail: {r['trail']}" if r.get("trail") else ""))
    s = _suite(root, "proofs")
    p = ev["proofs"]
    if p:
        for fn, f in sorted(p["functions"].items()):
            f = f if isinstance(f, dict) else {}
            tot, pr = f.get("total", 0), f.get("proved", 0)
            _case(s, "proof", fn, failure=None if tot and pr == tot else f"{pr}/{tot} goals proved")
    s = _suite(root, "tests")
    for c in (ev["tests"] or {}).get("cases", []):
        _case(s, c["suite"], c["name"], c["seconds"],
              failure=(c["detail"] or "failed") if c["status"] not in ("pass", "skip") else None,
              skipped=c["detail"] if c["status"] == "skip" else None)
    s = _suite(root, "cross")
    for t in ev["cross"] or []:
        _case(s, "cross", str(t.get("target")),
              failure=None if t["ok"] else f"built {t.get('built')}, passed {t.get('passed')}, "
                                             f"failed {t.get('failed')}")
    mut = (ev.get("other") or {}).get("mutants")
    if isinstance(mut, list):  # spec/evidence-schema.md: {id, target, description, killed_by:[technique…]}
        s = _suite(root, "mutants")
        for m in mut:
            if isinstance(m, dict):
                _case(s, f"mutant.{m.get('target')}", f"{m.get('id')}: {m.get('description', '')}",
                      failure=None if m.get("killed_by") else "survived: no technique killed it")
    s = _suite(root, "requirements")
    for rid, r in (ev["requirements"] or {}).items():
        missing = [m for m, st in r["method_status"].items() if st != "pass"]
        msg = f"{r['status']}: " + ", ".join(f"{m} {r['method_status'][m]}" for m in missing)
        _case(s, "requirement", f"{rid} {r['title']}",
              failure=msg if r["status"] in ("failed", "none") else None,
              skipped=msg if r["status"] == "partial" else None)
    for s in root:
        cs = list(s)
        s.set("tests", str(len(cs)))
        s.set("failures", str(sum(1 for c in cs if c.find("failure") is not None)))
        s.set("skipped", str(sum(1 for c in cs if c.find("skipped") is not None)))
        s.set("errors", "0")
    root.set("tests", str(sum(int(s.get("tests")) for s in root)))
    root.set("failures", str(sum(int(s.get("failures")) for s in root)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

#!/usr/bin/env python3
"""tools/model/tables.py -- markdown tables from build/evidence/model-scale.json and model.json.

  python3 -m tools.model.tables [build/evidence]     (used for spec/memory-models.md and README)
"""
import argparse, json, os


def thousands(n):
    """A count with thousands separators; a dash for no count."""
    return "–" if n is None else f"{n:,}"


def saturation(rows):
    out = ["| model | bound | CPUs × arrivals | scenario | 1 | 2 | 3 | 4 | 5 |",
           "|---|---|---|---|---|---|---|---|---|"]
    groups = {}
    for r in rows:
        key = (r["memory_model"], r["knob"], r["cpus"], r["arrivals"], r.get("scenario", "sync"))
        groups.setdefault(key, {})[r["value"]] = r
    for (mm, knob, c, a, sc), vals in groups.items():
        cells = []
        for k in range(1, 6):
            r = vals.get(k)
            if not r:
                cells.append("")
                continue
            v2 = r["v2"].get("states")
            v1 = r.get("v1_states_no_asserts")
            mark = "" if r["v1_result"] == "violate" else " (v1 holds!)"
            cells.append(f"{thousands(v2)} / {thousands(v1)}{mark}")
        out.append(f"| {mm} | {knob} | {c} × {a} | {sc} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def table(rows):
    out = []
    for lines in (1, 2):
        for mm in ("tso", "weak"):
            sel = [r for r in rows if r["memory_model"] == mm and r.get("lines", 1) == lines]
            if not sel:
                continue
            out.append(f"\n**{mm.upper()}, {lines} line{'s' if lines > 1 else ''}"
                       f"{' (line 0 shared by 2 handlers)' if lines > 1 else ''}** — states / "
                       "seconds / MB (POR + COLLAPSE; *bitstate* = non-exhaustive)\n")
            out.append("| CPUs | 1 arrival | 2 | 3 | 4 |\n|---|---|---|---|---|")
            for c in range(2, 6):
                cells = []
                for a in range(1, 5):
                    r = next((x for x in sel if x["cpus"] == c and x["arrivals"] == a), None)
                    if not r or r.get("states") is None:
                        cells.append(r.get("detail", "–") if r else "–")
                    elif r.get("exhaustive"):
                        cells.append(f"{thousands(r['states'])} / {r['seconds']} s / {r['memory_mb']:.0f}")
                    else:
                        hf = r.get("hash_factor")
                        cells.append(f"*bitstate* {thousands(r['states'])} / {r['seconds']} s"
                                     + (f", hash factor {hf:g}" if hf else ""))
                out.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.model.tables", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("evidence", metavar="EVIDENCE_DIR", nargs="?", default="build/evidence",
                    help="the directory holding model-scale.json (default: build/evidence)")
    ev = ap.parse_args(argv).evidence
    with open(os.path.join(ev, "model-scale.json")) as f:
        d = json.load(f)
    if "saturation" in d:
        print("### Saturation (v2 states / v1 states without assertions)\n")
        print(saturation(d["saturation"]))
    if "target" in d:
        t = d["target"]
        print(f"\n### Target\nv2, WEAK, SYNC, 4 CPUs × 2 lines (line 0 shared by 2) × 2 arrivals: "
              f"**{t['result']}**, exhaustive={t['exhaustive']}, {thousands(t['states'])} states, "
              f"{thousands(t['transitions'])} transitions, depth {t['depth']}, {t['seconds']} s, "
              f"{t['memory_mb']:.0f} MB ({t['reduction']})")
    if "scenarios" in d:
        print("\n### FREE / DEPTH scenarios (v2, WEAK)\n")
        print("| scenario | CPUs × lines × arrivals × sharers | result | states | s | MB |\n"
              "|---|---|---|---|---|---|")
        for r in d["scenarios"]:
            print(f"| {r['scenario'][5:]} | {r['cpus']} × {r['lines']} × {r['arrivals']} × "
                  f"{r['sharers']} | {r['result']} | {thousands(r.get('states'))} | "
                  f"{r.get('seconds')} | {r.get('memory_mb') or 0:.0f} |")
    if "table" in d:
        print("\n### Scaling table (v2, SYNC scenario)")
        print(table(d["table"]))
    if "frontier" in d:
        print("\n### Frontier (v2 / v1, WEAK, SYNC, line 0 shared by 2; nice -n 15, one run at a "
              "time)\n")
        print("| size | reduction | variant | result | exhaustive | states | transitions | depth "
              "| s | MB |\n|---|---|---|---|---|---|---|---|---|---|")
        for r in d["frontier"]:
            print(f"| {r['size'].replace(' x ', ' × ')} | {r.get('reduction')} | {r['variant']} | "
                  f"{r['result']} | {'yes' if r.get('exhaustive') else 'no'} | "
                  f"{thousands(r.get('states'))} | {thousands(r.get('transitions'))} | {r.get('depth')} | "
                  f"{r.get('seconds')} | {(r.get('memory_mb') or 0):,.0f} |")
    if "symmetry" in d:
        sy = d["symmetry"]
        cmp_ = sy.get("compare", [])
        print(f"\n### Symmetry reduction R14 against the plain model\n\n"
              f"{sum(r['ok'] for r in cmp_)}/{len(cmp_)} comparisons agree (same verdict, same "
              f"violated assertion, never more states); premise monitor "
              f"{sum(r['ok'] for r in sy.get('premise', []))}/{len(sy.get('premise', []))} "
              f"runs without error.\n")
        print("| model | CPUs × lines × arrivals | property | plain | SYMM |\n|---|---|---|---|---|")
        for r in cmp_:
            if r["expected"] == "hold":
                print(f"| {r['memory_model']} | {r['cpus']} × {r['lines']} × {r['arrivals']} | "
                      f"{r['property']} | {r['plain']} {thousands(r['plain_states'])} | "
                      f"{r['symm']} {thousands(r['symm_states'])} |")
        print("\n| cutoff (SYMM, v2 SYNC) | states by NCPU | plain model at the largest |"
              "\n|---|---|---|")
        for c in sy.get("cutoff", []):
            print(f"| {c['memory_model']}, {c['lines']} line(s) × {c['arrivals']} arrivals | "
                  + ", ".join(f"{x['cpus']}: {thousands(x['states'])}" for x in c["runs"])
                  + f" | {thousands(c['plain_at_max'])} |")


if __name__ == "__main__":
    main()

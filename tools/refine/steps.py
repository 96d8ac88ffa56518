"""steps.py - the step map (spec/refinement.yml) is the one source of the step list.

  python3 -m tools.refine.steps            print the step tables of spec/steps.md as the map makes them
  python3 -m tools.refine.steps --write    rewrite them in spec/steps.md (between the markers)

Its copies are generated from the map or held to it exactly by `make refinement`
(tools.refine.check): the tables of spec/steps.md (name, accesses, meaning, section) byte for
byte, the step list of src/core/steps.h in the map's order, and the Promela mtypes as a set.
Adding a step is one entry in the map (with its accesses and meaning), then its C and its model.
"""
import argparse, difflib, os, re, sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP = "spec/refinement.yml"
STEPS_MD = "spec/steps.md"
STEPS_H = "src/core/steps.h"
BEGIN = "<!-- BEGIN step tables: generated from spec/refinement.yml by python3 -m tools.refine.steps --write; edit the map -->"
END = "<!-- END step tables -->"


def access_text(acc):
    """One access of the map as the spec's table shows it."""
    if not acc:
        return "—"
    out = []
    for a in acc:
        t = "%s `%s` %s" % (a["op"], a["object"], a["order"])
        if a.get("only"):
            t += " (%s only)" % ("C" if a["only"] == "c" else "model")
        elif a.get("model_in"):
            t += " (model: %s)" % a["model_in"]
        out.append(t)
    return "; ".join(out)


def tables(rmap):
    """The generated block: a section per step group, a row per step."""
    starts = {g["first"]: g["title"] for g in rmap["step_groups"]}
    steps = rmap["steps"]
    if steps and steps[0]["step"] not in starts:
        raise SystemExit(f"{MAP}: step_groups must start at the first step ({steps[0]['step']})")
    unknown = set(starts) - {s["step"] for s in steps}
    if unknown:
        raise SystemExit(f"{MAP}: step_groups names steps the map lacks: {sorted(unknown)}")
    lines = [BEGIN]
    for s in steps:
        if s["step"] in starts:
            lines += ["", "## " + starts[s["step"]],
                      "| step | accesses (the map: op, object, order) | meaning |", "|---|---|---|"]
        if "meaning" not in s:
            raise SystemExit(f"{MAP}: step {s['step']} has no meaning")
        lines.append("| `%s` | %s | %s |" % (s["step"], access_text(s.get("access")),
                                            " ".join(s["meaning"].split())))
    lines += ["", END]
    return "\n".join(lines) + "\n"


def md_block(text):
    """The generated block of spec/steps.md, or None when the markers are missing."""
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        return None
    return text[i:j + len(END)] + "\n"


def header_steps(text):
    """The step names of IRQSYNC_FOR_EACH_STEP in src/core/steps.h, in order."""
    m = re.search(r"#define IRQSYNC_FOR_EACH_STEP\(S\)((?:[^\n]*\\\n)*[^\n]*)", text)
    return re.findall(r"\bS\((\w+)\)", m.group(1)) if m else []


def load_map(root):
    with open(os.path.join(root, MAP)) as f:
        return yaml.safe_load(f)


def differences(root, rmap):
    """(file, message) for each copy of the step list that is not the map's."""
    out = []
    md = open(os.path.join(root, STEPS_MD)).read()
    want, have = tables(rmap), md_block(md)
    if have is None:
        out.append((STEPS_MD, "the generated step tables' markers are missing"))
    elif have != want:
        diff = list(difflib.unified_diff(have.splitlines(), want.splitlines(),
                                         "spec/steps.md", "the map", lineterm="", n=0))
        out.append((STEPS_MD, "step tables differ from the map (python3 -m tools.refine.steps "
                    "--write):\n  " + "\n  ".join(diff[2:12])))
    order = [s["step"] for s in rmap["steps"]]
    hs = header_steps(open(os.path.join(root, STEPS_H)).read())
    if hs != order:
        k = next((i for i, (a, b) in enumerate(zip(hs, order)) if a != b), min(len(hs), len(order)))
        out.append((STEPS_H, "IRQSYNC_FOR_EACH_STEP is not the map's step list in the map's order "
                    "(first difference at position %d: %s in steps.h, %s in the map)"
                    % (k, hs[k] if k < len(hs) else "end", order[k] if k < len(order) else "end")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--write", action="store_true", help="rewrite the tables in spec/steps.md")
    a = ap.parse_args()
    rmap = load_map(a.root)
    block = tables(rmap)
    if not a.write:
        sys.stdout.write(block)
        return 0
    path = os.path.join(a.root, STEPS_MD)
    text = open(path).read()
    old = md_block(text)
    if old is None:
        raise SystemExit(f"{STEPS_MD}: no {BEGIN!r} ... {END!r} markers to write between")
    with open(path, "w") as f:
        f.write(text.replace(old, block))
    print(f"{STEPS_MD}: step tables {'unchanged' if old == block else 'rewritten'} from {MAP}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Counterexample trail (`spin -t -p` text) -> timeline: a column per CPU, one for memory.

The model prints `STEP <cpu> <NAME>` (spec/steps.md) from inside its memory-model primitives
(promela/mm/). A trail line shows where that printf stands (`tso.pml:46`); the enclosing
`inline mm_store(...)` tells what the step does to memory, so the timeline knows which steps put a
store into the CPU's buffer and which drain it, without the model printing anything else. A
background flusher process (`mm_flusher`) making a move is a buffered store reaching memory.

Explicit markers win over inference: a printf matching one of MARKERS below is taken as stated.
A new marker is one line in MARKERS. Everything is parsed leniently: an unknown line is kept as
raw text and never stops the parse.

  python3 -m tools.report.trail TRAIL MM [ROOT]
      print the timeline of one trail, a row per line (for debugging a model's output and for
      the tests); exit 1 when the parse found inconsistencies, 2 on a usage error
"""
import argparse, os, re, sys

# (kind, regex) — first match wins. Named groups: cpu, step, addr, val. Add a line for a marker.
MARKERS = [
    ("enter", re.compile(r"^(?:SB_ENTER|ENQ)\s+(?P<cpu>\d+)\s+(?:addr=)?(?P<addr>[^=\s]+)\s*(?:=|\s+val=)\s*(?P<val>\S+)")),
    ("flush", re.compile(r"^(?:SB_FLUSH|FLUSH|VISIBLE)\s+(?P<cpu>\d+)\s+addr=(?P<addr>\S+)\s+val=(?P<val>\S+)"
                         r"(?:\s+entry=(?P<entry>\d+))?")),
    ("flush", re.compile(r"^(?:SB_FLUSH|FLUSH|VISIBLE)\s+(?P<cpu>\d+)\s+(?P<addr>[^=\s]+)\s*=\s*(?P<val>\S+)")),
    ("late", re.compile(r"^BIND\s+(?P<cpu>\d+)\s+late load\s*->\s*(?P<val>\S+)")),
    ("step", re.compile(r"^STEP\s+(?P<cpu>\d+)\s+(?P<step>[A-Za-z_]\w*)"
                        r"(?:\s+addr=(?P<addr>\S+)\s+val=(?P<val>\S+))?")),
    ("step", re.compile(r"^STEP\s+(?P<step>[A-Za-z_]\w*)(?:.*?\bcpu=(?P<cpu>\d+))?")),
]
# What the enclosing inline of a STEP printf does to the CPU's store buffer.
PRIM = [
    ("store", re.compile(r"^mm_(store|store_rel|unlock|buffer)\b")),
    ("atomic", re.compile(r"^mm_(lock|xchg|fetch_add\w*|mb|rmw\w*|cas)\b")),
    ("load", re.compile(r"^mm_(load\w*|read)\b")),
]
MOVE = re.compile(r"^\s*(\d+):\s+proc\s+(\d+)\s+\(([^)]*)\)\s+(\S+?):(\d+)\s+\(state\s+\d+\)"
                  r"\s*(?:\[(.*)\])?\s*$")
START = re.compile(r"^Starting (\w+) with pid (\d+)")
TERM = re.compile(r"^\s*\d+:\s+proc\s+\d+\s+terminates")
INLINE = re.compile(r"^\s*inline\s+(\w+)\s*\(")
SB_SET = re.compile(r"^sb_([av])\[[^=]*\] = (\w{1,12})$")


class Sources:
    """Finds the inline that encloses a promela file:line, and the map's access kinds."""

    def __init__(self, root, promela="promela", steps="spec/refinement.yml"):
        self.root, self.promela, self.cache = root, promela, {}
        self.access = {}           # step -> the ops of its accesses in the map (the model's side)
        try:
            import yaml
            with open(os.path.join(root, steps), encoding="utf-8") as f:
                for st in (yaml.safe_load(f) or {}).get("steps", []):
                    self.access[st["step"]] = [a["op"] for a in st.get("access") or []
                                               if a.get("only") != "c"]
        except (OSError, ImportError, ValueError, KeyError, TypeError):
            pass

    def _lines(self, path):
        if path not in self.cache:
            self.cache[path] = None
            base = os.path.basename(path)
            cands = [path, os.path.join(self.root, path), os.path.join(self.root, self.promela, path)]
            for d, _, names in os.walk(os.path.join(self.root, self.promela)):
                if base in names:
                    cands.append(os.path.join(d, base))
            for c in cands:
                if os.path.isfile(c):
                    with open(c, encoding="utf-8", errors="replace") as f:
                        self.cache[path] = f.read().split("\n")
                    break
        return self.cache[path]

    def addr_names(self, paths):
        """{address number: name} from the block of #defines around `#define NADDR` in the
        model files of the trail and the files they include: FLAG, STATUS(0), X, …"""
        names, seen, todo = {}, set(), list(paths)
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            lines = self._lines(p) or []
            for l in lines:
                m = re.match(r'^\s*#include\s+"([^"]+)"', l)
                if m:
                    todo.append(os.path.normpath(os.path.join(os.path.dirname(p), m.group(1))))
            idx = [i for i, l in enumerate(lines) if re.match(r"^\s*#define\s+NADDR\b", l)]
            for i in idx:
                lo = i
                while lo > 0 and lines[lo - 1].lstrip().startswith("#define"):
                    lo -= 1
                hi = i
                while hi + 1 < len(lines) and lines[hi + 1].lstrip().startswith("#define"):
                    hi += 1
                # constants first, then per-line macros (lines 0 and 1: NLINES <= 2)
                for l in sorted(lines[lo:hi + 1], key=lambda l: "(" in l.split()[1] if len(l.split()) > 1 else 0):
                    _define(l, names)
        return names

    def inline_at(self, path, line):
        lines = self._lines(path)
        if not lines:
            return None
        for i in range(min(line, len(lines)) - 1, -1, -1):
            m = INLINE.match(lines[i])
            if m:
                return m.group(1)
            if lines[i].startswith(("proctype", "active", "init", "never", "ltl")):
                return None
        return None

    def effect(self, path, line, step, mm):
        """store / atomic / load / other, from the enclosing inline, else from the map's accesses."""
        prim = self.inline_at(path, line) if path else None
        if prim:
            for kind, rx in PRIM:
                if rx.match(prim):
                    return kind, prim
        ops = self.access.get(step, [])
        if {"fence", "lock", "rmw"} & set(ops):
            return "atomic", None
        if {"unlock", "store"} & set(ops):
            return "store", None
        if "load" in ops:
            return "load", None
        return "other", None


DEFINE = re.compile(r"^\s*#define\s+([A-Z_][A-Z0-9_]*)(?:\((\w+)\))?\s+([^/]*?)\s*(?:/\*.*)?$")


def _define(line, names):
    m = DEFINE.match(line)
    if not m or re.match(r"^N[A-Z]", m.group(1)) or not re.fullmatch(r"[\w\s+*()-]+", m.group(3)):
        return
    name, arg, expr = m.groups()
    for x in (range(2) if arg else [None]):
        e = re.sub(rf"\b{arg}\b", str(x), expr) if arg else expr
        if not re.fullmatch(r"[\d\s+*()-]+", e):
            return
        try:
            v = str(eval(e, {"__builtins__": {}}))  # digits and + - * ( ) only (checked above)
        except (SyntaxError, ValueError, ZeroDivisionError):
            return
        label = f"{name}({x})" if arg else name
        names.setdefault(v, label)


def parse(text, sources, mm="tso"):
    """Return {steps:[…], cpus:n, error, cycle, inferred:bool, notes:[…]}."""
    lines = text.split("\n")
    procs = {}            # pid -> process type name
    flushers = []         # pids of flusher processes, in start order (flusher i serves CPU i)
    pending = []          # printf lines waiting for the move that printed them
    rows, notes = [], []
    error, cycle, buffered = None, False, mm not in ("sc",)
    bufs = {}             # cpu -> list of entries (FIFO)
    kinds = {m[0] for m in _markers(lines)}
    explicit = {"enter": "enter" in kinds, "flush": "flush" in kinds}
    fmove = None          # the flusher move being read
    last_store = {}       # pid -> buffer entry of its latest buffered store
    for raw in lines:
        if raw.startswith("spin: trail ends") or raw.startswith("#processes"):
            break
        m = START.match(raw)
        if m:
            procs[int(m.group(2))] = m.group(1)
            if "flush" in m.group(1).lower():
                flushers.append(int(m.group(2)))
            continue
        if "START OF CYCLE" in raw:
            cycle = True
            rows.append({"kind": "cycle", "cpu": None, "text": "— the run repeats from here (acceptance cycle) —"})
            continue
        if raw.startswith("spin:"):
            if "rror" in raw or "assertion violated" in raw or "invalid end state" in raw or "text of failed" in raw:
                error = (error + "; " if error else "") + raw[5:].strip()
            continue
        if TERM.match(raw):
            continue
        m = MOVE.match(raw)
        if m:
            depth, pid, pname, path, ln, stmt = m.groups()
            pid, ln = int(pid), int(ln)
            procs.setdefault(pid, pname.strip(":").split(":")[0])
            for p in pending:
                _event(p, pid, path, ln, rows, bufs, sources, mm, buffered, explicit)
                if rows and rows[-1].get("effect") == "enter":
                    last_store[pid] = rows[-1]["entry"]
            pending = []
            # the buffered store's address and value, from the assignments that follow it
            sm = SB_SET.match((stmt or "").strip())
            if sm and pid in last_store and sm.group(1) not in last_store[pid]:
                last_store[pid][sm.group(1)] = sm.group(2)
            # a flusher move is an atomic sequence: it may span several step numbers, and
            # it ends when another process moves or the flusher's guard starts the next one
            st = (stmt or "").strip()
            if fmove and (fmove["pid"] != pid or FL_START.match(st)):
                _flush(fmove, rows, bufs, notes)
                fmove = None
            if pid in flushers and not explicit["flush"] and buffered:
                if fmove is None:
                    fmove = {"pid": pid, "cpu": flushers.index(pid), "k": 0, "at": None,
                             "late": False, "depth": depth}
                _flusher_line(fmove, st)
            continue
        s = raw.strip()
        if s.startswith("#"):
            continue  # a comment of a condensed trail
        if s and (raw[:1].isspace() or _is_marker(s)) \
                and not re.match(r"^\w+(\[\d+\])?(\.\w+)* = ", s):
            pending.append(s)
    for p in pending:  # a condensed trail (markers only, no moves): effects from the map
        _event(p, None, "", 0, rows, bufs, sources, mm, buffered, explicit)
    if fmove:
        _flush(fmove, rows, bufs, notes)
    files = sorted({m.group(4) for m in (MOVE.match(l) for l in lines) if m})
    names = sources.addr_names(files) if files else {}
    for r in rows:
        for e in [r.get("entry")] + list(r.get("buffers", {}).values() and
                                         [x for q in r["buffers"].values() for x in q]) + [r.get("flushed")]:
            if isinstance(e, dict) and "a" in e and "an" not in e:
                e["an"] = names.get(e["a"], f"[{e['a']}]")
        if "read" in r and "raddr" in r:
            r["read"] = f"{names.get(r['raddr'], '[' + r['raddr'] + ']')} → {r.pop('rval')}"
            r.pop("raddr")
    for r in rows:
        if "buffers" in r:
            r["buffers"] = {c: [label(e) for e in q] for c, q in r["buffers"].items()}
        if "entry" in r:
            r["store"] = label(r.pop("entry"))
        if "flushed" in r:
            e = r.pop("flushed")
            r["step"] = label(e)
            r["text"] = r["text"].replace("\0", label(e))
    if error:
        rows.append({"kind": "error", "cpu": None, "text": error})
    cpus = 1 + max([r["cpu"] for r in rows if r.get("cpu") is not None] + [len(flushers) - 1, 0])
    return {"steps": rows, "cpus": cpus, "error": error, "cycle": cycle,
            "inferred": buffered and not (explicit["enter"] and explicit["flush"]),
            "explicit": sorted(k for k, v in explicit.items() if v), "notes": notes,
            "processes": {str(k): v for k, v in sorted(procs.items())}}


# A flusher move drains one entry of its CPU's buffer. TSO: the oldest. WEAK (promela/mm/weak.pml)
# walks the buffer with mm_k to the entry that may go first; the value of mm_k when the move
# starts writing memory (mem[…], hist[…], mm_j) is the index of the entry that leaves.
FL_START = re.compile(r"^\(*(sb_n\[\w+\]\s*>\s*0|lt_p\[\w+\])\)*$")
FL_K0 = re.compile(r"^mm_k = 0$")
FL_KINC = re.compile(r"^mm_k = \(mm_k\+1\)$")
FL_COMMIT = re.compile(r"^(mem|hist)\[|^mm_j = ")
FL_LATE = re.compile(r"^\(*lt_p\[")


def _flusher_line(fm, stmt):
    if fm["at"] is not None:
        return
    if FL_LATE.match(stmt):
        fm["late"] = True
    elif FL_K0.match(stmt):
        fm["k"] = 0
    elif FL_KINC.match(stmt):
        fm["k"] += 1
    elif FL_COMMIT.search(stmt):
        fm["at"] = fm["k"]


def _flush(fm, rows, bufs, notes):
    cpu, q = fm["cpu"], bufs.get(fm["cpu"], [])
    if fm["late"] and fm["at"] is None:
        rows.append({"kind": "late", "cpu": cpu, "text": f"CPU{cpu}'s delayed load takes its value",
                     "buffers": _snapshot(bufs)})
        return
    k = fm["at"] or 0
    if k >= len(q):
        notes.append(f"flusher of CPU{cpu} moved at step {fm['depth']} with no (inferred) entry {k}")
        return
    e = q.pop(k)
    rows.append({"kind": "flush", "cpu": cpu, "flushed": e, "inferred": True,
                 "text": f"\0 (CPU{cpu}) reaches memory"
                         + (f" (overtaking {k} older entr{'y' if k == 1 else 'ies'})" if k else ""),
                 "buffers": _snapshot(bufs)})


def _is_marker(s):
    return any(rx.match(s) for _, rx in MARKERS)


def _markers(lines):
    for raw in lines:
        s = raw.strip()
        for kind, rx in MARKERS:
            m = rx.match(s)
            if m:
                yield kind, m
                break


def _snapshot(bufs):
    """The buffers after a row, as entry objects: labels are rendered at the end, once the
    assignments after a store have told its address and value."""
    return {str(c): list(q) for c, q in sorted(bufs.items()) if q}


def label(e):
    if "a" in e and "v" in e:
        return f"{e['step']} {e.get('an', '[' + e['a'] + ']')}={e['v']}"
    return e["step"]


def _take_entry(q, k=None, a=None, v=None):
    """Remove and return (entry, index) from a buffer: entry k if it matches, else the oldest
    entry with that address and value, else the oldest; (None, None) when empty."""
    if not q:
        return None, None
    match = lambda e: (a is None or e.get("a") in (None, a)) and (v is None or e.get("v") in (None, v))
    if k is not None and k < len(q) and match(q[k]):
        return q.pop(k), k
    for i, e in enumerate(q):
        if match(e) and (a is None or e.get("a") == a):
            return q.pop(i), i
    return q.pop(0), 0


def _event(text, pid, path, ln, rows, bufs, sources, mm, buffered, explicit):
    for kind, rx in MARKERS:
        m = rx.match(text)
        if not m:
            continue
        g = m.groupdict()
        cpu = int(g["cpu"]) if g.get("cpu") is not None else None
        if kind == "step":
            step = g["step"]
            eff, prim = sources.effect(path, ln, step, mm)
            row = {"kind": "step", "cpu": cpu, "step": step, "effect": eff, "prim": prim,
                   "where": f"{os.path.basename(path)}:{ln}" if path else None}
            if eff == "load" and g.get("addr") is not None:
                row.update(read="", raddr=g["addr"], rval=g["val"])
            if buffered and not explicit["enter"] and cpu is not None and eff == "store":
                row["entry"] = {"step": step}
                if g.get("addr") is not None:
                    row["entry"].update(a=g["addr"], v=g["val"])
                bufs.setdefault(cpu, []).append(row["entry"])
                row["effect"] = "enter"
            elif eff == "store" and g.get("addr") is not None:
                row["store"] = f"{step} [{g['addr']}]={g['val']}"
            row["buffers"] = _snapshot(bufs)
            rows.append(row)
        elif kind == "enter":
            e = {"step": f"{g['addr']}={g['val']}"}
            bufs.setdefault(cpu, []).append(e)
            rows.append({"kind": "enter", "cpu": cpu, "step": e["step"],
                         "text": f"{g['addr']} = {g['val']} enters the store buffer",
                         "buffers": _snapshot(bufs)})
        elif kind == "flush":
            q = bufs.setdefault(cpu, [])
            k = int(g["entry"]) if g.get("entry") is not None else None
            tag = f"{g['addr']}={g['val']}"
            e, i = _take_entry(q, k, g["addr"], g["val"]) if not explicit["enter"] else \
                _take_entry(q, None, None, None) if tag not in [x["step"] for x in q] else \
                (q.pop([x["step"] for x in q].index(tag)), None)
            row = {"kind": "flush", "cpu": cpu, "buffers": _snapshot(bufs)}
            if e is None or explicit["enter"]:
                row.update(step=tag, text=f"{g['addr']} = {g['val']} (CPU{cpu}) reaches memory")
            else:
                row.update(flushed=e, text=f"\0 (CPU{cpu}) reaches memory"
                           + (f" (overtaking {i} older entr{'y' if i == 1 else 'ies'})" if i else ""))
            rows.append(row)
        elif kind == "late":
            rows.append({"kind": "late", "cpu": cpu, "buffers": _snapshot(bufs),
                         "text": f"CPU{cpu}'s delayed load takes its value: {g['val']}"})
        return
    rows.append({"kind": "print", "cpu": None, "text": text})


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools.report.trail", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trail", metavar="TRAIL", help="a trail as `spin -t -p` prints it (or a "
                                                   "condensed trail of markers)")
    ap.add_argument("mm", metavar="MM", help="the memory model of the run: sc, tso or weak "
                                             "(anything but sc buffers stores)")
    ap.add_argument("root", metavar="ROOT", nargs="?",
                    default=os.path.dirname(os.path.dirname(os.path.dirname(
                        os.path.abspath(__file__)))),
                    help="the tree whose promela/ and spec/refinement.yml are read (default: this "
                         "repository)")
    a = ap.parse_args(argv)
    with open(a.trail, encoding="utf-8", errors="replace") as f:
        tl = parse(f.read(), Sources(a.root), a.mm)
    for r in tl["steps"]:
        if r["kind"] == "print":
            continue
        who = f"CPU{r['cpu']}" if r.get("cpu") is not None else "-"
        what = r.get("store") or r.get("step") or ""
        print(f"{who:5} {r['kind']:6} {r.get('effect', ''):7} {what} {r.get('text', '')}".rstrip())
    for n in tl["notes"]:
        print(f"note: {n}")
    return 1 if tl["notes"] else 0


if __name__ == "__main__":
    sys.exit(main())

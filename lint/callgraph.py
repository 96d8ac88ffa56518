"""callgraph - the spin-lock-irq and self-wait rules, followed through calls
(REQ-LOCK-4, REQ-ERR-4; spec/lint.md "Rules that follow calls").

lint/cocci/spin-lock-irq.cocci and self-wait.cocci look inside one function:
the handler, or the function holding the irqsave region.  In real drivers the
spin_lock_irq()/spin_unlock_irq() or the disable_irq() of the handler's own
line sits in a helper the handler calls.  lint/callgraph.cocci prints the
facts of each file (definitions, direct calls, calls made with interrupts off,
the sites, the request_irq() registrations); this module joins the facts of
every file of the run and walks the calls:

  spin-lock-irq  every function reachable, through direct calls inside the
                 files of the run, from a handler or from a call made inside
                 an interrupts-off region: its spin_lock_irq, spin_unlock_irq
                 and local_irq_enable are reported, with the call chain.  One
                 caller with interrupts off is enough, whatever the others.
  self-wait      every function reachable from a handler: its
                 synchronize_irq/disable_irq/free_irq is reported when the
                 irq argument is the handler's line - the expression given to
                 request_irq, P->f where the device passed as dev_id reached
                 the helper as P (through parameters and P = Q copies) and
                 request_irq registered D->f, or get_irqfunc_irq().

Out of reach (spec/lint.md): calls through function pointers, functions
defined in files not given, interrupts disabled by a caller outside the files.
"""
import json, re
from collections import deque

# the primitives themselves are leaves: their bodies (src/core/spinlock.c) are the API
PRIMITIVES = {"spin_lock_irq", "spin_unlock_irq", "spin_lock_irqsave", "spin_unlock_irqrestore",
              "spin_lock", "spin_unlock", "local_irq_enable", "local_irq_disable",
              "local_irq_save", "local_irq_restore", "irqsync_local_irq_save",
              "synchronize_irq", "disable_irq", "disable_irq_nosync", "enable_irq",
              "free_irq", "request_irq", "handle_irq", "get_irqfunc_irq"}
IDENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)*$")
CAST = re.compile(r"^\(\s*(?:const\s+|volatile\s+|struct\s+|unsigned\s+|signed\s+)*"
                  r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\*)*\s*\)\s*")


def split_args(s):
    """'a , f ( b , c ) , d' -> ['a', 'f ( b , c )', 'd'] (commas at depth 0)."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def norm_expr(e):
    """One spelling of an expression: no casts in front, no spaces, no outer (...)."""
    e = " ".join(e.split())
    while True:
        m = CAST.match(e)
        if not m or m.end() == len(e):
            break
        e = e[m.end():]
    e = e.replace(" ", "")
    while e.startswith("(") and e.endswith(")") and balanced(e[1:-1]):
        e = e[1:-1]
    return e


def balanced(s):
    d = 0
    for ch in s:
        d += ch == "("
        d -= ch == ")"
        if d < 0:
            return False
    return d == 0


def param_names(params):
    names = []
    for p in split_args(params):
        m = IDENT.search(p)
        names.append(m.group(1) if m and p.strip() not in ("void", "...") else None)
    return names


class Graph:
    def __init__(self, facts):
        self.defs = {}          # name -> [(file, line, col, static, params)]
        self.calls = {}         # (file, fn) -> [(callee, args, line, col)]
        self.off = set()        # (file, fn, line, col) of calls made with interrupts off
        self.sites = {}         # (file, fn) -> [(what, line, col)]
        self.waits = {}         # (file, fn) -> [(what, irq, line, col)]
        self.regs = {}          # handler name -> [(file, irq, dev, line)]
        self.irqret = set()     # (file, fn)
        self.aliases = {}       # (file, fn) -> [(to, src)]
        self.irqvars = {}       # (file, fn) -> {var}
        static = set()
        funcs = []
        for f in facts:
            k = f["kind"]
            where = (f.get("file"), f.get("fn"))
            if k == "func":
                funcs.append(f)
            elif k == "static":
                static.add((f["file"], f["name"]))
            elif k == "call":
                self.calls.setdefault(where, []).append((f["callee"], split_args(f["args"]), f["line"], f["col"]))
            elif k == "offcall":
                self.off.add((f["file"], f["fn"], f["line"], f["col"]))
            elif k == "site":
                self.sites.setdefault(where, []).append((f["what"], f["line"], f["col"]))
            elif k == "wait":
                self.waits.setdefault(where, []).append((f["what"], norm_expr(f["irq"]), f["line"], f["col"]))
            elif k == "reg":
                self.regs.setdefault(f["handler"], []).append((f["file"], norm_expr(f["irq"]), norm_expr(f["dev"]), f["line"]))
            elif k == "irqret":
                self.irqret.add(where)
            elif k == "alias":
                self.aliases.setdefault(where, []).append((f["to"], f["src"]))
            elif k == "irqvar":
                self.irqvars.setdefault(where, set()).add(f["var"])
        for f in funcs:
            self.defs.setdefault(f["name"], []).append(
                (f["file"], f["line"], f["col"], (f["file"], f["name"]) in static, param_names(f["params"])))

    def resolve(self, file, callee):
        """The definitions a direct call from `file` may reach: the file's own, else
        every non-static one of another file of the run."""
        if callee in PRIMITIVES:
            return []
        ds = self.defs.get(callee, [])
        own = [d for d in ds if d[0] == file]
        return own or [d for d in ds if not d[3]]

    def def_line(self, file, name):
        return next((d[1] for d in self.defs.get(name, []) if d[0] == file), 0)

    def handlers(self):
        """(file, name, params, why) of each handler defined in the run."""
        out = []
        for name, ds in self.defs.items():
            for d in ds:
                if name in self.regs:
                    why = "registered by request_irq() in %s:%d" % (self.regs[name][0][0], self.regs[name][0][3])
                elif (d[0], name) in self.irqret:
                    why = "returns irqreturn_t"
                else:
                    continue
                out.append((d[0], name, d[4], why))
        return out


def chain_text(chain):
    return " -> ".join("%s()" % step["fn"] for step in chain)


def spin_lock_irq_findings(g):
    """BFS from every handler and every interrupts-off call: (file, line, col, msg, chain)."""
    parent = {}                 # (file, fn) -> chain (list of steps) reaching it
    q = deque()
    for file, name, _, why in sorted(g.handlers()):
        key = (file, name)
        if key not in parent:
            parent[key] = [{"file": file, "line": g.def_line(file, name), "col": 0, "fn": name,
                            "what": "interrupt handler %s() (%s): runs with interrupts off" % (name, why)}]
            q.append(key)
    for (file, fn, line, col) in sorted(g.off):
        for (callee, args, cl, cc) in g.calls.get((file, fn), []):
            if (cl, cc) != (line, col):
                continue
            for d in g.resolve(file, callee):
                key = (d[0], callee)
                if key not in parent:
                    parent[key] = [{"file": file, "line": line, "col": col, "fn": fn,
                                    "what": "%s() calls %s() with interrupts off" % (fn, callee)},
                                   {"file": d[0], "line": d[1], "col": 0, "fn": callee, "what": "%s()" % callee}]
                    q.append(key)
    while q:
        file, fn = q.popleft()
        for (callee, args, line, col) in g.calls.get((file, fn), []):
            for d in g.resolve(file, callee):
                key = (d[0], callee)
                if key in parent:
                    continue
                ch = parent[(file, fn)]
                parent[key] = ch[:-1] + [dict(ch[-1], line=line, col=col,
                                              what="%s() calls %s()" % (fn, callee))] + \
                              [{"file": d[0], "line": d[1], "col": 0, "fn": callee, "what": "%s()" % callee}]
                q.append(key)
    out = []
    for key, ch in parent.items():
        for (what, line, col) in g.sites.get(key, []):
            step = {"file": key[0], "line": line, "col": col, "fn": key[1], "what": "%s(): %s() here" % (key[1], what)}
            full = ch[:-1] + [step]
            if what == "local_irq_enable":
                msg = ("local_irq_enable() in %s(), reached with interrupts disabled through %s: it turns "
                       "them on under its caller; use local_irq_save/local_irq_restore (no automatic fix: "
                       "the matching disable may be in another function)" % (key[1], chain_text(full)))
            else:
                msg = ("%s() in %s(), reached with interrupts disabled through %s: "
                       "use spin_lock_irqsave/spin_unlock_irqrestore" % (what, key[1], chain_text(full)))
            out.append((key[0], line, col, msg, full))
    return out


def self_wait_findings(g):
    """Walk from each handler with the names that hold its dev_id / its line."""
    out = []
    for file, name, params, why in sorted(g.handlers()):
        regs = g.regs.get(name, [])
        dev = {params[-1]} if params and params[-1] else set()
        # old prototype given to request_irq: h(int irq, void *dev)
        line = {params[0]} if regs and len(params) == 2 and params[0] else set()
        start = (file, name, frozenset(dev), frozenset(line))
        seen = {start}
        q = deque([(start, [{"file": file, "line": g.def_line(file, name), "col": 0, "fn": name,
                             "what": "interrupt handler %s() (%s)" % (name, why)}])])
        while q:
            (f, fn, devs, lines), ch = q.popleft()
            devs, lines = close(g, f, fn, set(devs), set(lines))
            for (w, irq, ln, col) in g.waits.get((f, fn), []):
                reason = same_line(irq, regs, devs, lines)
                if reason and len(ch) > 1:      # in the handler itself: self-wait.cocci
                    full = ch[:-1] + [dict(ch[-1], line=ln, col=col, what="%s(): %s(%s) here" % (fn, w, irq))]
                    out.append((f, ln, col,
                                "%s() in %s(), reached from handler %s() of the same line through %s (%s): "
                                "it waits for itself and returns -EDEADLK; use disable_irq_nosync() or defer "
                                "the call" % (w, fn, name, chain_text(full), reason), full))
            for (callee, args, ln, col) in g.calls.get((f, fn), []):
                for d in g.resolve(f, callee):
                    ps = d[4]
                    nd = {ps[i] for i, a in enumerate(args) if i < len(ps) and ps[i] and norm_expr(a) in devs}
                    nl = {ps[i] for i, a in enumerate(args) if i < len(ps) and ps[i] and
                          (norm_expr(a) in lines or norm_expr(a) == "get_irqfunc_irq()")}
                    st = (d[0], callee, frozenset(nd), frozenset(nl))
                    if st in seen:
                        continue
                    seen.add(st)
                    q.append((st, ch[:-1] + [dict(ch[-1], line=ln, col=col, what="%s() calls %s()" % (fn, callee))]
                              + [{"file": d[0], "line": d[1], "col": 0, "fn": callee, "what": "%s()" % callee}]))
    return out


def close(g, f, fn, devs, lines):
    """P = Q copies inside fn: P holds what Q holds."""
    lines |= g.irqvars.get((f, fn), set())
    changed = True
    while changed:
        changed = False
        for to, src in g.aliases.get((f, fn), []):
            for s in (devs, lines):
                if src in s and to not in s:
                    s.add(to)
                    changed = True
    return devs, lines


def same_line(irq, regs, devs, lines):
    if irq == "get_irqfunc_irq()":
        return "get_irqfunc_irq()"
    if irq in lines:
        return "%s is the handler's line" % irq
    for (_, ri, rd, rl) in regs:
        if irq == ri and not re.match(r"^[A-Za-z_]\w*->", ri):
            return "request_irq(%s, ...)" % ri
        if "->" in ri and "->" in irq:
            rbase, rfield = ri.rsplit("->", 1)
            cbase, cfield = irq.rsplit("->", 1)
            if rbase == rd and rfield == cfield and cbase in devs:
                return "%s holds the dev_id and %s->%s was registered" % (cbase, rd, rfield)
    return None


def read_facts(outputs):
    facts = []
    for out in outputs:
        for line in out.splitlines():
            if line.startswith("FACT "):
                facts.append(json.loads(line[5:]))
    return facts


def findings(facts):
    """[(file, line, col(1-based), rule, message, chain)] of both rules."""
    g = Graph(facts)
    res = []
    for f, ln, col, msg, ch in spin_lock_irq_findings(g):
        res.append((f, ln, col + 1, "cocci/spin-lock-irq", msg, ch))
    for f, ln, col, msg, ch in self_wait_findings(g):
        res.append((f, ln, col + 1, "cocci/self-wait", msg, ch))
    return res

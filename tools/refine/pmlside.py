"""pmlside.py - the Promela side of the refinement map: which step performs which memory-model
primitive on which shared address.

No compiler gives an AST of Promela, so this is a small front end of its own: a tokenizer, the
preprocessor directives SPIN's cpp would obey (#define, #if/#ifdef/#ifndef/#elif/#else/#endif,
#include), and the structure of `inline` and `proctype` definitions.  From each proctype of a
model file, under each configuration of the map (-D values), it expands the inlines and the
function-like macros in order, with their arguments substituted, down to:

  primitive  a call of an mm_* inline of promela/mm/ that carries a step argument: the step
             (after substitution), the primitive, and the address macro it is given
             (STATUS(l) -> STATUS, DLOCK(l) -> DLOCK, FLAG, OWNER, ...)
  mark       STEP(me, NAME) / STEPV(me, NAME, ...): a step with no access of its own

A site is a run of consecutive primitives with the same step, named after the inline (or
proctype) in whose text the step's name is written -- as the C side names a site after the
function that writes IRQSYNC_STEP_<NAME>.  The files of promela/mm/ are not expanded: their
inlines are the primitives, whose meaning (kind, memory order) the map states.
"""
import itertools, os, re

TOKEN = re.compile(r"\s+|(?P<tok>[A-Za-z_][A-Za-z_0-9]*|\d+|->|::|&&|\|\||==|!=|<=|>=|<<|>>|\+\+|--|.)", re.S)


ROOT = ["."]      # file names of sites are relative to it (analyse sets it)
_TEXT = {}        # path -> its text without comments (read once for every configuration)


class PmlError(Exception):
    pass


def strip_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            out.append("\n" * text.count("\n", i, j))
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tokens(text):
    return [m.group("tok") for m in TOKEN.finditer(text) if m.group("tok")]


def eval_cond(toks, defines):
    """#if expression: defined(X), integers, macros (undefined = 0), C operators."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t == "defined":
            if toks[i + 1] == "(":
                name, i = toks[i + 2], i + 4
            else:
                name, i = toks[i + 1], i + 2
            out.append("1" if name in defines else "0")
            continue
        if re.match(r"[A-Za-z_]", t):
            v = defines.get(t, ("0", None))
            val = v[0] if v[1] is None else "0"
            sub = tokens(val) or ["0"]
            out.append("(" + str(eval_cond(sub, defines)) + ")" if sub != [t] else "0")
        else:
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(t, t))
        i += 1
    expr = " ".join(out).replace("not  =", "!=")
    try:
        return int(eval(expr, {"__builtins__": {}}))
    except Exception as e:
        raise PmlError("cannot evaluate #if %s (%s)" % (" ".join(toks), e))


def preprocess(path, defines, skip_dirs, included=None):
    """The active tokens of path under defines (which #define adds to), each tagged with the
    file.  Function-like macros are kept for the expander: defines[name] = (body, params)."""
    included = included if included is not None else []
    if path not in _TEXT:
        _TEXT[path] = strip_comments(open(path).read()).replace("\\\n", " ")
    text = _TEXT[path]
    rel = os.path.relpath(path, ROOT[0])
    out, stack = [], []          # stack of (active, taken)
    for line in text.split("\n"):
        s = line.strip()
        active = all(a for a, _ in stack)
        if s.startswith("#"):
            words = tokens(s[1:])
            d = words[0] if words else ""
            rest = words[1:]
            if d in ("if", "ifdef", "ifndef"):
                if not active:
                    stack.append((False, True))
                    continue
                if d == "if":
                    v = bool(eval_cond(rest, defines))
                elif d == "ifdef":
                    v = rest[0] in defines
                else:
                    v = rest[0] not in defines
                stack.append((v, v))
            elif d == "elif":
                a, taken = stack.pop()
                outer = all(x for x, _ in stack)
                v = outer and not taken and bool(eval_cond(rest, defines))
                stack.append((v, taken or v))
            elif d == "else":
                a, taken = stack.pop()
                stack.append((not taken, True))
            elif d == "endif":
                stack.pop()
            elif not active:
                continue
            elif d == "define":
                body = s[1:].split(None, 1)[1][len(rest[0]):]
                if body.startswith("("):
                    params_txt, body = body[1:].split(")", 1)
                    defines[rest[0]] = (body.strip(), [p.strip() for p in params_txt.split(",")])
                else:
                    defines[rest[0]] = (body.strip(), None)
            elif d == "include":
                inc = s.split('"')[1]
                full = os.path.normpath(os.path.join(os.path.dirname(path), inc))
                if any(full.startswith(os.path.normpath(sd) + os.sep) for sd in skip_dirs):
                    # the memory-model layer: its conditionals and macros matter, not its inlines
                    preprocess(full, defines, [], included)
                    included.append(full)
                    continue
                out.extend(preprocess(full, defines, skip_dirs, included))
            continue
        if active:
            out.extend((t, rel) for t in tokens(line))
    return out


def split_args(toks, i):
    """toks[i] == '(': return (list of argument token lists, index after ')')."""
    depth, args, cur = 0, [], []
    j = i
    while True:
        t = toks[j][0]
        if t == "(":
            depth += 1
            if depth > 1:
                cur.append(toks[j])
        elif t == ")":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return ([a for a in args if a] if len(args) == 1 and not args[0] else args), j + 1
            cur.append(toks[j])
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(toks[j])
        j += 1


def block(toks, i):
    """toks[i] == '{': index after the matching '}'."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] == "{":
            depth += 1
        elif toks[j][0] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    raise PmlError("unbalanced braces")


def definitions(toks):
    """inline and proctype definitions: name -> (kind, params, body tokens)."""
    defs, i = {}, 0
    while i < len(toks):
        t = toks[i][0]
        if t in ("inline", "proctype") or (t == "init" and i + 1 < len(toks) and toks[i + 1][0] == "{"):
            if t == "init":
                name, params, j = "init", [], i + 1
            else:
                name = toks[i + 1][0]
                args, j = split_args(toks, i + 2)
                params = [a[-1][0] for a in args if a]
            end = block(toks, j)
            # body tokens re-tagged with the definition they are written in
            where = "%s:%s" % (toks[i][1], name)      # file:inline, as a site's origin
            defs[name] = (t, params, [(tok, where) for tok, _ in toks[j + 1:end - 1]])
            i = end
        else:
            i += 1
    return defs


class Expander:
    def __init__(self, defs, defines, primitives, marks=("STEP", "STEPV")):
        self.defs = defs
        self.defines = defines
        self.prims = primitives          # name -> {step_arg, addr_arg, kind, order}
        self.marks = marks
        self.events = []

    def run(self, toks, depth=0):
        if depth > 30:
            raise PmlError("inline expansion too deep")
        i = 0
        while i < len(toks):
            t, origin = toks[i]
            nxt = toks[i + 1][0] if i + 1 < len(toks) else None
            if t in CONTROL:
                self.events.append(("ctl", t, origin, None, None))
                i += 1
                continue
            if t in self.prims and nxt == "(":
                args, i = split_args(toks, i + 1)
                p = self.prims[t]
                if p.get("step_arg") is None:
                    continue
                step = args[p["step_arg"]]
                addr = args[p["addr_arg"]][0][0] if p.get("addr_arg") is not None else "-"
                self.events.append(("access", step[0][0], step[0][1], t, addr))
                continue
            if t in self.marks and nxt == "(":
                args, i = split_args(toks, i + 1)
                self.events.append(("mark", args[1][0][0], args[1][0][1], t, "-"))
                continue
            if t in self.defs and self.defs[t][0] == "inline" and nxt == "(":
                args, i = split_args(toks, i + 1)
                self.run(self.substitute(self.defs[t][1], self.defs[t][2], args), depth + 1)
                continue
            if t in self.defines and self.defines[t][1] is not None and nxt == "(":
                args, j = split_args(toks, i + 1)
                body, params = self.defines[t]
                body_toks = [(x, origin) for x in tokens(body)]
                if any(x[0] in self.prims or x[0] in self.defs or x[0] in self.marks for x in body_toks):
                    self.run(self.substitute(params, body_toks, args), depth + 1)
                i = j
                continue
            if t in self.defines and self.defines[t][1] is None and \
                    any(x in self.prims or x in self.defs for x in tokens(self.defines[t][0])):
                self.run([(x, origin) for x in tokens(self.defines[t][0])], depth + 1)
            i += 1

    @staticmethod
    def substitute(params, body, args):
        table = dict(zip(params, args))
        out = []
        for tok in body:
            out.extend(table.get(tok[0], [tok]))
        return out


CONTROL = ("if", "fi", "do", "od", "::", "break", "goto", "unless")


def order_edges(events, shown):
    """The model's order of steps: (a, b) when some path of the proctype performs step b right
    after step a, the steps not in @shown (those with no C site) skipped.  The control flow is
    Promela's: `if`/`do` with their `::` options, `break`; each option is walked from the steps
    before the statement, a `do` until its set of open steps no longer grows."""
    seq, _ = _parse(events, 0, ())
    edges = set()
    _flow(seq, frozenset(), edges, [e[1] in shown for e in events], [])
    return {(events[a][1], events[b][1]) for a, b in edges}


def _parse(events, i, stop):
    """events[i:] up to a token of @stop: a list of items, each an event index, ("break",) or
    (kind, [options]) for if/do."""
    out = []
    while i < len(events):
        kind, t = events[i][0], events[i][1]
        if kind != "ctl":
            out.append(i)
            i += 1
        elif t in stop:
            return out, i
        elif t in ("if", "do"):
            end = "fi" if t == "if" else "od"
            opts, i = [], i + 1
            while events[i][1] == "::":
                body, i = _parse(events, i + 1, ("::", end))
                opts.append(body)
            if events[i][1] != end:
                raise PmlError("%s: `%s` not closed by `%s`" % (events[i][2], t, end))
            out.append((t, opts))
            i += 1
        elif t == "break":
            out.append(("break",))
            i += 1
        elif t in ("goto", "unless"):
            raise PmlError("%s: `%s` is not followed by the order check (tools/refine/pmlside.py)"
                           % (events[i][2], t))
        else:
            raise PmlError("%s: unexpected `%s`" % (events[i][2], t))
    return out, i


def _flow(seq, open_, edges, shown, breaks):
    """Walk @seq from the events in @open_; return the events open at its end (shown[i]: event
    i is a step of the C's, else it is skipped)."""
    for item in seq:
        if isinstance(item, int):
            if shown[item]:
                edges.update((p, item) for p in open_)
                open_ = frozenset([item])
        elif item[0] == "break":
            breaks[-1] |= open_ if breaks else set()
            open_ = frozenset()
        elif item[0] == "if":
            out = frozenset()
            for opt in item[1]:
                out |= _flow(opt, open_, edges, shown, breaks)
            open_ = out
        else:                                  # do: iterate to a fixpoint, leave by break
            breaks.append(set())
            top = open_
            while True:
                end = frozenset()
                for opt in item[1]:
                    end |= _flow(opt, top, edges, shown, breaks)
                if end <= top:
                    break
                top = top | end
            open_ = frozenset(breaks.pop())
    return open_


def sites(events):
    """Runs of consecutive accesses with one step (a mark is a site of its own)."""
    out = []
    events = [e for e in events if e[0] != "ctl"]
    for e in events:
        kind, step, origin, prim, addr = e
        if kind == "access" and out and out[-1]["step"] == step and out[-1]["kind"] == "access" \
                and out[-1]["origin"] == origin:
            out[-1]["accesses"].append((prim, addr))
            continue
        out.append({"kind": kind, "step": step, "origin": origin,
                    "accesses": [(prim, addr)] if kind == "access" else []})
    return out


def mtypes(toks):
    names, i = [], 0
    while i < len(toks):
        if toks[i][0] == "mtype" and toks[i + 1][0] == "=":
            j = i + 3
            while toks[j][0] != "}":
                if toks[j][0] != ",":
                    names.append(toks[j][0])
                j += 1
            i = j
        i += 1
    return names


def configurations(vary):
    keys = sorted(vary)
    for combo in itertools.product(*(vary[k] for k in keys)):
        yield dict(zip(keys, combo))


def analyse(root, model_files, primitives, shown=frozenset()):
    """model_files: [{file, define: [..], vary: {NAME: [values]}, orders_with: [steps]}].  Return
    ({(step, file, origin): set of access tuples}, {file: mtype names}, {file: included mm files},
    the order edges of every proctype in every configuration over the steps @shown)."""
    ROOT[0] = root
    found, declared, mm_files, edges = {}, {}, {}, set()
    for mf in model_files:
        path = os.path.join(root, mf["file"])
        for cfg in configurations(mf.get("vary", {})):
            defines = {d: ("1", None) for d in mf.get("define", [])}
            defines.update({k: (str(v), None) for k, v in cfg.items()})
            included = []
            toks = preprocess(path, defines, [os.path.join(root, "promela", "mm")], included)
            mm_files[mf["file"]] = sorted(set(os.path.relpath(p, root) for p in included))
            declared[mf["file"]] = mtypes(toks)
            defs = definitions(toks)
            for name, (kind, _, body) in defs.items():
                if kind != "proctype" and name != "init":
                    continue
                ex = Expander(defs, defines, primitives)
                ex.run(body)
                fe = order_edges(ex.events, shown)
                # orders_with: this file's orders count only for pairs with one of these steps
                # (its other steps' orders are another file's, which a mutation of that file
                # must not find here)
                if mf.get("orders_with") is not None:
                    keep = set(mf["orders_with"])
                    fe = {(a, b) for a, b in fe if a in keep or b in keep}
                edges |= fe
                for s in sites(ex.events):
                    key = (s["step"], s["origin"])
                    found.setdefault(key, set()).add(tuple(s["accesses"]))
    return found, declared, mm_files, edges


def inline_names(path):
    toks = [(t, path) for t in tokens(strip_comments(open(path).read()))]
    return {toks[i + 1][0] for i in range(len(toks) - 1) if toks[i][0] == "inline"}

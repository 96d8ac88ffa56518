"""cside.py - the C side of the refinement map, read from clang's JSON AST (no text matching).

Each translation unit of src/core (and the test-only synchronize_irq variants) is dumped with
`clang -Xclang -ast-dump=json -fsyntax-only` and the flags mk/ builds the step-hook library with
(-DIRQSYNC_STEP_HOOKS: a step mark is then a call of irqsync_step(step, irq)).  From every
externally visible function the walker follows the code in source order, entering the functions
the sources define (the descriptor helpers, the port's atomics) with their arguments bound, so that
a helper's `step` or `acquire` parameter takes the caller's constant:

  mark    a call of irqsync_step: opens a *site* of the step(s) its argument names
  access  an __c11_atomic_* operation (an AtomicExpr: load, store or read-modify-write, by its
          operands) or __c11_atomic_thread_fence, with the memory order of its order operand;
          the object is the lvalue the caller passed to the port primitive
  lock    a call of a function the map summarises (spin_lock, spin_unlock): one access of the
          calling step; its own steps are read when it is walked as a function of its own

An access belongs to every site open where it stands (branches join, a goto carries its sites to
its label, a loop body is walked once more with the sites open at its end), up to the next mark.
"""
import hashlib, json, os, subprocess

ORDERS = {0: "relaxed", 1: "consume", 2: "acquire", 3: "release", 4: "acq_rel", 5: "seq_cst"}
ORDER_NAMES = {"memory_order_" + v: v for v in ORDERS.values()}
MARK_FN = "irqsync_step"
STEP_PREFIX = "IRQSYNC_STEP_"


class CError(Exception):
    pass


STEP_HOOK_OBJ = "build/conformance/lib-v2/obj/core/sync.o"


def clang_flags(root, obj=STEP_HOOK_OBJ):
    """-std/-D/-I of the compile command of @obj (src/core/sync.c), as mk/ has it (make -n): by
    default the step-hook library's; the production library's for production().  @obj is named
    under the default build directory `build/`: make is asked with BUILD=build, whatever BUILD
    the caller's environment has (make check BUILD=... exports it), so that the rule exists; -n
    builds nothing there."""
    out = subprocess.run(["make", "-s", "-n", "-B", "BUILD=build", obj],
                         cwd=root, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        words = line.split()
        if "-c" in words and "src/core/sync.c" in words:
            return [w for w in words if w.startswith(("-std=", "-D", "-I"))]
    raise CError("make -n shows no compile command for %s (src/core/sync.c):\n" % obj
                 + out.stdout + out.stderr)


CACHE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "build", "refine", "ast-cache")
HEADER_DIRS = ("src/include/irqsync", "src/core", "src/port", "twins/variants")


def _cache_key(root, path, flags):
    """A hash of everything the unit's AST can depend on: the unit, every header it may include
    (all of them, simply), the flags and the compiler."""
    h = hashlib.sha256(("\0".join(flags) + "\0" + path).encode())
    files = [path] + sorted(os.path.join(d, f) for d in HEADER_DIRS
                            for f in os.listdir(os.path.join(root, d)) if f.endswith(".h"))
    for f in files:
        h.update(f.encode() + b"\0" + open(os.path.join(root, f), "rb").read())
    h.update(_clang_version())
    return h.hexdigest()


_VERSION = []


def _clang_version():
    if not _VERSION:
        _VERSION.append(subprocess.run(["clang", "--version"], capture_output=True).stdout)
    return _VERSION[0]


def dump(root, path, flags):
    key = _cache_key(root, path, flags)
    cached = os.path.join(CACHE, key + ".json")
    if os.path.exists(cached):
        return json.load(open(cached))
    ast = _prune(_dump(root, path, flags), path)
    os.makedirs(CACHE, exist_ok=True)
    tmp = cached + ".%d" % os.getpid()
    json.dump(ast, open(tmp, "w"))
    os.replace(tmp, cached)
    return ast


def _prune(ast, path):
    """Only what the walker reads: functions with a body, enums, variables, each node located
    once (_file/_line) and its clang locations dropped -- a tenth of the size to load."""
    _locate(ast, {"file": path, "line": 0})

    def strip_locs(n):
        n.pop("loc", None)
        n.pop("range", None)
        for c in n.get("inner", []):
            if isinstance(c, dict) and c:
                strip_locs(c)
    keep = []
    for d in ast.get("inner", []):
        body = d.get("kind") == "FunctionDecl" and any(c.get("kind") == "CompoundStmt" for c in d.get("inner", []))
        if body or d.get("kind") in ("EnumDecl", "VarDecl"):
            strip_locs(d)
            keep.append(d)
    return {"kind": ast.get("kind"), "inner": keep, "_located": True}


def _dump(root, path, flags):
    r = subprocess.run(["clang", "-Xclang", "-ast-dump=json", "-fsyntax-only"] + flags + [path],
                       cwd=root, capture_output=True, text=True)
    if r.returncode:
        raise CError("clang cannot parse %s:\n%s" % (path, r.stderr[-2000:]))
    return json.loads(r.stdout)


def _locate(node, state):
    """Give every node _file/_line: clang's JSON prints a file or line only when it changes."""
    if node.get("_located"):
        return
    def see(loc):
        if not isinstance(loc, dict):
            return
        if "spellingLoc" in loc:
            see(loc["spellingLoc"])
            see(loc["expansionLoc"])
            return
        if "file" in loc:
            state["file"] = loc["file"]
        if "line" in loc:
            state["line"] = loc["line"]
    see(node.get("loc"))
    rng = node.get("range") or {}
    begin_file, begin_line = None, None
    if "begin" in rng:
        see(rng["begin"])
        begin_file, begin_line = state["file"], state["line"]
    if "end" in rng:
        see(rng["end"])
    node["_file"], node["_line"] = begin_file or state["file"], begin_line or state["line"]
    # the expansion point of a macro is where the reader looks
    b = rng.get("begin", {})
    if "expansionLoc" in b:
        node["_file"] = b["expansionLoc"].get("file", node["_file"])
    for child in node.get("inner", []):
        _locate(child, state)


class Fn:
    def __init__(self, node, tu, tu_ast=None):
        self.tu_ast = tu_ast
        self.name = node["name"]
        self.node = node
        self.tu = tu
        self.file = node["_file"]
        self.line = node["_line"]
        self.static = node.get("storageClass") == "static"
        self.params = [c for c in node.get("inner", []) if c["kind"] == "ParmVarDecl"]
        self.body = [c for c in node.get("inner", []) if c["kind"] == "CompoundStmt"][0]


def functions(asts):
    """name -> Fn for every function with a body; the first definition wins (headers repeat)."""
    fns = {}
    for tu, ast in asts:
        _locate(ast, {"file": tu, "line": 0})
        for d in ast.get("inner", []):
            if d.get("kind") == "FunctionDecl" and any(c["kind"] == "CompoundStmt" for c in d.get("inner", [])):
                fns.setdefault(d["name"], Fn(d, tu, ast))
    return fns


def strip(e):
    while e["kind"] in ("ImplicitCastExpr", "ParenExpr", "CStyleCastExpr") and e.get("inner"):
        e = e["inner"][0]
    return e


def callee_name(call):
    c = strip(call["inner"][0])
    if c["kind"] == "DeclRefExpr":
        return c["referencedDecl"]["name"]
    return None


PORT_HEADER = "irqsync/atomic.h"
ATOMIC_TYPES = ("irqsync_atomic_t", "irqsync_atomic")


def strip_parens(e):
    while e["kind"] == "ParenExpr" and e.get("inner"):
        e = e["inner"][0]
    return e


def is_atomic_lvalue(e):
    """An lvalue of an atomic word: of an _Atomic type, or the irqsync_atomic_t itself."""
    e = strip_parens(e)
    if e["kind"] not in ("MemberExpr", "DeclRefExpr", "ArraySubscriptExpr", "UnaryOperator"):
        return False
    if e["kind"] == "UnaryOperator" and e.get("opcode") != "*":
        return False
    q = e.get("type", {}).get("qualType", "")
    if "*" in q or "[" in q:          # a pointer to one (read to pass it on), an array of them
        return False
    return "_Atomic" in q or type_name(q) in ATOMIC_TYPES


def describe(e):
    """A short spelling of an expression, for messages (the callee of a pointer call)."""
    e = strip(e)
    k = e["kind"]
    if k == "DeclRefExpr":
        return e["referencedDecl"]["name"]
    if k == "MemberExpr":
        return describe(e["inner"][0]) + ("->" if e.get("isArrow") else ".") + e["name"]
    if k == "ArraySubscriptExpr":
        return describe(e["inner"][0]) + "[]"
    if k == "UnaryOperator":
        return e["opcode"] + describe(e["inner"][0])
    return "(%s)" % k


def type_name(qual):
    t = qual.replace("const ", "").replace("volatile ", "").replace("struct ", "")
    return t.split("[")[0].replace("*", "").strip()


class Walker:
    """Walk one root function, recording sites (a mark and the accesses after it)."""

    def __init__(self, fns, summaries, origin_file_of, at_call=frozenset()):
        self.fns = fns
        self.summaries = summaries         # name -> {kind, order} (map: c_calls)
        self.at_call = at_call             # external functions that call a function handed to
                                           # them before they return (map: c_external_calls,
                                           # calls_back: at-call): walked there
        self.origin_file_of = origin_file_of
        self.sites = {}                    # key -> {"steps", "origin", "loc", "lists": set()}
        self.unmarked = []                 # accesses with no site open at the root
        self.traces = {}                   # root -> [event] in walk order (production())
        self.trace = []                    # the root being walked
        self.edges = []                    # (steps before, steps, mark before, mark, root)
        self.indirect = []                 # calls through a pointer: {fn, root, at, what, steps}
        self.external = []                 # calls of functions not defined in the sources read

    # ---- values of expressions (bound parameters, constants, object paths) ----
    def value(self, e, env):
        e = strip(e)
        k = e["kind"]
        if k == "IntegerLiteral":
            return ("int", int(e["value"]))
        if k == "UnaryOperator" and e["opcode"] == "&":
            return ("path", self.path(e["inner"][0], env))
        if k == "DeclRefExpr":
            d = e["referencedDecl"]
            if d["kind"] == "EnumConstantDecl" and d["name"].startswith(STEP_PREFIX):
                return ("steps", frozenset([d["name"][len(STEP_PREFIX):]]), env["fn"])
            if d["kind"] == "ParmVarDecl" and d["name"] in env["bind"]:
                return env["bind"][d["name"]]
            if d["kind"] == "VarDecl" and d["id"] in env["steps_of"]:
                return ("steps", env["steps_of"][d["id"]], env["fn"])
            if d["kind"] in ("ParmVarDecl", "VarDecl"):
                return ("path", self.path(e, env))
        if k in ("MemberExpr", "ArraySubscriptExpr"):
            return ("path", self.path(e, env))
        return None

    def path(self, e, env):
        """The object an lvalue names: a global by its name, a pointer parameter or local by the
        struct it points to, then the members (array subscripts dropped)."""
        e = strip(e)
        k = e["kind"]
        if k == "MemberExpr":
            return self.path(e["inner"][0], env) + "." + e["name"]
        if k == "ArraySubscriptExpr":
            return self.path(e["inner"][0], env)
        if k == "UnaryOperator" and e["opcode"] in ("*", "&"):
            return self.path(e["inner"][0], env)
        if k == "DeclRefExpr":
            d = e["referencedDecl"]
            if d["kind"] == "ParmVarDecl" and d["name"] in env["bind"]:
                v = env["bind"][d["name"]]
                if v and v[0] == "path":
                    return v[1]
            if d["id"] in env["globals"]:
                return d["name"]
            return type_name(d["type"]["qualType"])
        return "?"

    # ---- events ----
    def mark(self, key, state):
        steps, origin, loc = key
        self.sites.setdefault(key, {"steps": steps, "origin": origin, "loc": loc, "lists": set()})
        state["open"] = {key: []}
        state["sites"].append((key, state["open"][key]))

    def access(self, acc, state):
        if state.get("dry"):
            return
        self.trace.append(dict(acc, steps=frozenset(x for key in state["open"] for x in key[0])))
        if not state["open"]:
            self.unmarked.append(acc)
        for lst in state["open"].values():
            lst.append(acc)

    # ---- statements ----
    def walk(self, node, env, state):
        if not node or "kind" not in node:
            return                      # an absent part of a for statement
        k = node["kind"]
        if k in ("CompoundStmt", "DeclStmt", "ExprWithCleanups", "NullStmt"):
            for c in node.get("inner", []):
                self.walk(c, env, state)
        elif k == "VarDecl":
            for c in node.get("inner", []):
                self.walk(c, env, state)
        elif k == "IfStmt":
            self.walk_if(node, env, state)
        elif k in ("ForStmt", "WhileStmt", "DoStmt"):
            self.walk_loop(node, env, state)
        elif k == "ReturnStmt":
            for c in node.get("inner", []):
                self.walk(c, env, state)
            state["returns"].update(state["open"])
            state["open"] = {}
        elif k == "GotoStmt":
            state["labels"].setdefault(node["targetLabelDeclId"], {}).update(state["open"])
            state["open"] = {}
        elif k == "BreakStmt":
            state["breaks"][-1].update(state["open"])
            state["open"] = {}
        elif k == "LabelStmt":
            state["open"] = {**state["open"], **state["labels"].get(node["declId"], {})}
            for c in node.get("inner", []):
                self.walk(c, env, state)
        elif k == "CallExpr":
            self.walk_call(node, env, state)
        elif self.direct_use(node, env, state):
            pass
        elif k == "AtomicExpr":
            for c in node.get("inner", [])[1:]:
                self.walk(c, env, state)
            self.atomic(node, env, state)
        else:
            for c in node.get("inner", []):
                self.walk(c, env, state)

    # ---- direct uses of an atomic word (outside the port's bodies) ----
    def in_port(self, env):
        fn = self.fns.get(env["fn"])
        return fn is not None and fn.file.endswith(PORT_HEADER)

    def direct_use(self, node, env, state):
        """A read, assignment or increment of an atomic word's lvalue outside irqsync/atomic.h:
        recorded as a direct access (and its operands walked).  False: not such a use."""
        k = node["kind"]
        inner = node.get("inner", [])
        if k == "BinaryOperator" and node.get("opcode") == "=" and is_atomic_lvalue(inner[0]):
            kind, lv, rest = "store", inner[0], inner[1:]
        elif k == "CompoundAssignOperator" and is_atomic_lvalue(inner[0]):
            kind, lv, rest = "rmw", inner[0], inner[1:]
        elif k == "UnaryOperator" and node.get("opcode") in ("++", "--") and is_atomic_lvalue(inner[0]):
            kind, lv, rest = "rmw", inner[0], []
        elif k == "ImplicitCastExpr" and node.get("castKind") == "LValueToRValue" and inner \
                and is_atomic_lvalue(inner[0]):
            kind, lv, rest = "load", inner[0], []
        elif k == "UnaryOperator" and node.get("opcode") == "&" and is_atomic_lvalue(inner[0]) and \
                "_Atomic" in strip_parens(inner[0]).get("type", {}).get("qualType", ""):
            # the member's address (&w.counter, not &w): handed to code the walker cannot read
            kind, lv, rest = "address", inner[0], []
        else:
            return False
        if self.in_port(env):
            return False
        for c in rest:
            self.walk(c, env, state)
        for c in strip(lv).get("inner", []):      # the base: a subscript, a pointer's read
            self.walk(c, env, state)
        obj = self.path(lv, env)
        if obj.endswith(".counter"):
            obj = obj[: -len(".counter")]
        at = "%s:%s" % (node["_file"], node["_line"])
        self.access({"kind": kind, "object": obj, "order": "direct", "at": at, "via": env["fn"],
                     "impl": at}, state)
        return True

    def cond_value(self, e, env):
        v = self.value(e, env)
        return v[1] if v and v[0] == "int" else None

    def walk_if(self, node, env, state):
        inner = node["inner"]
        cond, then = inner[0], inner[1]
        other = inner[2] if len(inner) > 2 else None
        self.walk(cond, env, state)
        known = self.cond_value(cond, env)
        if known is not None:          # a helper's flag bound to a constant by its caller
            branch = then if known else other
            if branch is not None:
                self.walk(branch, env, state)
            return
        start = dict(state["open"])
        self.walk(then, env, state)
        after_then = state["open"]
        state["open"] = dict(start)
        if other is not None:
            self.walk(other, env, state)
        state["open"] = {**state["open"], **after_then}

    def walk_loop(self, node, env, state):
        start = dict(state["open"])
        # for (;;): no condition (an absent part is an empty node, which _locate gives a place)
        forever = node["kind"] == "ForStmt" and not any(
            c.get("kind") for c in node["inner"][2:3] if c)
        # a dry walk finds the sites open at the end of the body (they reach its top again)
        dry = dict(state, dry=True, open=dict(start), breaks=state["breaks"] + [{}],
                   sites=[], labels=dict(state["labels"]), returns={})
        for c in node.get("inner", []):
            if c:
                self.walk(c, env, dry)
        state["breaks"].append({})
        # the accesses at the top of the body after a mark at its end: kept apart, then added to
        # the last visit of that mark (in the order the second iteration has them)
        back = {key: [] for key in dry["open"] if key not in start}
        state["open"] = {**start, **back}
        for c in node.get("inner", []):
            if c:
                self.walk(c, env, state)
        for key, lst in back.items():
            visits = [l for k, l in state["sites"] if k == key]
            if lst and visits:
                visits[-1].extend(lst)
        breaks = state["breaks"].pop()
        if forever:
            state["open"] = breaks
        else:
            state["open"] = {**state["open"], **breaks}

    def atomic(self, node, env, state):
        ops = node["inner"]
        obj = self.path(ops[0], env)
        if obj.endswith(".counter"):
            obj = obj[: -len(".counter")]
        order = self.order(ops[1], env)
        void = node["type"]["qualType"] == "void"
        kind = "load" if len(ops) == 2 else "store" if (len(ops) == 3 and void) else "rmw"
        if not self.in_port(env):
            order = "direct"          # an atomic operation written outside the port's bodies
        self.access({"kind": kind, "object": obj, "order": order,
                     "at": env["callsite"] or "%s:%s" % (node["_file"], node["_line"]),
                     "via": env["fn"], "impl": "%s:%s" % (node["_file"], node["_line"])}, state)

    def order(self, e, env):
        e = strip(e)
        if e["kind"] == "DeclRefExpr" and e["referencedDecl"]["name"] in ORDER_NAMES:
            return ORDER_NAMES[e["referencedDecl"]["name"]]
        if e["kind"] == "IntegerLiteral":
            return ORDERS.get(int(e["value"]), "?")
        v = self.value(e, env)
        if v and v[0] == "int":
            return ORDERS.get(v[1], "?")
        return "?"

    def walk_call(self, node, env, state):
        name = callee_name(node)
        args = node["inner"][1:]
        callee = strip(node["inner"][0])
        if not (callee["kind"] == "DeclRefExpr" and callee["referencedDecl"]["kind"] == "FunctionDecl"):
            self.pointer_call(node, callee, env, state)
            return
        if name == MARK_FN:
            v = self.value(args[0], env)
            if not v or v[0] != "steps":
                raise CError("%s:%s: the step of a mark in %s is not a constant the walker can follow"
                             % (node["_file"], node["_line"], env["fn"]))
            key = (v[1], (self.origin_file_of(v[2]), v[2]), "%s:%s" % (node["_file"], node["_line"]))
            if state.get("dry"):
                state["open"] = {key: []}
            else:
                for prev in state["open"]:
                    self.edges.append((prev[0], key[0], prev[2], key[2], env["root"]))
                self.trace.append({"kind": "mark", "steps": key[0], "at": key[2]})
                self.mark(key, state)
            return
        for a in args:
            self.walk(a, env, state)
        if name == "__c11_atomic_thread_fence":
            self.access({"kind": "fence", "object": "-", "order": self.order(args[0], env),
                         "at": env["callsite"] or "%s:%s" % (node["_file"], node["_line"]),
                         "via": env["fn"], "impl": "%s:%s" % (node["_file"], node["_line"])}, state)
            return
        if name in self.summaries and name != env["root"]:
            s = self.summaries[name]
            if s["op"] != "none":
                obj = self.path(args[0], env) if args else "-"
                if obj.startswith("&"):
                    obj = obj[1:]
                v = self.value(args[0], env)
                obj = v[1] if v and v[0] == "path" else obj
                self.access({"kind": s["op"], "object": obj, "order": s["order"],
                             "at": "%s:%s" % (node["_file"], node["_line"]), "via": name,
                             "impl": "%s:%s" % (self.fns[name].file, self.fns[name].line)
                             if name in self.fns else "?"}, state)
            return
        fn = self.fns.get(name)
        if fn is None:
            self.external_call(node, name, env, state)
            return
        if len(env["stack"]) > 12 or name in env["stack"]:
            return
        bind = {}
        for p, a in zip(fn.params, args):
            bind[p["name"]] = self.value(a, env)
        here = "%s:%s" % (node["_file"], node["_line"])
        self.enter(fn, bind, env, state, env["callsite"] if fn.file.endswith("atomic.h") and
                   env["callsite"] else (here if fn.file.endswith("atomic.h") else None))

    def external_call(self, node, name, env, state):
        """A call of a function the sources read do not define (the port's CPU-local primitives,
        a builtin, libc): not entered; recorded so that the map must list it.  A function of the
        sources handed to it as an argument (a callback: the port's wait calls ready()) is
        recorded too; when the map says the external function calls it before it returns
        (at_call), its body is walked here, in the steps open at the call."""
        cbs = []
        for a in node["inner"][1:]:
            f = strip(a)
            if f["kind"] == "DeclRefExpr" and f["referencedDecl"]["kind"] == "FunctionDecl" \
                    and f["referencedDecl"]["name"] in self.fns:
                cbs.append(f["referencedDecl"]["name"])
        if not state.get("dry"):
            at = "%s:%s" % (node["_file"], node["_line"])
            steps = frozenset(x for key in state["open"] for x in key[0])
            self.external.append({"fn": env["fn"], "root": env["root"], "at": at, "what": name,
                                  "steps": steps,
                                  "callbacks": [(cb, self.fns[cb].static) for cb in cbs]})
            self.trace.append({"kind": "call", "object": name, "order": "external", "at": at,
                               "via": env["fn"], "impl": at, "steps": steps})
        if name in self.at_call:
            for cb in cbs:
                if len(env["stack"]) <= 12 and cb not in env["stack"]:
                    self.enter(self.fns[cb], {}, env, state)

    def pointer_call(self, node, callee, env, state):
        """A call through a function pointer: what it calls is not in the sources read."""
        for c in node["inner"]:
            self.walk(c, env, state)
        at = "%s:%s" % (node["_file"], node["_line"])
        if state.get("dry"):
            return
        steps = frozenset(x for key in state["open"] for x in key[0])
        self.indirect.append({"fn": env["fn"], "root": env["root"], "at": at,
                              "what": describe(callee), "steps": steps})
        self.trace.append({"kind": "call", "object": describe(callee), "order": "indirect",
                           "at": at, "via": env["fn"], "impl": at, "steps": steps})

    def enter(self, fn, bind, env, state, callsite=None):
        # callsite: where the core calls a port primitive (what a message names)
        sub = {"fn": fn.name, "bind": bind, "globals": env["globals"], "root": env["root"],
               "stack": env["stack"] + [fn.name], "steps_of": local_steps(fn.body),
               "callsite": callsite}
        outer_returns = state["returns"]
        state["returns"] = {}
        outer_labels = state["labels"]
        state["labels"] = {}
        self.walk(fn.body, sub, state)
        state["open"] = {**state["open"], **state["returns"]}
        state["returns"] = outer_returns
        state["labels"] = outer_labels

    def run(self, fn, globals_):
        state = {"open": {}, "sites": [], "labels": {}, "breaks": [{}], "returns": {}}
        self.trace = self.traces.setdefault(fn.name, [])
        env = {"fn": fn.name, "bind": {}, "globals": globals_, "root": fn.name, "stack": [fn.name],
               "steps_of": local_steps(fn.body), "callsite": None}
        self.walk(fn.body, env, state)
        for key, lst in state["sites"]:
            self.sites[key]["lists"].add(tuple((a["kind"], a["object"], a["order"], a["at"], a["via"], a["impl"])
                                               for a in lst))


def local_steps(body):
    """Locals that hold a step: every step constant assigned to or initialising them."""
    out = {}

    def visit(n):
        if n.get("kind") == "VarDecl" and n.get("inner"):
            v = strip(n["inner"][0])
            if v["kind"] == "DeclRefExpr" and v["referencedDecl"]["name"].startswith(STEP_PREFIX):
                out.setdefault(n["id"], set()).add(v["referencedDecl"]["name"][len(STEP_PREFIX):])
        if n.get("kind") == "BinaryOperator" and n.get("opcode") == "=":
            lhs, rhs = strip(n["inner"][0]), strip(n["inner"][1])
            if lhs["kind"] == "DeclRefExpr" and rhs["kind"] == "DeclRefExpr" and \
                    rhs["referencedDecl"]["name"].startswith(STEP_PREFIX):
                out.setdefault(lhs["referencedDecl"]["id"], set()).add(
                    rhs["referencedDecl"]["name"][len(STEP_PREFIX):])
        for c in n.get("inner", []):
            if isinstance(c, dict):
                visit(c)
    visit(body)
    return {k: frozenset(v) for k, v in out.items()}


def port_primitives(fns, names):
    """The kind and memory order of each port primitive, from its own body in the AST."""
    out = {}
    for name in names:
        fn = fns.get(name)
        if fn is None:
            out[name] = None
            continue
        w = Walker(fns, {}, lambda f: fn.file)
        w.run(fn, set())
        accs = [a for a in w.unmarked]
        out[name] = {"accesses": [(a["kind"], a["order"]) for a in accs], "file": fn.file, "line": fn.line}
    return out


def _walk_set(root, tus, roots, summaries, flags, cache, extra_roots=(), at_call=frozenset()):
    asts = []
    for tu in tus:
        if tu not in cache:
            cache[tu] = dump(root, tu, flags)
        asts.append((tu, cache[tu]))      # (_locate is idempotent: a unit shared by sets)
    fns = functions(asts)
    globals_ = set()
    for tu, ast in asts:
        for d in ast.get("inner", []):
            if d.get("kind") == "VarDecl":
                globals_.add(d["id"])
    origin = lambda f: fns[f].tu if f in fns else "?"
    w = Walker(fns, summaries, origin, at_call)
    # Every external definition: in the unit's own file, or in a header only this unit
    # compiles out of line (spin_lock and spin_unlock, src/include/irqsync/spinlock_body.h).
    chosen = roots if roots is not None else [n for n, f in fns.items() if not f.static]
    chosen = list(chosen) + [n for n in extra_roots if n in fns and n not in chosen]
    unmarked = {}
    for name in chosen:
        w.run(fns[name], globals_)
        if w.unmarked:
            unmarked.setdefault((fns[name].tu, name), []).extend(w.unmarked)
            w.unmarked = []
    return w, fns, unmarked


def analyse(root, sets, summaries, flags=None, at_call=frozenset()):
    """sets: [(label, [tu paths], [root function names] or None = every external function)].
    Return (sites, unmarked, fns of the first set, more): more has "traces" ({label: {root:
    trace}}), "edges" (the step-order edges of every set), "indirect" (the pointer calls) and
    "external" (the calls of functions the sources do not define)."""
    flags = flags if flags is not None else clang_flags(root)
    cache = {}
    sites, unmarked, first = {}, {}, None
    more = {"traces": {}, "edges": [], "indirect": [], "external": []}
    for label, tus, roots in sets:
        w, fns, um = _walk_set(root, tus, roots, summaries, flags, cache, (), at_call)
        first = first or fns
        for k, v in um.items():
            unmarked.setdefault(k, []).extend(v)
        for key, s in w.sites.items():
            tgt = sites.setdefault(key, dict(s, lists=set()))
            tgt["lists"] |= s["lists"]
        more["traces"][label] = w.traces
        more["edges"].extend(w.edges)
        more["indirect"].extend(dict(i, set=label) for i in w.indirect)
        more["external"].extend(dict(i, set=label) for i in w.external)
    return sites, unmarked, first, more


def production(root, tus, summaries, inline_roots, obj, at_call=frozenset()):
    """The production configuration: the same units with the flags of the production library's
    compile command (@obj), where spin_lock & co. are the `static inline` bodies spinlock.h
    instantiates and every mark is empty.  Walked from every external function and from
    @inline_roots.  Return (traces {root: trace}, fns, pointer calls, flags)."""
    flags = clang_flags(root, obj)
    w, fns, _ = _walk_set(root, tus, None, summaries, flags, {}, inline_roots, at_call)
    return w.traces, fns, w.indirect, flags


def enum_constants(fns, root, enum_name):
    """The constants of `enum <enum_name>` as the AST of the first unit declares them, without
    the IRQSYNC_STEP_ prefix and the count (IRQSYNC_NR_STEPS)."""
    for fn in fns.values():
        tu_ast = fn.tu_ast
        for d in tu_ast.get("inner", []):
            if d.get("kind") == "EnumDecl" and d.get("name") == enum_name:
                return [c["name"][len(STEP_PREFIX):] for c in d.get("inner", [])
                        if c["kind"] == "EnumConstantDecl" and c["name"].startswith(STEP_PREFIX)]
    raise CError("no enum %s in the AST" % enum_name)

"""check.py - hold the C core and the Promela model to the refinement map (spec/refinement.yml).

  python3 -m tools.refine.check [--root DIR] [--map spec/refinement.yml] [-v]

What it checks (spec/refinement.md):
  steps    the map's steps are exactly those of src/core/steps.h (the enum in clang's AST, and
           IRQSYNC_FOR_EACH_STEP in the map's order) and of the model files' mtype (less the
           labels the map says are not steps); spec/steps.md's tables are the ones the map
           generates (tools/refine/steps.py), byte for byte; every requirement ID the map cites
           is defined in spec/requirements.md
  C        every site of a step in the C (tools/refine/cside.py) is in a function the map names,
           every function the map names has one, and each site's accesses (op, object, memory
           order) are the map's; the port primitives' own bodies have the map's order; no
           access outside a step except in the functions the map lists
  model    the same for the model's sites (tools/refine/pmlside.py), through the map's meaning of
           each mm_* primitive, which must be an inline of every promela/mm/ model
  direct   no use of an atomic word outside the port's bodies (order "direct" fails anywhere)
  pointer  every call through a function pointer is in a function c_indirect_calls lists, and
           every function called that the sources do not define is in c_external_calls; one
           that is (part of) a step (`steps`) is called with exactly those steps open; a static
           function handed to one is walked at the call (`calls_back: at-call`) or fails
  prod     the production configuration (c_production: the production library's flags, the
           inline spin_lock & co.) walks, function by function, to the checked build's ordered
           accesses with the marks left out
  order    each pair of consecutive marks along the C is a pair of consecutive steps of the
           model (its steps without a C site skipped), or is listed in c_order_only
Exit status 0 when everything agrees, 1 with one FAIL line per difference.
"""
import argparse, difflib, os, re, sys

import yaml

from . import cside, pmlside, steps

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fmt(acc):
    return "%s %s %s" % acc


class Check:
    def __init__(self, root, rmap, verbose=False):
        self.root, self.map, self.verbose = root, rmap, verbose
        self.errors, self.notes = [], []
        self.steps = [s["step"] for s in rmap["steps"]]
        self.by_step = {s["step"]: s for s in rmap["steps"]}
        # an object's C lvalue, or several (one object named through a pointer and through the
        # global array: irq_thread.run_pending, irqsync_threads.run_pending)
        self.c_obj = {c: name for name, o in rmap["objects"].items() if "c" in o
                      for c in (o["c"] if isinstance(o["c"], list) else [o["c"]])}
        self.m_obj = {a: name for name, o in rmap["objects"].items() for a in o.get("model", [])}
        self.ignored = {name for name, o in rmap["objects"].items() if "ignore" in o}

    def fail(self, step, msg):
        line = "FAIL %s: %s" % (step, msg)
        if line not in self.errors:        # a site reached from several roots says it once
            self.errors.append(line)

    # ---- expected access sets ----
    def expected(self, accesses, side, config_dependent=False):
        """The accesses a site of side must have (config_dependent: those that only some
        configurations of the model have, which a site may lack)."""
        out = set()
        for a in accesses:
            if a.get("only") and a["only"] != side:
                continue
            if bool(a.get("model_in" if side == "model" else "c_in")) != config_dependent:
                continue
            if side == "c" and a.get("c_at") == "before-mark":
                continue
            order = a.get("model_order", a["order"]) if side == "model" else a["order"]
            out.add((a["op"], a["object"], order))
        return out

    # ---- step lists ----
    def step_lists(self, enum_steps, declared):
        mine = set(self.steps)
        if len(mine) != len(self.steps):
            self.fail("map", "a step is listed twice in spec/refinement.yml")
        self.same_set("src/core/steps.h", set(enum_steps), mine)
        # the copies of the list: spec/steps.md's tables byte for byte, steps.h's order
        for where, msg in steps.differences(self.root, self.map):
            self.fail(where, msg)
        not_steps = set(self.map.get("model_labels_not_steps", {}))
        model_all = set()
        for f, names in declared.items():
            extra = set(names) - mine - not_steps
            for n in sorted(extra):
                self.fail(n, "declared in the mtype of %s but not a step of the map" % f)
            model_all |= set(names)
        for n in sorted(mine - model_all):
            self.fail(n, "a step of the map declared in no model file's mtype (%s)" % ", ".join(sorted(declared)))
        for n in sorted(not_steps - model_all):
            self.fail(n, "model_labels_not_steps names a label no model file declares (stale)")

    def same_set(self, where, theirs, mine):
        for n in sorted(theirs - mine):
            self.fail(n, "in %s but not a step of spec/refinement.yml" % where)
        for n in sorted(mine - theirs):
            self.fail(n, "a step of spec/refinement.yml missing from %s" % where)

    def requirements(self):
        text = open(os.path.join(self.root, "spec/requirements.md")).read()
        defined = set(re.findall(r"^### (REQ-[A-Z]+-\d+) ", text, re.M))
        for s in self.map["steps"]:
            if not s.get("req"):
                self.fail(s["step"], "the map cites no requirement")
            for r in s.get("req", []):
                if r not in defined:
                    self.fail(s["step"], "cites %s, not defined in spec/requirements.md" % r)

    # ---- the C side ----
    def c_access(self, a):
        op, obj, order = a[0], a[1], a[2]
        if order == "direct":
            return None, ("a direct %s of %s at %s in %s: the atomic word named outside the port "
                          "primitives of irqsync/atomic.h (a plain C access to an _Atomic, seq_cst in "
                          "the C11 build, an ordinary one under Frama-C), which no step of the map has"
                          % (op, self.c_obj.get(obj, obj), a[3], a[4]))
        if obj != "-":
            if obj not in self.c_obj:
                return None, "an access to %s, an object the map does not know (%s via %s)" % (obj, a[3], a[4])
            obj = self.c_obj[obj]
        return (op, obj, order), None

    def c_side(self, sites, unmarked, fns):
        by_step = {}
        for key, s in sites.items():
            for st in s["steps"]:
                by_step.setdefault(st, []).append(s)
        for step in self.steps:
            m = self.by_step[step]
            found = by_step.get(step, [])
            if "c_outside" in m:
                for s in found:
                    self.fail(step, "the map says the C outside the core marks it (%s), but %s:%s does (%s)"
                              % (m["c_outside"], s["origin"][0], s["origin"][1], s["loc"]))
                continue
            # a site is file:function, or {at, access, why}: a site with its own accesses
            site_acc = {}
            for entry in m.get("c", []):
                at, accs = (entry, m["access"]) if isinstance(entry, str) else (entry["at"], entry["access"])
                site_acc[at] = accs
            want_at = set(site_acc)
            have_at = {"%s:%s" % s["origin"] for s in found}
            for at in sorted(want_at - have_at):
                self.fail(step, "the map names the C site %s, but the C marks the step there nowhere" % at)
            for at in sorted(have_at - want_at):
                self.fail(step, "the C marks the step in %s, a function the map does not name" % at)
            seen_opt = {}
            for s in found:
                at = "%s:%s" % s["origin"]
                if at not in site_acc:
                    continue
                want = self.expected(site_acc[at], "c")
                optional = self.expected(site_acc[at], "c", config_dependent=True)
                for lst in s["lists"]:
                    seen_opt.setdefault(at, set()).update(
                        self.c_site(step, m, s, lst, want, optional))
            # an access the C has on some paths only (c_in): present in some visit of each site
            for at in sorted(want_at & have_at):
                missing = self.expected(site_acc[at], "c", config_dependent=True) - seen_opt.get(at, set())
                for w in sorted(missing):
                    self.fail(step, "C %s: %s in no visit of the site (the map has it with c_in)" % (at, fmt(w)))
            self.c_before_mark(step, m, found, unmarked)
        self.c_unmarked(unmarked)
        self.c_primitives(fns)

    def c_site(self, step, m, s, lst, want, optional=frozenset()):
        """Compare one visit of a C site with the map; return the optional (c_in) accesses it has."""
        have, where = set(), {}
        for a in lst:
            acc, err = self.c_access(a)
            if err:
                self.fail(step, "%s:%s: %s" % (s["origin"][0], s["origin"][1], err))
                continue
            if acc[1] in self.ignored:
                continue
            have.add(acc)
            where.setdefault(acc, "%s via %s (%s)" % (a[3], a[4], a[5]))
        site = "C %s:%s (mark at %s)" % (s["origin"][0], s["origin"][1], s["loc"])
        seen_opt = have & optional
        self.compare(step, site, want | seen_opt, have, where)
        return seen_opt

    def compare(self, step, site, want, have, where):
        for w in sorted(want - have):
            alt = [h for h in have if h[:2] == w[:2]]
            if alt:
                self.fail(step, "%s: %s %s: map %s, %s %s [%s]" % (site, w[0], w[1], w[2], site.split()[0],
                                                                 alt[0][2], where.get(alt[0], "")))
            else:
                self.fail(step, "%s: missing %s (the map has it in this step)" % (site, fmt(w)))
        for h in sorted(have - want):
            if any(w[:2] == h[:2] for w in want):
                continue                      # reported above as an order difference
            self.fail(step, "%s: %s, not in the map for this step [%s]" % (site, fmt(h), where.get(h, "")))

    def c_before_mark(self, step, m, found, unmarked):
        pre = [a for a in m["access"] if a.get("c_at") == "before-mark"]
        if not pre:
            return
        for s in found:
            have = set()
            for a in unmarked.get(s["origin"], []):
                acc, _ = self.c_access((a["kind"], a["object"], a["order"], a["at"], a["via"]))
                if acc:
                    have.add(acc)
            want = {(a["op"], a["object"], a["order"]) for a in pre}
            self.compare(step, "C %s:%s (before the mark)" % s["origin"], want, have, {})

    def c_unmarked(self, unmarked):
        allowed = self.map.get("c_unmarked", {})
        pre_mark = {(at if isinstance(at, str) else at["at"]) for st in self.map["steps"]
                    if any(a.get("c_at") == "before-mark" for a in st["access"]) for at in st.get("c", [])}
        seen = set()
        for (tu, fn), accs in sorted(unmarked.items()):
            real = []
            for a in accs:
                acc, err = self.c_access((a["kind"], a["object"], a["order"], a["at"], a["via"]))
                if err:
                    self.fail(fn, err)
                elif acc[1] not in self.ignored:
                    real.append(acc)
            if not real or "%s:%s" % (tu, fn) in pre_mark:
                continue
            seen.add(fn)
            if fn not in allowed:
                self.fail(fn, "%s: %s outside any step, and the map's c_unmarked does not list %s"
                          % (tu, ", ".join(fmt(a) for a in real), fn))
        for fn in sorted(set(allowed) - seen):
            self.fail(fn, "listed in c_unmarked, but it has no access outside a step (stale entry)")

    def c_primitives(self, fns):
        prims = self.map["c_primitives"]
        got = cside.port_primitives(fns, list(prims))
        for name, want in prims.items():
            g = got.get(name)
            if g is None:
                self.fail(name, "port primitive not defined in the sources read")
                continue
            if g["accesses"] != [(want["op"], want["order"])]:
                self.fail(name, "port primitive (%s:%s): map %s %s, AST %s" % (
                    g["file"], g["line"], want["op"], want["order"],
                    ", ".join("%s %s" % a for a in g["accesses"]) or "no atomic access"))

    # ---- calls through a function pointer ----
    def c_indirect(self, calls):
        """Every call through a pointer is in a function the map's c_indirect_calls lists."""
        allowed = self.map.get("c_indirect_calls", {})
        seen, said = set(), set()
        for c in calls:
            seen.add(c["fn"])
            if c["fn"] in allowed or (c["fn"], c["at"]) in said:
                continue
            said.add((c["fn"], c["at"]))
            who = ", ".join(sorted(c["steps"])) or c["fn"]
            self.fail(who, "C %s (walked from %s): a call through the function pointer %s at %s, "
                      "which the map's c_indirect_calls does not list: what it accesses is not read"
                      % (c["fn"], c["root"], c["what"], c["at"]))
        for fn in sorted(set(allowed) - seen):
            self.fail(fn, "listed in c_indirect_calls, but it makes no call through a pointer (stale entry)")

    def c_external(self, calls):
        """Every function called that the sources read do not define is one c_external_calls
        lists (what it does is not read: the port's CPU-local primitives)."""
        allowed = self.map.get("c_external_calls", {})
        seen, said = set(), set()
        for c in calls:
            seen.add(c["what"])
            if (c["fn"], c["at"], c["what"]) in said:
                continue
            said.add((c["fn"], c["at"], c["what"]))
            who = ", ".join(sorted(c["steps"])) or c["fn"]
            entry = allowed.get(c["what"])
            if entry is None:
                self.fail(who, "C %s (walked from %s): a call of %s at %s, a function the sources read do "
                          "not define and c_external_calls does not list: what it accesses is not read"
                          % (c["fn"], c["root"], c["what"], c["at"]))
                continue
            entry = entry if isinstance(entry, dict) else {"why": entry}
            # a port call that is (part of) a step: made with exactly those steps open
            if "steps" in entry:
                bad = sorted(c["steps"] - set(entry["steps"]))
                if not c["steps"] or bad:
                    self.fail(who, "C %s (walked from %s): a call of %s at %s in %s, but the map's "
                              "c_external_calls makes it part of step %s only"
                              % (c["fn"], c["root"], c["what"], c["at"],
                                 "step " + "/".join(sorted(c["steps"])) if c["steps"] else "no step",
                                 "/".join(entry["steps"])))
            # a function handed to it: walked at the call (calls_back: at-call), or a root itself
            for cb, static in c.get("callbacks", []):
                if entry.get("calls_back") == "at-call" or not static:
                    continue
                self.fail(who, "C %s (walked from %s): %s is handed to %s at %s, which may call it, "
                          "but the walk never enters it (static, and c_external_calls does not say "
                          "calls_back: at-call): what it accesses is not read"
                          % (c["fn"], c["root"], cb, c["what"], c["at"]))
        for fn in sorted(set(allowed) - seen):
            self.fail(fn, "listed in c_external_calls, but nothing calls it (stale entry)")

    # ---- the production configuration ----
    def production(self, checked, prod, prod_fns):
        """The production build's walk of each function must be the checked build's with the
        marks left out: the same accesses, objects, orders and pointer calls, in the same order.
        A difference is named by the step the checked build has open where it occurs."""
        cfg = self.map["c_production"]
        checked_only = cfg.get("checked_only", {})
        for fn in cfg["inline"]:
            if fn not in prod_fns or not prod_fns[fn].static:
                self.fail(fn, "c_production.inline names it, but the production build has no static "
                          "inline definition of it")
        for fn in sorted(set(checked) - set(prod)):
            if fn not in checked_only:
                self.fail(fn, "walked in the checked (step-hook) build but not defined in the production "
                          "build; c_production.checked_only does not list it")
        for fn in sorted(set(checked_only) - set(checked)):
            self.fail(fn, "listed in c_production.checked_only, but the checked build has no such function (stale)")
        for fn in sorted(set(checked_only) & set(prod)):
            self.fail(fn, "listed in c_production.checked_only, but the production build defines it")
        for fn in sorted(set(prod) - set(checked)):
            self.fail(fn, "production %s:%s: a function the production build defines and the checked "
                      "build does not walk" % (prod_fns[fn].file, fn))
        for fn in sorted(set(prod) & set(checked)):
            self.production_fn(fn, checked[fn], prod[fn], prod_fns[fn])

    def production_fn(self, fn, trace, theirs, fdef):
        # the checked trace without its marks; before[i]: the steps of the marks between its
        # access i-1 and i (or access i's open steps), which name a production-only access there
        mine, before, between = [], [], []
        for e in trace:
            if e["kind"] == "mark":
                between.extend(s for s in sorted(e["steps"]) if s not in between)
                continue
            mine.append(e)
            before.append(between or e["steps"])
            between = []
        theirs = [e for e in theirs if e["kind"] != "mark"]
        key = lambda e: (e["kind"], self.c_obj.get(e["object"], e["object"]), e["order"])
        # aligned on the place too: both builds compile the same files, so a shared access has
        # the same line in both (and one moved in production only is a difference)
        a, b = [key(e) for e in mine], [key(e) for e in theirs]
        pa, pb = [k + (e["at"],) for k, e in zip(a, mine)], [k + (e["at"],) for k, e in zip(b, theirs)]
        where = "production %s:%s (%s)" % (fdef.file, fn, "static inline" if fdef.static else "external")
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, pa, pb, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            if i1 < len(mine):
                steps = before[i1]
            else:
                steps = mine[-1]["steps"] if mine else frozenset()
            steps = list(steps) if isinstance(steps, list) else sorted(steps)
            name = ", ".join(steps) or fn
            want = set()
            for st in steps:
                want |= self.expected(self.by_step[st]["access"], "c") if st in self.by_step else set()
            for e, k in zip(theirs[j1:j2], b[j1:j2]):
                inmap = "in" if k in want else "not in"
                self.fail(name, "%s: %s %s %s at %s, which the checked build does not have there (%s "
                          "the map for this step); the production text differs from what is checked"
                          % (where, k[0], k[1], k[2], e["at"], inmap))
            for e, k in zip(mine[i1:i2], a[i1:i2]):
                self.fail(name, "%s: the checked build's %s %s %s at %s is missing in production"
                          % (where, k[0], k[1], k[2], e["at"]))

    # ---- the order of steps ----
    def c_order(self, edges, model_edges):
        """Each pair of consecutive marks along the C (a mark, then the next mark the walk meets
        on some path) must be a pair of consecutive steps of the model (its steps with no C site
        skipped), or be listed in c_order_only.  A mark whose step is a variable's (one of a
        set) agrees when one of its steps does."""
        extra = {(o["after"], o["then"]) for o in self.map.get("c_order_only", [])}
        used, said = set(), set()
        for prev, new, ploc, nloc, root in edges:
            pairs = {(p, n) for p in prev for n in new}
            if any(p == n for p, n in pairs) or pairs & model_edges:
                continue
            if pairs & extra:
                used |= pairs & extra
                continue
            k = (prev, new, ploc, nloc)
            if k in said:
                continue
            said.add(k)
            after = sorted({n for p in prev for (q, n) in model_edges if q == p})
            self.fail("/".join(sorted(new)), "C order (walked from %s): %s (mark at %s) then %s (mark "
                      "at %s), an order the model never has (after %s it has %s)"
                      % (root, "/".join(sorted(prev)), ploc, "/".join(sorted(new)), nloc,
                         "/".join(sorted(prev)), ", ".join(after) or "nothing"))
        for p, n in sorted(extra - used):
            self.fail(n, "c_order_only lists %s then %s, but the C has no such order, or the model "
                      "has it too (stale)" % (p, n))

    # ---- the model side ----
    def model_side(self, found):
        prims = self.map["model_primitives"]
        by_step = {}
        for (step, origin), lists in found.items():
            by_step.setdefault(step, {})[origin] = lists
        for step in self.steps:
            m = self.by_step[step]
            sites = {}
            optional = {}
            for entry in m.get("model", []):
                at, accs = (entry, m["access"]) if isinstance(entry, str) else (entry["at"], entry["access"])
                sites[at] = self.expected(accs, "model")
                optional[at] = self.expected(accs, "model", config_dependent=True)
            have = by_step.get(step, {})
            for at in sorted(set(sites) - set(have)):
                self.fail(step, "the map names the model site %s, but the model performs the step there nowhere" % at)
            for at in sorted(set(have) - set(sites)):
                self.fail(step, "the model performs the step in %s, which the map does not name" % at)
            for at in sorted(set(sites) & set(have)):
                for lst in have[at]:
                    got, where = set(), {}
                    for prim, addr in lst:
                        p = prims[prim]
                        obj = "-" if addr == "-" else self.m_obj.get(addr)
                        if obj is None:
                            self.fail(step, "model %s: %s on address %s, which the map's objects do not name"
                                      % (at, prim, addr))
                            continue
                        if obj in self.ignored:
                            continue
                        acc = (p["op"], obj, p["order"])
                        got.add(acc)
                        where.setdefault(acc, "%s(%s)" % (prim, addr))
                    # a configuration-dependent access: either present or not, never another
                    seen_opt = got & optional[at]
                    self.compare(step, "model %s" % at, sites[at] | seen_opt, got, where)
                if optional[at] and not any(set(optional[at]) <= {(prims[p]["op"], self.m_obj.get(a, "-") if a != "-"
                                                                   else "-", prims[p]["order"]) for p, a in lst}
                                            for lst in have[at]):
                    self.fail(step, "model %s: %s in no configuration (the map has it with model_in)"
                              % (at, ", ".join(fmt(x) for x in sorted(optional[at]))))
        for step in sorted(set(by_step) - set(self.steps) - set(self.map.get("model_labels_not_steps", {}))):
            self.fail(step, "the model performs a step the map does not have")

    def mm_interface(self):
        for f in ("sc.pml", "tso.pml", "weak.pml"):
            names = pmlside.inline_names(os.path.join(self.root, "promela", "mm", f))
            for p in self.map["model_primitives"]:
                if p not in names:
                    self.fail(p, "a model primitive of the map, but promela/mm/%s defines no such inline" % f)

    def notes_of_map(self):
        for s in self.map["steps"]:
            for a in s["access"]:
                if "model_order" in a:
                    self.notes.append("deviation %s: %s %s: C %s, model %s (%s)" % (
                        s["step"], a["op"], a["object"], a["order"], a["model_order"], " ".join(a["why"].split())))


def c_steps(rmap):
    """The steps the C marks (a site in `c`): the model's order is read over these only."""
    return {s["step"] for s in rmap["steps"] if s.get("c")}


def run(root, map_path, verbose=False):
    rmap = yaml.safe_load(open(os.path.join(root, map_path)))
    chk = Check(root, rmap, verbose)
    sets = [(s["label"], s["tus"], s.get("roots")) for s in rmap["c_sets"]]
    at_call = frozenset(n for n, e in (rmap.get("c_external_calls") or {}).items()
                        if isinstance(e, dict) and e.get("calls_back") == "at-call")
    sites, unmarked, fns, more = cside.analyse(root, sets, rmap["c_calls"], at_call=at_call)
    enum_steps = cside.enum_constants(fns, root, "irqsync_step")
    found, declared, _, model_edges = pmlside.analyse(root, rmap["model_files"], rmap["model_primitives"],
                                                      c_steps(rmap))
    prod = rmap["c_production"]
    core = rmap["c_sets"][0]
    p_traces, p_fns, p_indirect, _ = cside.production(root, core["tus"], rmap["c_calls"], prod["inline"],
                                                      prod["object"], at_call)
    chk.step_lists(enum_steps, declared)
    chk.requirements()
    chk.c_side(sites, unmarked, fns)
    chk.c_indirect(more["indirect"])
    chk.c_external(more["external"])
    chk.production(more["traces"][core["label"]], p_traces, p_fns)
    chk.c_order(more["edges"], model_edges)
    chk.model_side(found)
    chk.mm_interface()
    chk.notes_of_map()
    n_c = sum(len(s["lists"]) for s in sites.values())
    n_m = sum(len(v) for v in found.values())
    return chk, n_c, n_m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=ROOT, help="the tree to check (a copy, for the expected failures)")
    ap.add_argument("--map", default="spec/refinement.yml")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    try:
        chk, n_c, n_m = run(a.root, a.map, a.verbose)
    except (cside.CError, pmlside.PmlError) as e:
        print("refinement: cannot read a side: %s" % e)
        return 2
    for n in chk.notes:
        print(n)
    for e in chk.errors:
        print(e)
    print("refinement: %d steps, %d C sites, %d model sites, %d named deviations; %d differences"
          % (len(chk.steps), n_c, n_m, len(chk.notes), len(chk.errors)))
    return 1 if chk.errors else 0


if __name__ == "__main__":
    sys.exit(main())

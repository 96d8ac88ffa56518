/// atomic-opaque: a use of the `counter` member of an irqsync_atomic_t outside
/// the port primitives of src/include/irqsync/atomic.h - reading it,
/// assigning it, incrementing it, taking its address.  [REQ-MM-4] [REQ-TCB-2]
///
/// An atomic word is read and written only through the primitives of
/// <irqsync/atomic.h>, each with its memory order spelled out (the vocabulary
/// of the refinement map, spec/refinement.yml).  `desc->status.counter = v`
/// compiles - a seq_cst store in the C11 build, an ordinary store under
/// Frama-C, where the type is a plain struct - and no lock or order the map
/// states holds for it (issue 23, finding 3).  The refinement check fails on
/// such a use in the core (tools/refine/cside.py, "direct"); this rule finds it
/// in any file `make lint` is given, drivers included.  ACSL annotations (in
/// comments) may name the member: coccinelle does not read comments.
///
/// Found: E.counter where coccinelle sees that E is an irqsync_atomic_t
/// (struct irqsync_atomic, a typedef of it, a qualified one), and P->counter
/// where P points to one.  Where coccinelle cannot see the type (a member of a
/// struct declared in a header the file includes through another header, as
/// the core's struct irq_desc), E.counter and P->counter are reported when the
/// last name in E or P (desc->status, warn_count[i], v) is declared as an
/// irqsync_atomic_t, or a pointer to one, in the file or in a header it
/// includes ("..." relative to the file, <irqsync/...> from this tree's
/// src/include), followed recursively.  The header atomic.h itself is not
/// reported.  A member named counter of any other struct is not reported.
/// Limits: an atomic word reached through a name declared otherwise (a cast,
/// a macro) is not found here; in the core the refinement check, which reads
/// clang's AST, finds every use.
//
// Confidence: High.  Output: FILE:LINE:COL: cocci/atomic-opaque: MESSAGE

virtual report

@initialize:python@
@@
import os, re
ATOMIC = set(["irqsync_atomic_t", "struct irqsync_atomic"])
TYPEDEF = re.compile(r"typedef\s+(?:const\s+)?(?:volatile\s+)?(?:irqsync_atomic_t|struct\s+irqsync_atomic)\s+(\w+)\s*;")
texts = {}
def text(path):
    if path not in texts:
        try:
            texts[path] = open(path, errors="replace").read()
        except OSError:
            texts[path] = ""
    return texts[path]
def is_atomic(t, path):
    t = " ".join(w for w in t.split() if w not in ("const", "volatile"))
    return t in ATOMIC | set(TYPEDEF.findall(text(path)))
# irqlint.py sets IRQLINT_PORT_DIR to this tree's src/port: its src/include is next to it
SRC_INCLUDE = os.path.join(os.path.dirname(os.environ.get("IRQLINT_PORT_DIR", "src/port")), "include")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
DECL = re.compile(r"(?:irqsync_atomic_t|struct\s+irqsync_atomic)\s+(?:const\s+)?\**\s*(\w+)")
names_of = {}
reported = set()
def atomic_names(path):
    """The names declared as an irqsync_atomic_t (or a pointer to one) in path and the headers
    it includes, recursively."""
    if path in names_of:
        return names_of[path]
    names_of[path] = set()
    out = set(DECL.findall(text(path)))
    for kind, inc in INCLUDE.findall(text(path)):
        if kind == '"':
            h = os.path.join(os.path.dirname(path), inc)
        else:
            h = os.path.join(SRC_INCLUDE, inc)
        if os.path.exists(h):
            out |= atomic_names(os.path.normpath(h))
    names_of[path] = out
    return out
def last_name(e):
    e = re.sub(r"\[[^\]]*\]", "", e).strip()
    m = re.search(r"(\w+)\s*\)*\s*$", e)
    return m.group(1) if m else None
def emit(p, what):
    f = p[0]
    if os.path.realpath(f.file).endswith(os.path.join("irqsync", "atomic.h")):
        return
    if (f.file, f.line, f.column) in reported:
        return
    reported.add((f.file, f.line, f.column))
    print("%s:%s:%d: cocci/atomic-opaque: %s: an atomic word is read and written only "
          "through the primitives of <irqsync/atomic.h> (its memory order spelled out)"
          % (f.file, f.line, int(f.column) + 1, what))

@dot depends on report@
type T;
T E;
position p;
@@
E.counter@p

@script:python depends on dot@
p << dot.p;
T << dot.T;
E << dot.E;
@@
if is_atomic(T, p[0].file):
    emit(p, "'%s.counter' accessed" % E)

@arrow depends on report@
type T;
T *P;
position p;
@@
P->counter@p

@script:python depends on arrow@
p << arrow.p;
T << arrow.T;
P << arrow.P;
@@
if is_atomic(T, p[0].file):
    emit(p, "'%s->counter' accessed" % P)

// ---- where coccinelle cannot see the type: the declared names of atomic words
@udot depends on report@
expression E;
position p;
@@
E.counter@p

@script:python depends on udot@
p << udot.p;
E << udot.E;
@@
if last_name(E) in atomic_names(p[0].file):
    emit(p, "'%s.counter' accessed" % E)

@uarrow depends on report@
expression P;
position p;
@@
P->counter@p

@script:python depends on uarrow@
p << uarrow.p;
P << uarrow.P;
@@
if last_name(P) in atomic_names(p[0].file):
    emit(p, "'%s->counter' accessed" % P)

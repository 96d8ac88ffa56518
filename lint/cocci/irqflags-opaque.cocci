/// irqflags-opaque: an access to the `arch` member of an irq_flags_t outside
/// src/port/ - reading it, writing it, or setting it in an initializer.
/// [REQ-FLAGS-2]
///
/// irq_flags_t is opaque: users and the core only save into it and restore
/// from it; the port alone knows what its member holds (a PRIMASK bit, DAIF
/// bits, a soft mask), so code that looks inside works on one port and not on
/// the next.  The C compiler cannot stop it (the member is visible in the
/// public header), this rule does.  Files under the irqsync tree's src/port/
/// are the port and are not reported (irqlint.py passes that directory in
/// IRQLINT_PORT_DIR; without it, any directory named src/port/ counts).
///
/// Found: E.arch and P->arch where coccinelle sees that E is an irq_flags_t
/// (struct irq_flags, a typedef of it in the file, a qualified one) or P a
/// pointer to one; F(...).arch where F returns irq_flags_t (the API's and
/// the port's save functions, and functions declared so in the file);
/// `.arch = V` in the initializer of an irq_flags_t, of a compound literal
/// of that type, and of an irq_flags_t member of a struct defined in the file.
/// A member named arch of any other struct is not reported; an expression of
/// a type coccinelle cannot see is not reported either.
//
// Confidence: High.  Output: FILE:LINE:COL: cocci/irqflags-opaque: MESSAGE

virtual report

@initialize:python@
@@
import os, re
FLAGS = set(["irq_flags_t", "struct irq_flags"])
RETURNS = set(["irqsync_local_irq_save", "irqsync_port_irq_save"])
TYPEDEF = re.compile(r"typedef\s+(?:const\s+)?(?:irq_flags_t|struct\s+irq_flags)\s+(\w+)\s*;")
port_dir = os.environ.get("IRQLINT_PORT_DIR")
texts = {}
members = set()           # (struct name, member) of irq_flags_t members defined in the file
def text(path):
    if path not in texts:
        try:
            texts[path] = open(path, errors="replace").read()
        except OSError:
            texts[path] = ""
    return texts[path]
def flag_types(path):
    return FLAGS | set(TYPEDEF.findall(text(path)))
def is_flags(t, path):
    return " ".join(w for w in t.split() if w not in ("const", "volatile")) in flag_types(path)
def returns_flags(fn, path):
    if fn in RETURNS:
        return True
    ts = "|".join(re.escape(t).replace(r"\ ", r"\s+") for t in flag_types(path))
    return re.search(r"(?:%s)\s+%s\s*\(" % (ts, re.escape(fn)), text(path)) is not None
def in_port(path):
    a = os.path.realpath(path)
    if port_dir:
        return a.startswith(os.path.realpath(port_dir) + os.sep)
    return "/src/port/" in a
def emit(p, what):
    f = p[0]
    if not in_port(f.file):
        print("%s:%s:%d: cocci/irqflags-opaque: %s: the encoding of irq_flags_t is the "
              "port's; outside src/port/ only save into it and restore from it"
              % (f.file, f.line, int(f.column) + 1, what))

// ---- E.arch, P->arch on an expression of a type coccinelle sees
@dot depends on report@
type T;
T E;
position p;
@@
E.arch@p

@script:python depends on dot@
p << dot.p;
T << dot.T;
E << dot.E;
@@
if is_flags(T, p[0].file):
    emit(p, "'%s.arch' accessed" % E)

@arrow depends on report@
type T;
T *P;
position p;
@@
P->arch@p

@script:python depends on arrow@
p << arrow.p;
T << arrow.T;
P << arrow.P;
@@
if is_flags(T, p[0].file):
    emit(p, "'%s->arch' accessed" % P)

// ---- F(...).arch: coccinelle gives a call no type; the function's name does
@call depends on report@
identifier F;
expression list ES;
position p;
@@
F(ES).arch@p

@script:python depends on call@
p << call.p;
F << call.F;
@@
if returns_flags(F, p[0].file):
    emit(p, "'%s(...).arch' accessed" % F)

// ---- .arch = V in initializers
@init depends on report@
type T;
identifier x;
expression V;
position p;
@@
T x@p = { ..., .arch = V, ... };

@script:python depends on init@
p << init.p;
T << init.T;
x << init.x;
@@
if is_flags(T, p[0].file):
    emit(p, "'.arch' set in the initializer of '%s'" % x)

@lit depends on report@
type T;
expression V;
position p;
@@
 (T@p){ ..., .arch = V, ... }

@script:python depends on lit@
p << lit.p;
T << lit.T;
@@
if is_flags(T, p[0].file):
    emit(p, "'.arch' set in a compound literal of '%s'" % T)

@memf depends on report@
identifier S, m;
typedef irq_flags_t;
@@
struct S { ... irq_flags_t m; ... };

@script:python depends on memf@
S << memf.S;
m << memf.m;
@@
members.add(("struct " + S, m))

@nest depends on report@
type T;
identifier x, m;
expression V;
position p;
@@
T x@p = { ..., .m = { ..., .arch = V, ... }, ... };

@script:python depends on nest@
p << nest.p;
T << nest.T;
x << nest.x;
m << nest.m;
@@
t = " ".join(w for w in T.split() if w not in ("const", "volatile"))
if (t, m) in members:
    emit(p, "'.%s.arch' set in the initializer of '%s'" % (m, x))

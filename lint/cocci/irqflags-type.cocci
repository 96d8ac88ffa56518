/// irqflags-type: the flags argument of spin_lock_irqsave, local_irq_save,
/// spin_unlock_irqrestore or local_irq_restore has a type other than irq_flags_t
/// (typically `unsigned long` or `int`, the kernel habit).  [REQ-FLAGS-1]
///
/// The compiler rejects such code too (irq_flags_t is a struct), but this rule
/// also finds it in code that does not compile yet - a driver half-way through a
/// port from Linux - and names every call site at once, as sparse did for the
/// kernel's irq_flags_t proposal.  Only expressions whose type coccinelle can
/// see (locals, parameters, globals, members of structs defined in the file or
/// its local headers) are checked; an expression of unknown type is not reported.
//
// Confidence: High.  Options: --no-includes --include-headers
// Output: FILE:LINE:COL: cocci/irqflags-type: MESSAGE (one line per finding)

virtual report

@initialize:python@
@@
import re
# irq_flags_t itself, and the names a driver gave it with typedef (read from
# the file: typedef irq_flags_t my_flags_t;)
ok_types = set(["irq_flags_t", "struct irq_flags"])
aliases = {}
TYPEDEF = re.compile(r"typedef\s+(?:const\s+)?(?:irq_flags_t|struct\s+irq_flags)\s+(\w+)\s*;")
def plain(t):
    # qualifiers do not change what is stored: const irq_flags_t is fine
    return " ".join(w for w in t.split() if w not in ("const", "volatile"))
def is_flags(t, path):
    if path not in aliases:
        try:
            aliases[path] = set(TYPEDEF.findall(open(path, errors="replace").read()))
        except OSError:
            aliases[path] = set()
    return t in ok_types or t in aliases[path]

@r depends on report@
expression L;
type T;
T F;
position p;
@@
(
 spin_lock_irqsave@p(L, F)
|
 spin_unlock_irqrestore@p(L, F)
|
 spin_trylock_irqsave@p(L, F)
|
 local_irq_save@p(F)
|
 local_irq_restore@p(F)
)

@script:python depends on r@
p << r.p;
T << r.T;
F << r.F;
@@
t = plain(T)
f = p[0]
if not is_flags(t, f.file):
    print("%s:%s:%d: cocci/irqflags-type: flags '%s' has type '%s', not irq_flags_t"
          % (f.file, f.line, int(f.column) + 1, F, t))

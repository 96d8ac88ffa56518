/// self-wait: synchronize_irq(), disable_irq() or free_irq() called from a
/// handler of the same line.  [REQ-ERR-4]
///
/// Each of them waits until no handler instance of the line runs - including
/// the one that calls it, so in the kernel it hangs for ever.  irqsync refuses
/// such a call at run time with -EDEADLK (REQ-ERR-4), which a driver rarely
/// checks; this rule finds it before it runs.  disable_irq_nosync() is the
/// call that is allowed in a handler.
///
/// A call is reported when it is made in a function passed to
/// request_irq(I, handler, flags, name, D) in the same file and its irq
/// argument names the same line:
///  - the same expression I as in request_irq (a constant, a global, a macro;
///    matched syntactically), or
///  - P->f where request_irq registered D->f and P was assigned from the
///    handler's dev_id parameter (the usual driver pattern: the line is a
///    field of the device structure passed as dev_id), or
///  - the irq parameter of a handler still written for the old prototype
///    h(int irq, void *dev_id) (see old-handler.cocci), or
///  - get_irqfunc_irq(), directly or through a variable assigned from it (the
///    line the handler is serving, REQ-HANDLER-2); this one is reported in
///    any registered handler or any function returning irqreturn_t.
/// A call made in a function the handler calls is found by lint/callgraph.py
/// (through calls across the files of the run, the line followed along the
/// chain; reported under this rule's name).  Not seen: a line reached through
/// other aliases.
//
// Confidence: High.  Options: --no-includes --include-headers
// Output: FILE:LINE:COL: cocci/self-wait: MESSAGE

virtual report

@initialize:python@
@@
regs = {}       # handler name -> [(irq expression, dev_id expression)]
handlers = set()  # functions returning irqreturn_t
devvars = set()   # (function, variable) assigned from the parameter of the function
irqvars = set()   # (function, variable) assigned from get_irqfunc_irq()
oldparam = {}     # handler -> its irq parameter (old prototype)
seen = set()
def out(p, what, why):
    k = (p[0].file, p[0].line, p[0].column)
    if k in seen:
        return
    seen.add(k)
    print("%s:%s:%d: cocci/self-wait: %s() in handler %s() of the same line (%s) waits for "
          "itself and returns -EDEADLK; use disable_irq_nosync() or defer the call"
          % (p[0].file, p[0].line, int(p[0].column) + 1, what, p[0].current_element, why))

@reg@
identifier handler;
expression I, FL, N, D;
type T;
@@
(
 request_irq(I, handler, FL, N, D)
|
 request_irq(I, (T)handler, FL, N, D)
)

@script:python@
h << reg.handler;
I << reg.I;
D << reg.D;
@@
regs.setdefault(h, []).append((I, D))

# a handler still taking the irq number (see old-handler.cocci): that
# parameter is the line it serves
@oldp@
identifier reg.handler, i, d;
type T, TD;
@@
handler(T i, TD d) { ... }

@script:python@
h << reg.handler;
i << oldp.i;
@@
oldparam[h] = i

@irqret@
typedef irqreturn_t;
identifier fn;
@@
irqreturn_t fn(...) { ... }

@script:python@
fn << irqret.fn;
@@
handlers.add(fn)

# variables set from the dev_id parameter of a handler, or from get_irqfunc_irq()
@dev@
identifier fn, dv, P;
type T, T2;
position p;
@@
fn(T dv) {
  ... when any
(
 T2 P@p = dv;
|
 T2 P@p = (T2)dv;
|
 P@p = dv
|
 P@p = (T2)dv
)
  ... when any
}

@script:python@
fn << dev.fn;
P << dev.P;
@@
devvars.add((fn, P))

@cur@
identifier V;
type T;
position p;
@@
(
 T V@p = get_irqfunc_irq();
|
 V@p = get_irqfunc_irq()
)

@script:python@
V << cur.V;
p << cur.p;
@@
irqvars.add((p[0].current_element, V))

@call@
identifier wait = {synchronize_irq, disable_irq, free_irq};
expression I;
position p;
@@
 wait@p(I, ...)

@script:python@
w << call.wait;
I << call.I;
p << call.p;
@@
import re
fn = p[0].current_element
why = None
I = " ".join(I.split())
# a cast of the line number changes nothing: (unsigned int)get_irqfunc_irq()
I = re.sub(r"^\(\s*(const\s+)?(unsigned|signed)?\s*(int|long|char|short|[A-Za-z_][A-Za-z0-9_]*_t)?\s*\)\s*", "", I)
for (ri, rd) in regs.get(fn, []):
    if I == ri:
        why = "request_irq(%s, %s, ...)" % (ri, fn)
        break
    # D->f registered, P->f called, P taken from dev_id
    if " -> " in ri and " -> " in I:
        rbase, rfield = ri.rsplit(" -> ", 1)
        cbase, cfield = I.rsplit(" -> ", 1)
        if rbase == rd and rfield == cfield and (fn, cbase) in devvars:
            why = "%s is the dev_id field %s, registered as %s" % (cbase, cfield, ri)
            break
if why is None and fn in regs and oldparam.get(fn) == I:
    why = "%s is the irq parameter of the old prototype" % I
if why is None and (fn in regs or fn in handlers):
    if I.replace(" ", "") == "get_irqfunc_irq()":
        why = "get_irqfunc_irq()"
    elif (fn, I) in irqvars:
        why = "%s = get_irqfunc_irq()" % I
if why:
    out(p, w, why)

/// callgraph: the facts lint/callgraph.py needs to follow calls across the files
/// of one lint run (SRC=), printed one JSON object a line, prefixed "FACT ".
/// Not a rule: lint/irqlint.py runs it beside lint/cocci/*.cocci and turns the
/// facts into cocci/spin-lock-irq and cocci/self-wait findings with a call chain.
///
///  func    a function definition: name, parameters, static or not
///  call    a direct call f(args) (calls through pointers are not seen)
///  offcall a call made where interrupts are off in the caller: inside a
///          spin_lock_irqsave / local_irq_save / local_irq_disable /
///          spin_lock_irq region (the same regions as spin-lock-irq.cocci)
///  site    spin_lock_irq, spin_unlock_irq, local_irq_enable: what must not
///          run with interrupts off
///  wait    synchronize_irq, disable_irq, free_irq and their irq argument
///  reg     request_irq(I, handler, flags, name, D)
///  irqret  a function returning irqreturn_t (a handler, REQ-DISPATCH-8)
///  alias   P = Q (or T P = Q, casts allowed) with Q an identifier
///  irqvar  V = get_irqfunc_irq()
///
/// Positions are spatch's: line, and the 0-based column of the call.
// Options: --no-includes --include-headers (as irqlint runs every rule)

@initialize:python@
@@
import json
def fact(kind, p, **kw):
    d = {"kind": kind}
    if p is not None:
        d.update(file=p[0].file, line=int(p[0].line), col=int(p[0].column), fn=p[0].current_element)
    d.update(kw)
    print("FACT " + json.dumps(d, sort_keys=True))

@func@
identifier fn;
parameter list ps;
type T;
position p;
@@
T fn@p(ps) { ... }

@script:python@
fn << func.fn;
ps << func.ps;
p << func.p;
@@
fact("func", p, name=fn, params=str(ps))

@sfunc@
identifier fn;
parameter list ps;
type T;
position p;
@@
static T fn@p(ps) { ... }

@script:python@
fn << sfunc.fn;
p << sfunc.p;
@@
fact("static", p, name=fn)

@call@
identifier f;
expression list es;
position p;
@@
f@p(es)

@script:python@
f << call.f;
es << call.es;
p << call.p;
@@
fact("call", p, callee=f, args=str(es))

@off exists@
expression L1, F;
identifier f;
position p;
@@
(
 spin_lock_irqsave(L1, F);
 ... when != spin_unlock_irqrestore(L1, F);
     when any
|
 local_irq_save(F);
 ... when != local_irq_restore(F);
     when any
|
 local_irq_disable();
 ... when != local_irq_enable();
     when any
|
 spin_lock_irq(L1);
 ... when != spin_unlock_irq(L1);
     when any
)
 f@p(...)

@script:python@
f << off.f;
p << off.p;
@@
fact("offcall", p, callee=f)

@site@
identifier f = {spin_lock_irq, spin_unlock_irq, local_irq_enable};
position p;
@@
 f@p(...)

@script:python@
f << site.f;
p << site.p;
@@
fact("site", p, what=f)

@wait@
identifier w = {synchronize_irq, disable_irq, free_irq};
expression I;
position p;
@@
 w@p(I, ...)

@script:python@
w << wait.w;
I << wait.I;
p << wait.p;
@@
fact("wait", p, what=w, irq=I)

@reg@
identifier handler;
expression I, FL, N, D;
type T;
position p;
@@
(
 request_irq@p(I, handler, FL, N, D)
|
 request_irq@p(I, (T)handler, FL, N, D)
)

@script:python@
h << reg.handler;
I << reg.I;
D << reg.D;
p << reg.p;
@@
fact("reg", p, handler=h, irq=I, dev=D)

@irqret@
typedef irqreturn_t;
identifier fn;
position p;
@@
irqreturn_t fn@p(...) { ... }

@script:python@
fn << irqret.fn;
p << irqret.p;
@@
fact("irqret", p, name=fn)

@alias@
identifier P, Q;
type T, T2;
position p;
@@
(
 T2 P@p = Q;
|
 T2 P@p = (T)Q;
|
 P@p = Q
|
 P@p = (T)Q
)

@script:python@
P << alias.P;
Q << alias.Q;
p << alias.p;
@@
fact("alias", p, to=P, src=Q)

@irqvar@
identifier V;
type T, T2;
position p;
@@
(
 T V@p = get_irqfunc_irq();
|
 T V@p = (T2)get_irqfunc_irq();
|
 V@p = get_irqfunc_irq()
|
 V@p = (T2)get_irqfunc_irq()
)

@script:python@
V << irqvar.V;
p << irqvar.p;
@@
fact("irqvar", p, var=V)

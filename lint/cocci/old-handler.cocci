/// old-handler: a handler still written for the old prototype that took the
/// irq number - irqreturn_t h(int irq, void *dev_id) - passed to request_irq().
/// [REQ-HANDLER-1]
///
/// irqsync handlers are irqreturn_t h(void *dev_id); get_irqfunc_irq() gives
/// the line.  Without a cast the compiler rejects the call; with a cast
/// ((irq_handler_t)h, often added to "fix" that error during a port) it
/// compiles and the handler reads its dev_id from the irq slot and garbage
/// from the second: this rule reports both.  The finding is on the handler's
/// definition (what must change) - or on the request_irq() call when the
/// handler is only declared in this file.
//
// Confidence: High.  Options: --no-includes --include-headers
// Output: FILE:LINE:COL: cocci/old-handler: MESSAGE

virtual report

@initialize:python@
@@
seen = set()
regs = {}
defined = set()
def out(p, msg):
    k = (p[0].file, p[0].line)
    if k in seen:
        return
    seen.add(k)
    print("%s:%s:%d: cocci/old-handler: %s" % (p[0].file, p[0].line, int(p[0].column) + 1, msg))
INTS = ("int", "unsigned int", "unsigned", "long", "unsigned long", "short",
        "unsigned short", "uint32_t", "int32_t", "u32", "s32", "uint16_t", "u16",
        "size_t", "irq_t")
def is_int(t):
    t = " ".join(t.replace("const", "").split())
    return t in INTS

@reg@
identifier handler;
expression I, FL, N, D;
position pr;
@@
 request_irq@pr(I, <+... handler ...+>, FL, N, D)

@script:python@
h << reg.handler;
pr << reg.pr;
@@
regs.setdefault(h, []).append(pr)

@olddef@
identifier reg.handler, i, d;
type R, TI, TD;
position p;
@@
(
 R handler@p(TI i, TD d) { ... }
|
 R handler@p(TI i, TD d, ...) { ... }
)

@script:python@
h << reg.handler;
TI << olddef.TI;
p << olddef.p;
@@
defined.add(h)
if is_int(TI):
    out(p, "handler %s() takes the irq number (old prototype %s(int irq, void *dev_id)); "
           "irqsync handlers are irqreturn_t %s(void *dev_id) and use get_irqfunc_irq()" % (h, h, h))

@decl@
identifier reg.handler, i, d;
type R, TI, TD;
@@
(
 R handler(TI i, TD d);
|
 R handler(TI i, TD d, ...);
|
 R handler(TI, TD);
|
 R handler(TI, TD, ...);
)

@script:python@
h << reg.handler;
TI << decl.TI;
@@
if is_int(TI) and h not in defined:
    for pr in regs.get(h, []):
        out(pr, "handler %s() is declared with the old prototype (takes the irq number); "
                "irqsync handlers are irqreturn_t %s(void *dev_id)" % (h, h))

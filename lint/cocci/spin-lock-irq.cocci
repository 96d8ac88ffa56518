/// spin-lock-irq: spin_lock_irq()/spin_unlock_irq() where local interrupts may
/// already be disabled.  [REQ-LOCK-4]
///
/// spin_unlock_irq() enables interrupts unconditionally.  Called where the code
/// around it runs with interrupts off, it re-enables them too early: an
/// interrupt on this CPU may then spin on a lock the interrupted code holds.
/// Reported contexts (each spin_lock_irq and spin_unlock_irq in them):
///  - inside a spin_lock_irqsave()/local_irq_save() region, before the
///    matching spin_unlock_irqrestore()/local_irq_restore() on some path;
///  - inside a local_irq_disable() ... local_irq_enable() region;
///  - inside another spin_lock_irq(A) ... spin_unlock_irq(A) region (B's unlock
///    enables interrupts while A is still held);
///  - anywhere in an interrupt handler: a function passed to request_irq() in
///    this file, or any function returning irqreturn_t (handlers run with
///    local interrupts disabled, REQ-DISPATCH-8).
/// A function that is only *called* from such a context is found by
/// lint/callgraph.py (through calls across the files of the run, reported
/// under this rule's name with the call chain).
///
/// Patch mode (-D patch) rewrites a reported pair (one reported here, or one
/// lint/callgraph.py found and lint/irqlint.py lists in IRQLINT_FLAGGED) to spin_lock_irqsave(L, f) /
/// spin_unlock_irqrestore(L, f) with a new irq_flags_t f declared at the top of
/// the function - only where that is safe: the lock and its unlock are both
/// reported, in the same function, and every path from the lock reaches the
/// unlock of the same lock expression (no return or goto out in between).
/// Anything else is left for a human and stays reported.
//
// Confidence: High (contexts), the patch keeps behaviour where interrupts were
// enabled on entry and fixes it where they were not.
// Options: --no-includes --include-headers
// Output (report): FILE:LINE:COL: cocci/spin-lock-irq: MESSAGE

virtual report
virtual patch

@initialize:python@
@@
import json, os
flagged = set()
names = {}
# the sites lint/callgraph.py found through calls (a helper reached with
# interrupts off): lint/irqlint.py lists them for the patch mode in the file
# named by IRQLINT_FLAGGED, as [file, line, column]
extra = set()
if os.environ.get("IRQLINT_FLAGGED"):
    with open(os.environ["IRQLINT_FLAGGED"]) as fh:
        extra = {tuple(x) for x in json.load(fh)}
def key(p):
    return (p[0].file, p[0].line, p[0].column)
def flag(p, msg):
    k = key(p)
    if k in flagged:
        return
    flagged.add(k)
    if "report" in virtuals:
        print("%s:%s:%d: cocci/spin-lock-irq: %s" % (p[0].file, p[0].line, int(p[0].column) + 1, msg))
virtuals = set()

@script:python depends on report@
@@
virtuals.add("report")

# ---- context 1: inside an irqsave / irq-save / irq-disabled / spin_lock_irq region
@region exists@
expression L1, F, L2;
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
)
(
 spin_lock_irq@p(L2);
|
 spin_unlock_irq@p(L2);
)

@script:python@
p << region.p;
@@
flag(p, "interrupts may already be disabled here (inside an irqsave/irq-disabled region): use spin_lock_irqsave/spin_unlock_irqrestore")

@nested exists@
expression L1, L2;
position p;
@@
 spin_lock_irq(L1);
 ... when != spin_unlock_irq(L1);
     when any
(
 spin_lock_irq@p(L2);
|
 spin_unlock_irq@p(L2);
)

@script:python@
p << nested.p;
L1 << nested.L1;
L2 << nested.L2;
@@
if L1 != L2:
    flag(p, "nested in spin_lock_irq(%s): the inner spin_unlock_irq enables interrupts while %s is held; use spin_lock_irqsave/spin_unlock_irqrestore" % (L1, L1))

# ---- context 2: in an interrupt handler
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

@inhandler exists@
identifier reg.handler;
expression L;
position p;
@@
handler(...) {
  ... when any
(
 spin_lock_irq@p(L);
|
 spin_unlock_irq@p(L);
)
  ... when any
}

@script:python@
p << inhandler.p;
h << reg.handler;
@@
flag(p, "in interrupt handler %s(), which runs with interrupts disabled: use spin_lock/spin_lock_irqsave, not spin_lock_irq" % h)

@inirqret exists@
typedef irqreturn_t;
identifier fn;
expression L;
position p;
@@
irqreturn_t fn(...) {
  ... when any
(
 spin_lock_irq@p(L);
|
 spin_unlock_irq@p(L);
)
  ... when any
}

@script:python@
p << inirqret.p;
fn << inirqret.fn;
@@
flag(p, "in interrupt handler %s(), which runs with interrupts disabled: use spin_lock/spin_lock_irqsave, not spin_lock_irq" % fn)

# ---- patch mode: rewrite reported pairs where it is safe
# the new variables are named irqflags0, irqflags1, ...: no rewrite in a file
# that already uses such a name (as a variable, a parameter or in an expression)
@clash depends on patch@
identifier x =~ "^irqflags[0-9]+$";
@@
x

@clashdecl depends on patch@
identifier x =~ "^irqflags[0-9]+$";
type T;
@@
T x;

@clashinit depends on patch@
identifier x =~ "^irqflags[0-9]+$";
type T;
expression E;
@@
T x = E;

@clashparam depends on patch@
identifier x =~ "^irqflags[0-9]+$";
identifier fn;
type T;
@@
fn(..., T x, ...) { ... }

@fix depends on patch && !clash && !clashdecl && !clashinit && !clashparam@
identifier fn;
expression L;
fresh identifier fl = "irqflags";
position p : script:python() { key(p) in flagged or key(p) in extra };
position q : script:python() { key(q) in flagged or key(q) in extra };
@@
fn(...) {
<+...
- spin_lock_irq@p(L);
+ spin_lock_irqsave(L, fl);
  ... when strict
- spin_unlock_irq@q(L);
+ spin_unlock_irqrestore(L, fl);
...+>
}

@script:python depends on fix@
fn << fix.fn;
fl << fix.fl;
@@
names.setdefault(fn, []).append(fl)

@script:python decl@
fn << fix.fn;
vars;
@@
coccinelle.vars = cocci.make_ident(", ".join(sorted(set(names[fn]))))

@depends on patch@
identifier fix.fn;
identifier decl.vars;
@@
fn(...) {
+ irq_flags_t vars;
  ...
}

/// threaded-request: a threaded request the core refuses - a NULL primary
/// handler without IRQF_ONESHOT, or IRQF_ONESHOT without a thread function -
/// at the request_threaded_irq() / devm_request_threaded_irq() call.
///
/// request_threaded_irq(irq, handler, thread_fn, flags, name, dev_id) (and
/// devm_request_threaded_irq(dev, irq, handler, thread_fn, flags, name,
/// dev_id) in Linux drivers).  A NULL handler gets the default primary, which
/// only wakes the thread: without IRQF_ONESHOT the line is unmasked while the
/// device still asserts it and fires again at once, for ever, so irqsync
/// refuses the request with -IRQSYNC_EINVAL and Linux with -EINVAL ("Threaded
/// irq requested with handler=NULL and !ONESHOT").  IRQF_ONESHOT with a NULL
/// thread_fn leaves the line masked after the primary with no thread to
/// unmask it: irqsync refuses it with -IRQSYNC_EINVAL (Linux only warns).
/// request_irq() and devm_request_irq() are the same call with no thread
/// function, so IRQF_ONESHOT given to them is reported too.
/// Requirement REQ-THREAD-2 (spec/requirements.md).
///
/// Reported only when the flags argument shows its value at the call: 0, or
/// IRQF_* names joined with | (parentheses allowed).  Flags in a variable, a
/// macro of another name, a number other than 0 or an expression with other
/// operators are not judged; neither is IRQF_COND_ONESHOT (ONESHOT or not
/// depends on the actions already on the line).  A handler counts as NULL
/// when it is NULL or 0, behind casts and parentheses.
//
// Confidence: High.  Options: --no-includes --include-headers
// Output: FILE:LINE:COL: cocci/threaded-request: MESSAGE

virtual report

@initialize:python@
@@
import re
seen = set()
TOK = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*|\S")
ZERO = re.compile(r"^(0+|0[xX]0+)[uUlL]*$")

def flag_names(f):
    """The IRQF_* names of a flags argument whose value is seen at the call, else None."""
    names = set()
    for t in TOK.findall(f):
        if t in ("|", "(", ")") or ZERO.match(t):
            continue
        if re.match(r"^IRQF_[A-Z0-9_]+$", t) and t != "IRQF_COND_ONESHOT":
            names.add(t)
            continue
        return None
    return names

def strip_outer(s):
    """s without one pair of parentheses around all of it, or None."""
    if not (s.startswith("(") and s.endswith(")")):
        return None
    depth = 0
    for i, c in enumerate(s):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and i < len(s) - 1:
            return None
    return s[1:-1]

def is_null(e):
    s = "".join(e.split())
    while True:
        inner = strip_outer(s)
        if inner is not None:
            s = inner
            continue
        m = re.match(r"^\((?:const|volatile|struct|enum|unsigned|signed|[A-Za-z_][A-Za-z0-9_]*|\*)+\)(.+)$", s)
        if m and m.group(1)[0] not in "+-":
            s = m.group(1)
            continue
        break
    return s == "NULL" or bool(ZERO.match(s))

def out(p, msg):
    k = (p[0].file, p[0].line, p[0].column)
    if k in seen:
        return
    seen.add(k)
    print("%s:%s:%d: cocci/threaded-request: %s" % (p[0].file, p[0].line, int(p[0].column) + 1, msg))

def judge(p, fn, handler, thread_fn, flags):
    names = flag_names(flags)
    if names is None:
        return
    flags = re.sub(r"\s+\)", ")", re.sub(r"\(\s+", "(", " ".join(flags.split())))
    oneshot = "IRQF_ONESHOT" in names
    no_thread = thread_fn is None or is_null(thread_fn)    # request_irq(): no thread_fn at all
    if oneshot and no_thread:
        out(p, "%s() with IRQF_ONESHOT (flags %s) and no thread function: nothing would unmask "
               "the line after the primary; refused with -IRQSYNC_EINVAL (Linux warns); drop "
               "IRQF_ONESHOT or pass a thread_fn" % (fn, flags))
    elif thread_fn is not None and is_null(handler) and not oneshot:
        out(p, "%s() with a NULL primary handler and flags %s without IRQF_ONESHOT: the default "
               "primary only wakes the thread and the unmasked line fires again at once; refused "
               "with -IRQSYNC_EINVAL (Linux: -EINVAL, \"handler=NULL and !ONESHOT\"); add "
               "IRQF_ONESHOT or pass a primary that quiets the device" % (fn, flags))

@rt@
expression I, H, T, F, N, D;
position p;
@@
 request_threaded_irq@p(I, H, T, F, N, D)

@script:python@
H << rt.H;
T << rt.T;
F << rt.F;
p << rt.p;
@@
judge(p, "request_threaded_irq", H, T, F)

@drt@
expression DEV, I, H, T, F, N, D;
position p;
@@
 devm_request_threaded_irq@p(DEV, I, H, T, F, N, D)

@script:python@
H << drt.H;
T << drt.T;
F << drt.F;
p << drt.p;
@@
judge(p, "devm_request_threaded_irq", H, T, F)

@ri@
expression I, H, F, N, D;
position p;
@@
 request_irq@p(I, H, F, N, D)

@script:python@
H << ri.H;
F << ri.F;
p << ri.p;
@@
judge(p, "request_irq", H, None, F)

@dri@
expression DEV, I, H, F, N, D;
position p;
@@
 devm_request_irq@p(DEV, I, H, F, N, D)

@script:python@
H << dri.H;
F << dri.F;
p << dri.p;
@@
judge(p, "devm_request_irq", H, None, F)

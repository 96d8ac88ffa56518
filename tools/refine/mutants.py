"""mutants.py - the refinement check's expected failures: each is an exact-once string edit of
one file, applied to a COPY of the tree under build/refine/mutants/<id>/ (the working tree is
never touched), on which `tools.refine.check --root <copy>` must fail naming the step.

  python3 -m tools.refine.mutants ID     print the check's output on the mutated copy; exit as it
  python3 -m tools.refine.mutants --list
"""
import os, shutil, sys

from . import check

ROOT = check.ROOT
WORK = os.path.join(ROOT, "build", "refine", "mutants")
COPY = ("src", "promela", "spec", "tests/variants", "mk", "Makefile")

# id: (file, old text, new text, what it is)
MUTANTS = {
    "null": (None, None, None, "the control: the copy unchanged must pass"),
    "wait-acquire-relaxed": (
        "src/core/spinlock.c",
        "irqsync_await(&lock->owner, ~0U, ticket, 1, IRQSYNC_STEP_LOCK_WAIT",
        "irqsync_await(&lock->owner, ~0U, ticket, 0, IRQSYNC_STEP_LOCK_WAIT",
        "the ticket wait reads owner relaxed (the helper's acquire flag cleared)"),
    "fast-wait-acquire-relaxed": (
        "src/include/irqsync/spinlock_body.h",
        "turn = irqsync_atomic_read_acquire(&lock->owner);",
        "turn = irqsync_atomic_read_relaxed(&lock->owner);",
        "the inline lock's first look at owner reads it relaxed"),
    "port-acquire-relaxed": (
        "src/include/irqsync/atomic.h",
        "return atomic_load_explicit(&v->counter, memory_order_acquire);",
        "return atomic_load_explicit(&v->counter, memory_order_relaxed);",
        "the port's load-acquire weakened to relaxed"),
    "unlock-release-relaxed": (
        "src/include/irqsync/spinlock_body.h",
        "irqsync_atomic_set_release(&lock->owner, owner + 1U);",
        "irqsync_atomic_set_relaxed(&lock->owner, owner + 1U);",
        "the unlock's release store weakened to relaxed"),
    "mb-seqcst-acqrel": (
        "src/include/irqsync/atomic.h",
        "atomic_thread_fence(memory_order_seq_cst);",
        "atomic_thread_fence(memory_order_acq_rel);",
        "smp_mb's full fence weakened to acquire-release"),
    "recheck-after-unlock": (
        "src/core/sync.c",
        "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
        "\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);\n",
        "\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);\n"
        "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n",
        "the re-check's status read moved after the unlock mark"),
    "model-ticket-full-rmw": (
        "promela/ticket.pml",
        "mm_fetch_add_acq(me, NEXT, 1, t, LOCK_TICKET)",
        "mm_fetch_add(me, NEXT, 1, t, LOCK_TICKET)",
        "the model's ticket a fully ordered RMW again (the closed LOCK_TICKET deviation)"),
    "model-spin-stores": (
        "promela/irq.pml",
        "mm_load(me, STATUS(l), st, S_SPIN_READ)",
        "mm_store(me, STATUS(l), st, S_SPIN_READ)",
        "the model's spin stores where the map says load"),
    # ---- issue 23: what ships is what is checked ----
    "production-early-publish": (
        "src/include/irqsync/spinlock.h",
        "#define IRQSYNC_SPIN_RELEASED(lock) ((void)0)",
        "#define IRQSYNC_SPIN_RELEASED(lock) irqsync_atomic_set_relaxed(&(lock)->owner, owner + 1U)",
        "production only (spinlock.h's #else): the unlock publishes the next ticket with a relaxed "
        "store before its release store"),
    "production-mark-fence": (
        "src/core/steps.h",
        "# define IRQSYNC_STEP_AT(step, irq) ((void)(step), (void)(irq))",
        "# define IRQSYNC_STEP_AT(step, irq) ((void)(step), (void)(irq), irqsync_smp_mb())",
        "production only (steps.h's #else): every empty mark becomes a full fence"),
    "direct-status-store": (
        "src/core/sync.c",
        "\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "\tdesc->status.counter = status;\n\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "an unlocked plain store to the status word's member (desc->status.counter = v)"),
    "pointer-call-unlisted": (
        "src/core/handle.c",
        "if (irqsync_call_handler(chain->handler[i], chain->dev_id[i]) == IRQ_HANDLED)",
        "if (chain->handler[i](chain->dev_id[i]) == IRQ_HANDLED)",
        "the handler called through its pointer outside irqsync_call_handler (unlisted)"),
    "pointer-write": (
        "src/core/sync.c",
        "\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "\t{\n\t\tvoid (*set)(irqsync_atomic_t *, unsigned int) = irqsync_atomic_set_relaxed;\n\n"
        "\t\tset(&desc->status, 0U);\n\t}\n\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "an unlocked write of the status word through a function pointer"),
    "step-moved-with-mark": (
        "src/core/sync.c",
        "\t\tIRQSYNC_STEP(S_RECHECK, irq);\n"
        "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
        "\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);\n",
        "\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_S_UNLOCK, irq);\n"
        "\t\tIRQSYNC_STEP(S_RECHECK, irq);\n"
        "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n",
        "the re-check moved after the unlock together with its mark (each step's accesses unchanged)"),
    "external-memset": (
        "src/core/sync.c",
        "\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "\t__builtin_memset(&desc->status, 0, sizeof(desc->status));\n\tIRQSYNC_STEP(S_RETURN, irq);\n",
        "an unlocked write of the status word by a function the sources do not define (memset)"),
    "model-recheck-after-unlock": (
        "promela/irq.pml",
        "\t\tlock_load(me, DLOCK(l), S_LOCK, STATUS(l), st, S_RECHECK);\n"
        "\t\tunlock(me, DLOCK(l), S_UNLOCK);\n",
        "\t\tlock(me, DLOCK(l), S_LOCK);\n"
        "\t\tunlock(me, DLOCK(l), S_UNLOCK);\n"
        "\t\tmm_load(me, STATUS(l), st, S_RECHECK);\n",
        "the model's re-check moved after its unlock (each step's accesses unchanged)"),
    "steps-h-extra": (
        "src/core/steps.h",
        "S(IRQ_ENABLE) S(IRQ_ARRIVE)",
        "S(IRQ_ENABLE) S(IRQ_ARRIVE) S(IRQ_EXTRA)",
        "a step added to steps.h only"),
    "steps-md-renamed": (
        "spec/steps.md",
        "| `S_RETURN` |",
        "| `S_RETURNED` |",
        "a step renamed in spec/steps.md only"),
    "steps-md-access-changed": (
        "spec/steps.md",
        "| `S_RECHECK` | load `desc.status` relaxed |",
        "| `S_RECHECK` | load `desc.status` acquire |",
        "a step's access edited in spec/steps.md only (the map keeps relaxed)"),
    "steps-h-reordered": (
        "src/core/steps.h",
        "S(S_LOCK) S(S_RECHECK)",
        "S(S_RECHECK) S(S_LOCK)",
        "two steps swapped in steps.h only (same names, another order)"),
}


def copy_tree(mid):
    dest = os.path.join(WORK, mid)
    shutil.rmtree(dest, ignore_errors=True)
    for part in COPY:
        src = os.path.join(ROOT, part)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, part), ignore=shutil.ignore_patterns("__pycache__"))
        else:
            os.makedirs(os.path.dirname(os.path.join(dest, part)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, part))
    path, old, new, _ = MUTANTS[mid]
    if path:
        full = os.path.join(dest, path)
        text = open(full).read()
        n = text.count(old)
        if n != 1:
            raise SystemExit("mutant %s does not apply: the text occurs %d times in %s (update %s)"
                             % (mid, n, path, __file__))
        open(full, "w").write(text.replace(old, new))
    return dest


def main(argv):
    if argv[:1] == ["--list"]:
        for mid, m in MUTANTS.items():
            print("%-24s %s" % (mid, m[3]))
        return 0
    if len(argv) != 1 or argv[0] not in MUTANTS:
        print("usage: python3 -m tools.refine.mutants ID|--list (ids: %s)" % ", ".join(MUTANTS))
        return 2
    dest = copy_tree(argv[0])
    print("mutant %s: %s (copy: %s)" % (argv[0], MUTANTS[argv[0]][3], os.path.relpath(dest, ROOT)))
    return check.main(["--root", dest])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

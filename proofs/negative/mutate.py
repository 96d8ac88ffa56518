#!/usr/bin/env python3
"""proofs/negative/mutate.py - the proof mutants of the core: expected proof failures.

Each mutant is an exact-once edit of one file of src/core/ or of a public header that breaks
one requirement, the function WP proves on it, the clause it breaks (WP proves only that clause's goals, -wp-prop,
without smoke tests), and the goals that must then be, exactly, the unproved ones
(proofs/gate.py --expect-unproved).  `make prove-neg-<name>` runs one; make prove-expected runs
them all; tests/suites/50-proof.sh asserts each one's named goals.

  mutate.py list
      the mutants' names
  mutate.py prove NAME OUTDIR --cpp "CPP ARGS" -- GATE COMMAND...
      writes OUTDIR/<file> (the mutated copy) and OUTDIR/core.c (the unity file of proofs/core.c
      with the mutant in place of the original), then runs GATE COMMAND with the mutant's
      --fct and --expect-unproved options and the unity file as Frama-C's input; exits with the
      gate's status.

Exits 2 if the code to mutate is no longer there, so a change of the core cannot turn an
expected failure into a vacuous pass.
"""
import os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLIC = "src/include/"

# The call-site precondition and loop-invariant goals WP names after the clause's labels.
IN_INSTANCE = "REQ_SYNC_1_REQ_DISPATCH_3_in_instance"
EVERY_PASS = "REQ_SYNC_1_REQ_DISPATCH_3(_every_pass_in_instance)?"
# Assertions of handle_irq that lie inside the edited text (src/core/handle.c).
HELD_PENDING = ("\t\t/*@ assert REQ_DISPATCH_2: REQ_DISPATCH_7: held_pending: "
                "(desc->status.counter & IRQS_PENDING) != 0; */\n")
INSTANCE_CLOSED = ("\t/*@ assert REQ_SYNC_5: instance_closed: "
                   "(desc->status.counter & IRQS_INPROGRESS) == 0; */\n")

MUTANTS = {
    # REQ-DISPATCH-1: the busy/disabled path sets PENDING after dropping the lock.
    "unlocked-status": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n" + HELD_PENDING +
            "\t\tgoto unlock;\n",
        new="\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_D_UNLOCK, irq);\n"
            "\t\t/* MUTANT (REQ-DISPATCH-1): the status is written after the unlock */\n"
            "\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n" + HELD_PENDING +
            "\t\treturn 0;\n",
        prop="REQ_DISPATCH_1",
        expect=[r"^handle_irq:irqsync_status_update_requires_REQ_DISPATCH_1(_[0-9]+)?$"]),
    # REQ-SYNC-1: INPROGRESS cleared before the chain runs (the handler then runs while
    # synchronize_irq may see the line idle).
    "inprogress-cleared-before-chain": dict(
        file="src/core/handle.c", fct="irqsync_run_passes",
        old="\t\tirqsync_snapshot_chain(desc, &chain);\n",
        new="\t\tirqsync_snapshot_chain(desc, &chain);\n"
            "\t\t/* MUTANT (REQ-SYNC-1): INPROGRESS cleared before the chain runs */\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_INPROGRESS, 0U);\n",
        prop="in_instance",
        expect=[rf"^irqsync_run_passes:irqsync_run_chain_requires_{IN_INSTANCE}$"]),
    # REQ-SYNC-1, REQ-DISPATCH-1: INPROGRESS cleared after the descriptor lock is dropped.
    "inprogress-cleared-after-unlock": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tIRQSYNC_STEP(D_CLEAR_INPROGRESS, irq);\n"
            "\t(void)irqsync_status_update(desc, IRQS_INPROGRESS, 0U);\n"
            "\t/*@ ghost g_instance[irq] = 0; */\t/* ... and ends with the write that clears it */\n"
            + INSTANCE_CLOSED +
            "\tunlock_step = IRQSYNC_STEP_D_UNLOCK_END;\n"
            "unlock:\n"
            "\tirqsync_desc_unlock(desc, flags, unlock_step, irq);\n",
        new="\tunlock_step = IRQSYNC_STEP_D_UNLOCK_END;\n"
            "unlock:\n"
            "\tirqsync_desc_unlock(desc, flags, unlock_step, irq);\n"
            "\t/* MUTANT (REQ-SYNC-1): INPROGRESS cleared after the unlock */\n"
            "\tif (unlock_step == IRQSYNC_STEP_D_UNLOCK_END) {\n"
            "\t\tIRQSYNC_STEP(D_CLEAR_INPROGRESS, irq);\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_INPROGRESS, 0U);\n"
            "\t\t/*@ ghost g_instance[irq] = 0; */\n"
            "\t" + INSTANCE_CLOSED +
            "\t}\n",
        prop="REQ_DISPATCH_1",
        expect=[r"^handle_irq:irqsync_status_update_requires_REQ_DISPATCH_1(_[0-9]+)?$"]),
    # REQ-SYNC-1, REQ-DISPATCH-3: the chain runs before INPROGRESS is set.
    "chain-before-inprogress": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n"
            "\t/*@ ghost g_begin[irq] = 1; */\t/* the one write that may set INPROGRESS ... */\n"
            "\t(void)irqsync_status_update(desc, IRQS_PENDING, IRQS_INPROGRESS);\n"
            "\t/*@ ghost g_begin[irq] = 0; */\n"
            "\t/*@ ghost g_instance[irq] = 1; */\t/* ... begins the instance */\n"
            "\tspurious = irqsync_handler_instance(desc, irq);\n",
        new="\t/* MUTANT (REQ-SYNC-1): the chain runs before INPROGRESS is set */\n"
            "\tspurious = irqsync_handler_instance(desc, irq);\n"
            "\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n"
            "\t/*@ ghost g_begin[irq] = 1; */\n"
            "\t(void)irqsync_status_update(desc, IRQS_PENDING, IRQS_INPROGRESS);\n"
            "\t/*@ ghost g_begin[irq] = 0; */\n"
            "\t/*@ ghost g_instance[irq] = 1; */\n",
        prop="in_instance",
        expect=[rf"^handle_irq:irqsync_handler_instance_requires_{IN_INSTANCE}$"]),
    # REQ-DISPATCH-2, REQ-SYNC-1: a replay pass runs after INPROGRESS was cleared.
    "replay-after-inprogress-cleared": dict(
        file="src/core/handle.c", fct="irqsync_run_passes",
        old="\t\t(void)irqsync_status_update(desc, IRQS_PENDING, 0U);\n",
        new="\t\t/* MUTANT (REQ-SYNC-1): the replay pass runs with INPROGRESS cleared */\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_PENDING | IRQS_INPROGRESS, 0U);\n",
        prop="every_pass_in_instance",
        expect=[rf"^irqsync_run_passes:irqsync_run_passes_loop_invariant_{EVERY_PASS}$"]),
    # REQ-DISPATCH-2: the replay decision reads the status before retaking the lock (a PENDING
    # set in between is lost; every test and check we had before passed this variant).
    "replay-decision-before-lock": dict(
        file="src/core/handle.c", fct="irqsync_run_passes",
        old="\t\tIRQSYNC_STEP(D_RELOCK, irq);\n"
            "\t\tspin_lock(&desc->lock);\n"
            "\t\tspurious |= irqsync_note_pass(desc, handled);\n"
            "\n"
            "\t\tIRQSYNC_STEP(D_CHECK_PENDING, irq);\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n",
        new="\t\t/* MUTANT (REQ-DISPATCH-2): the status is read before the lock is retaken */\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
            "\t\tIRQSYNC_STEP(D_RELOCK, irq);\n"
            "\t\tspin_lock(&desc->lock);\n"
            "\t\tspurious |= irqsync_note_pass(desc, handled);\n"
            "\n"
            "\t\tIRQSYNC_STEP(D_CHECK_PENDING, irq);\n",
        prop="no_replay_left",
        expect=[r"^irqsync_run_passes:irqsync_run_passes_ensures_REQ_DISPATCH_2_no_replay_left$"]),
    # REQ-SYNC-5, REQ-DISPATCH-3: INPROGRESS set by a write that begins no instance (the line
    # marked busy while its first action is installed): nobody clears it, so every
    # synchronize_irq of the line waits forever and every interrupt of it stays PENDING.
    "inprogress-set-outside-dispatch": dict(
        file="src/core/manage.c", fct="irqsync_install",
        old="\t\t(void)irqsync_status_update(desc, IRQS_DISABLED, 0U);\n",
        new="\t\t/* MUTANT (REQ-SYNC-5): INPROGRESS set outside dispatch */\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_DISABLED, IRQS_INPROGRESS);\n",
        prop="only_beginning_sets",
        expect=[r"^irqsync_install:irqsync_status_update_requires_REQ_SYNC_5_only_beginning_sets$"]),
    # REQ-LOCK-1: a ticket lock that does not wait for its turn.
    "ticket-no-wait": dict(
        file="src/include/irqsync/spinlock_body.h", fct="spin_lock",
        old="\tif ((turn & ~0U) != ticket)\n\t\tturn = irqsync_spin_wait(lock, ticket);\n",
        new="\t(void)ticket;\t/* MUTANT (REQ-LOCK-1): no wait for the turn */\n",
        prop="my_turn",
        expect=[r"^spin_lock:spin_lock_assert_REQ_LOCK_1_my_turn$"]),
    # REQ-LIFECYCLE-7: request_irq keeps the spurious window of the line's earlier handlers (a
    # handler that handles everything can lose its line to their unhandled passes). Also the
    # seeded bug of tests/suites/22-compat.sh.
    "spurious-window-kept": dict(
        file="src/core/manage.c", fct="irqsync_install",
        old="\tdesc->nr_actions++;\n\tdesc->spur_passes = 0U;\n\tdesc->spur_unhandled = 0U;\n",
        new="\tdesc->nr_actions++;\n\t/* MUTANT (REQ-LIFECYCLE-7): the spurious window is kept */\n",
        prop="window_reset",
        expect=[r"^irqsync_install:irqsync_install_ensures_REQ_LIFECYCLE_7_REQ_DISPATCH_6_window_reset$"]),
}


def write_mutant(name, out):
    m = MUTANTS[name]
    text = open(os.path.join(ROOT, m["file"])).read()
    if text.count(m["old"]) != 1:
        print(f"mutate.py: {m['file']} no longer contains the code of mutant '{name}'",
              file=sys.stderr)
        sys.exit(2)
    unity = open(os.path.join(ROOT, "proofs", "core.c")).read()
    unity = unity.replace('#include "../', f'#include "{ROOT}/')
    if m["file"].startswith(PUBLIC):
        # A public header (included as <irqsync/...>): the copy shadows it from OUTDIR, which
        # main() puts first on the include path; the unity file is unchanged.
        dest = os.path.join(out, m["file"][len(PUBLIC):])
    else:
        dest = os.path.join(out, os.path.basename(m["file"]))
        orig = f'#include "{ROOT}/{m["file"]}"'
        if unity.count(orig) != 1:
            print(f"mutate.py: proofs/core.c does not include {m['file']} once", file=sys.stderr)
            sys.exit(2)
        unity = unity.replace(orig, f'#include "{os.path.abspath(dest)}"')
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        f.write(text.replace(m["old"], m["new"]))
    core = os.path.join(out, "core.c")
    with open(core, "w") as f:
        f.write(unity)
    return core


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["list"]:
        print("\n".join(MUTANTS))
        return 0
    if len(argv) < 6 or argv[0] != "prove" or argv[1] not in MUTANTS or argv[3] != "--cpp" \
            or argv[5] != "--":
        sys.exit(f"usage: mutate.py list | mutate.py prove {{{'|'.join(MUTANTS)}}} OUTDIR "
                 "--cpp 'CPP ARGS' -- GATE COMMAND...")
    name, out, cpp, gate = argv[1], argv[2], argv[4], argv[6:]
    core = write_mutant(name, out)
    m = MUTANTS[name]
    # Only the clause the mutant breaks is proved (-wp-prop), without smoke tests: the job
    # shows that this clause fails on the mutant; the rest of the function is the unit's.
    cmd = gate + ["--fct", m["fct"], "--no-smoke"]
    for r in m["expect"]:
        cmd += ["--expect-unproved", r]
    if m["file"].startswith(PUBLIC):
        cpp = f"-I{os.path.abspath(out)} {cpp}"
    cmd += ["--", f"-cpp-extra-args={cpp}", f"-wp-prop={m['prop']}", core]
    print(f"mutant {name}: {m['file']} -> {core}", flush=True)
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())

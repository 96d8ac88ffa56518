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
# The D_CHECK read of handle_irq.
D_CHECK_READ = ("\t/*@ assert status_word: is_status_word(&desc->status); */\t/* the read is logged */\n"
                "\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n")
D_CHECK_OLD = "\tIRQSYNC_STEP(D_CHECK, irq);\n" + D_CHECK_READ
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
            "\tirqsync_end_instance(desc, irq);\n"
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
            "\t\tirqsync_end_instance(desc, irq);\n"
            "\t" + INSTANCE_CLOSED +
            "\t}\n",
        prop="REQ_DISPATCH_1",
        expect=[r"^handle_irq:irqsync_end_instance_requires_REQ_DISPATCH_1_locked$"]),
    # REQ-SYNC-1, REQ-DISPATCH-3: the chain runs before INPROGRESS is set.
    "chain-before-inprogress": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n"
            "\tirqsync_begin_instance(desc, irq);\n"
            "\tspurious = irqsync_handler_instance(desc, irq);\n",
        new="\t/* MUTANT (REQ-SYNC-1): the chain runs before INPROGRESS is set */\n"
            "\tspurious = irqsync_handler_instance(desc, irq);\n"
            "\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n"
            "\tirqsync_begin_instance(desc, irq);\n",
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
    # REQ-LOCK-1 (advances_by_one): the unlock skips a ticket; the next waiter never gets its
    # turn and every later locker spins forever.
    "unlock-skips-a-ticket": dict(
        file="src/include/irqsync/spinlock_body.h", fct="spin_unlock",
        old="\tirqsync_atomic_set_release(&lock->owner, owner + 1U);\n",
        new="\t/* MUTANT (REQ-LOCK-1): a ticket skipped */\n"
            "\tirqsync_atomic_set_release(&lock->owner, owner + 2U);\n",
        prop="advances_by_one",
        expect=[r"^spin_unlock:spin_unlock_ensures_REQ_LOCK_1_advances_by_one$"]),
    # REQ-SYNC-1 (instances_kept): free_irq of the line's last action clears INPROGRESS with
    # PENDING; an instance still running on another CPU loses its window, and free_irq's wait
    # returns while the freed handler runs (a use after free of the driver's data).
    "free-clears-inprogress": dict(
        file="src/core/manage.c", fct="irqsync_unlink",
        old="\t\t(void)irqsync_status_update(desc, IRQS_PENDING, IRQS_DISABLED);\n",
        new="\t\t/* MUTANT (REQ-SYNC-1): the running instance's INPROGRESS cleared */\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_PENDING | IRQS_INPROGRESS, IRQS_DISABLED);\n",
        prop="instances_kept",
        expect=[r"^irqsync_unlink:irqsync_unlink_ensures_REQ_SYNC_1_instances_kept$"]),
    # REQ-DEPTH-5 / REQ-LOCK-5 (the lock_wf chain: a descriptor lock is released only with the
    # descriptor well formed, so the next holder finds it so): disable_irq without its bound;
    # the depth passes IRQSYNC_DEPTH_MAX and the lock is released on a descriptor that is not
    # well formed (the helper's releases_own holds desc_wf; spin_unlock's lock_wf follows).
    "depth-unbounded": dict(
        file="src/core/manage.c", fct="irqsync_disable_depth",
        old="\tif (desc->depth >= IRQSYNC_DEPTH_MAX) {\n",
        new="\tif (0) {\t/* MUTANT (REQ-DEPTH-5): no bound */\n",
        prop="releases_own",
        expect=[r"^irqsync_disable_depth:irqsync_desc_unlock_requires_REQ_LOCK_5_releases_own$"]),
    # A6 (frame_kept): ghost, not behaviour.  frame_kept says that an interrupt gives the
    # interrupted code its status-read log back; the restore is ghost code, so the bug it
    # catches is a misplaced or missing ghost restore (the audit's "ghost whose placement is
    # only reviewed"), shown here by dropping it.
    "interrupt-keeps-its-reads": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\t/*@ ghost g_sread_word = log_word; g_sread_value = log_value; g_sread_lock = log_lock;\n"
            "\t          g_sread_holds = log_holds; */\n",
        new="\t/* MUTANT (A6): the interrupted code's log not given back */\n",
        prop="frame_kept",
        expect=[r"^handle_irq:handle_irq_dispatch_ensures_REQ_LOCK_6_frame_kept$"]),
    # REQ-LIFECYCLE-1/-4: clearing a slot leaves its dev_id (after a free or a re-init,
    # free_irq could match a stale cookie in a slot that holds no handler).
    "slot-keeps-dev-id": dict(
        file="src/core/manage.c", fct="irqsync_action_clear",
        old="\taction->dev_id = (void *)0;\n",
        new="\t/* MUTANT (REQ-LIFECYCLE-1): the slot's dev_id is kept */\n",
        prop="slot_free",
        expect=[r"^irqsync_action_clear:irqsync_action_clear_ensures_REQ_LIFECYCLE_1_REQ_LIFECYCLE_4_slot_free$"]),
    # REQ-LIFECYCLE-4: free_irq's shift drops a sharer's flags (IRQF_SHARED lost: the next
    # request on the line is refused or accepted against the wrong rule).
    "move-drops-flags": dict(
        file="src/core/manage.c", fct="irqsync_action_move",
        old="\tdesc->action[to].flags = desc->action[from].flags;\n",
        new="\t/* MUTANT (REQ-LIFECYCLE-4): the flags are not moved */\n",
        prop="moved",
        expect=[r"^irqsync_action_move:irqsync_action_move_ensures_REQ_LIFECYCLE_4_moved$"]),
    # REQ-LOCK-1: a lock that ignores what its acquire load returned (it overwrites the value
    # with its own ticket, so it never waits); the branch guard still reads as before.
    "lock-ignores-its-load": dict(
        file="src/include/irqsync/spinlock_body.h", fct="spin_lock",
        old="\tturn = irqsync_atomic_read_acquire(&lock->owner);\n",
        new="\tturn = irqsync_atomic_read_acquire(&lock->owner);\n"
            "\tturn = ticket;\t/* MUTANT (REQ-LOCK-1): the loaded owner is ignored */\n",
        prop="my_turn",
        expect=[r"^spin_lock:spin_lock_assert_REQ_LOCK_1_my_turn$"]),
    # REQ-SYNC-1, REQ-DISPATCH-7: D_CHECK decides on a status read before the lock is taken
    # (an instance that begins meanwhile on another CPU is not seen: two instances at once).
    "dispatch-decision-before-lock": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);\n",
        new="\t/* MUTANT (REQ-SYNC-1): the D_CHECK status is read before the lock */\n"
            + D_CHECK_READ +
            "\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);\n",
        also=(D_CHECK_OLD, "\tIRQSYNC_STEP(D_CHECK, irq);\n"),
        prop="line_idle",
        expect=[r"^handle_irq:handle_irq_assert_REQ_SYNC_1_line_idle$"]),
    # REQ-SYNC-1: D_CHECK decides on a status read in an earlier hold of the same lock (the lock
    # dropped and retaken between the read and the decision).
    "dispatch-decision-in-earlier-hold": dict(
        file="src/core/handle.c", fct="handle_irq",
        old=D_CHECK_OLD,
        new=D_CHECK_OLD +
            "\t/* MUTANT (REQ-SYNC-1): the lock dropped and retaken after the read */\n"
            "\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_D_UNLOCK, irq);\n"
            "\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);\n",
        prop="line_idle",
        expect=[r"^handle_irq:handle_irq_assert_REQ_SYNC_1_line_idle$"]),
    # REQ-SYNC-1, REQ-SYNC-3: synchronize_irq's re-check decides on a status read before the
    # lock, which it still takes (a handler that starts meanwhile is missed): locked_recheck is
    # on the logged read, so the lock it was read under is checked, not the code's shape.
    "recheck-before-lock": dict(
        file="src/core/sync.c", fct="irqsync_wait_for_handler",
        old="\t\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_S_LOCK, irq);\n"
            "\t\tIRQSYNC_STEP(S_RECHECK, irq);\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n",
        new="\t\t/* MUTANT (REQ-SYNC-1): the re-check reads before the lock */\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
            "\t\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_S_LOCK, irq);\n"
            "\t\tIRQSYNC_STEP(S_RECHECK, irq);\n",
        prop="locked_recheck",
        expect=[r"^irqsync_wait_for_handler:irqsync_wait_for_handler_ensures_REQ_SYNC_1_REQ_SYNC_3_locked_recheck$"]),
    # REQ-SYNC-5, REQ-DISPATCH-3 (finding 4, a misplaced begin): the instance begun as soon as
    # the lock is taken, before the D_CHECK read; D_CHECK then finds INPROGRESS set, holds the
    # arrival, and nobody ever clears INPROGRESS (the line stays busy).
    "instance-begun-too-early": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);\n",
        new="\tflags = irqsync_desc_lock(desc, IRQSYNC_STEP_D_LOCK, irq);\n"
            "\t/* MUTANT (REQ-SYNC-5): the instance begun before the D_CHECK read */\n"
            "\tirqsync_begin_instance(desc, irq);\n",
        also=("\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n\tirqsync_begin_instance(desc, irq);\n",
              "\tIRQSYNC_STEP(D_SET_INPROGRESS, irq);\n"),
        prop="line_free",
        expect=[r"^handle_irq:irqsync_begin_instance_requires_REQ_SYNC_5_REQ_DISPATCH_7_line_free$"]),
    # REQ-SYNC-5: a held arrival sets INPROGRESS as well as PENDING (no instance to clear it).
    "held-arrival-sets-inprogress": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n",
        new="\t\t/* MUTANT (REQ-SYNC-5): a held arrival sets INPROGRESS */\n"
            "\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING | IRQS_INPROGRESS);\n",
        prop="only_beginning_sets",
        expect=[r"^handle_irq:irqsync_status_update_requires_REQ_SYNC_5_only_beginning_sets$"]),
    # REQ-SYNC-1: a held arrival clears the INPROGRESS of the instance another CPU runs (that
    # CPU's handler keeps running while synchronize_irq may see the line idle).
    "held-arrival-clears-inprogress": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n",
        new="\t\t/* MUTANT (REQ-SYNC-1): a held arrival clears INPROGRESS */\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_INPROGRESS, IRQS_PENDING);\n",
        prop="owner_clears",
        expect=[r"^handle_irq:irqsync_status_update_requires_REQ_SYNC_1_owner_clears$"]),
    # REQ-SYNC-1, REQ-SYNC-5: an instance whose pass disabled the line as spurious is not
    # ended (INPROGRESS stays set: every synchronize_irq of the line then waits forever).
    "spurious-instance-not-ended": dict(
        file="src/core/handle.c", fct="handle_irq",
        old="\tspurious = irqsync_handler_instance(desc, irq);\n",
        new="\tspurious = irqsync_handler_instance(desc, irq);\n"
            "\tif (spurious)\t/* MUTANT (REQ-SYNC-1): the instance is left running */\n"
            "\t\tgoto unlock;\n",
        prop="instance_ended",
        expect=[r"^handle_irq:handle_irq_dispatch_ensures_REQ_SYNC_1_instance_ended(_[0-9]+)?$"]),
    # REQ-DISPATCH-1, REQ-DISPATCH-6: the replay's PENDING clear written from the value read at
    # D_CHECK_PENDING after the spurious count ran on it: a disable written meanwhile is lost.
    "pending-cleared-from-stale-read": dict(
        file="src/core/handle.c", fct="irqsync_run_passes",
        old="\t\tspurious |= irqsync_note_pass(desc, handled);\n"
            "\n"
            "\t\tIRQSYNC_STEP(D_CHECK_PENDING, irq);\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
            "\t\tif ((status & (IRQS_PENDING | IRQS_DISABLED)) != IRQS_PENDING)\n"
            "\t\t\treturn spurious;\n"
            "\t\tIRQSYNC_STEP(D_CLEAR_PENDING, irq);\n"
            "\t\t(void)irqsync_status_update(desc, IRQS_PENDING, 0U);\n",
        new="\t\tIRQSYNC_STEP(D_CHECK_PENDING, irq);\n"
            "\t\tstatus = irqsync_atomic_read_relaxed(&desc->status);\n"
            "\t\t/* MUTANT (REQ-DISPATCH-1): the count runs after the read; the write uses it */\n"
            "\t\tspurious |= irqsync_note_pass(desc, handled);\n"
            "\t\tif ((status & (IRQS_PENDING | IRQS_DISABLED)) != IRQS_PENDING)\n"
            "\t\t\treturn spurious;\n"
            "\t\tIRQSYNC_STEP(D_CLEAR_PENDING, irq);\n"
            "\t\tirqsync_atomic_set_relaxed(&desc->status, status & ~IRQS_PENDING);\n",
        prop="fresh_rmw",
        expect=[r"^irqsync_run_passes:irqsync_atomic_set_relaxed_requires_REQ_DISPATCH_1_fresh_rmw$"]),
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
    text = text.replace(m["old"], m["new"])
    if "also" in m:  # a second edit of the same file, exact-once too
        old2, new2 = m["also"]
        if text.count(old2) != 1:
            print(f"mutate.py: {m['file']} no longer contains the code of mutant '{name}'",
                  file=sys.stderr)
            sys.exit(2)
        text = text.replace(old2, new2)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as f:
        f.write(text)
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

#!/usr/bin/env python3
"""proofs/negative/mutate.py - build a proof mutant of the core (expected proof failure).

  mutate.py unlocked-status OUTDIR
      REQ-DISPATCH-1: in handle_irq, the path that sets PENDING for a busy or disabled line
      writes the status word AFTER dropping the descriptor lock.  WP must fail exactly the
      precondition REQ_DISPATCH_1 of that irqsync_atomic_set_relaxed call.

Writes OUTDIR/handle.c (the mutated copy of src/core/handle.c) and OUTDIR/core.c (the unity
file of proofs/core.c with the mutant in place of handle.c); preprocess with -Isrc/core.  Exits 2 if the code to mutate is
no longer there, so a change of the core cannot turn this test into a vacuous pass.
"""
import os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MUTANTS = {
    "unlocked-status": ("src/core/handle.c", (
        "\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n"
        "\t\tgoto unlock;\n",
        "\t\tirqsync_desc_unlock(desc, flags, IRQSYNC_STEP_D_UNLOCK, irq);\n"
        "\t\t/* MUTANT (REQ-DISPATCH-1): the status is written after the unlock */\n"
        "\t\t(void)irqsync_status_update(desc, 0U, IRQS_PENDING);\n"
        "\t\treturn 0;\n")),
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MUTANTS:
        sys.exit(f"usage: mutate.py {{{'|'.join(MUTANTS)}}} OUTDIR")
    name, out = sys.argv[1], sys.argv[2]
    src, (old, new) = MUTANTS[name]
    text = open(os.path.join(ROOT, src)).read()
    if text.count(old) != 1:
        print(f"mutate.py: {src} no longer contains the code of mutant '{name}'", file=sys.stderr)
        sys.exit(2)
    os.makedirs(out, exist_ok=True)
    base = os.path.basename(src)
    with open(os.path.join(out, base), "w") as f:
        f.write(text.replace(old, new))
    unity = open(os.path.join(ROOT, "proofs", "core.c")).read()
    unity = unity.replace('#include "../', f'#include "{ROOT}/')
    unity = unity.replace(f'#include "{ROOT}/{src}"', f'#include "{os.path.abspath(os.path.join(out, base))}"')
    with open(os.path.join(out, "core.c"), "w") as f:
        f.write(unity)
    print(f"mutant {name}: {out}/core.c")


if __name__ == "__main__":
    main()

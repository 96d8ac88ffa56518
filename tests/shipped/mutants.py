#!/usr/bin/env python3
"""mutants.py -- seeded bugs of the class "what ships is not what is proved" (issue 23).

Each mutant is one edit of one header of src/include/irqsync/, written as a copy under
OUTDIR/irqsync/; a build that puts `-I OUTDIR` before `-Isrc/include` compiles the mutated
header in place of the real one and everything else unchanged. The copy is made from the
current header, so a mutant follows the tree; an edit whose text is no longer found exactly
once stops with exit 2 (a mutant that silently mutates nothing would make its expected failure
pass for the wrong reason).

  python3 -m tests.shipped.mutants NAME OUTDIR       write the mutant
  python3 -m tests.shipped.mutants --list            the names

Used by tests/suites/22-shipped.sh (tests/shipped/hooks_check.py must reject each) and by
mk/cross.mk (the barrier check must reject early-publish and relaxed-first-look). [REQ-MM-4]
"""
import os, sys

HDR = "src/include/irqsync"

# name: (header, text to find, replacement, the bug)
MUTANTS = {
    # Finding 2 of issue 23: a production-only unlock that publishes the next ticket with a
    # plain store before its release store. Only the #else (production) branch of
    # spinlock.h changes; the body, the proofs and the step-hook build are untouched.
    "early-publish": (
        "spinlock.h",
        "#define IRQSYNC_SPIN_RELEASED(lock) ((void)0)",
        "#define IRQSYNC_SPIN_RELEASED(lock) irqsync_atomic_set_relaxed(&(lock)->owner, owner + 1U)",
        "production-only unlock hook stores owner + 1 (relaxed) before the release store"),
    # A production-only macro that is not a hook: the unlock's release store becomes relaxed
    # in production alone (the function-like macro shadows the inline function of atomic.h).
    "production-relaxed-release": (
        "spinlock.h",
        "#define IRQSYNC_SPIN_INLINE 1\n",
        "#define IRQSYNC_SPIN_INLINE 1\n"
        "#define irqsync_atomic_set_release(v, i) irqsync_atomic_set_relaxed(v, i)\n",
        "production-only macro turns the unlock's release store into a relaxed one"),
    # A production-only macro after the bodies: every user's spin_unlock() call publishes
    # owner + 1 by a relaxed store; the bodies themselves are unchanged.
    "production-unlock-macro": (
        "spinlock.h",
        "#undef IRQSYNC_SPIN_RELEASED\n",
        "#undef IRQSYNC_SPIN_RELEASED\n#define spin_unlock(lock) irqsync_atomic_set_relaxed("
        "&(lock)->owner, irqsync_atomic_read_relaxed(&(lock)->owner) + 1U)\n",
        "production-only spin_unlock macro stores owner + 1 relaxed, bypassing the body"),
    # The inline lock's first look at owner relaxed (in every build): the wait's decision
    # then rests on a load without acquire on the fast path.
    "relaxed-first-look": (
        "spinlock_body.h",
        "turn = irqsync_atomic_read_acquire(&lock->owner);",
        "turn = irqsync_atomic_read_relaxed(&lock->owner);",
        "the inline lock decides on a relaxed load of owner"),
}


def write(name, outdir, root="."):
    """Write mutant `name` under outdir/irqsync/; return its path. ValueError when the edit
    does not apply exactly once."""
    hdr, old, new, _ = MUTANTS[name]
    with open(os.path.join(root, HDR, hdr)) as f:
        text = f.read()
    if text.count(old) != 1:
        raise ValueError(f"mutant {name}: {old!r} found {text.count(old)} times in {HDR}/{hdr}")
    path = os.path.join(outdir, "irqsync", hdr)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text.replace(old, new))
    os.replace(tmp, path)
    return path


def main(argv):
    if argv[1:] == ["--list"]:
        for n, m in MUTANTS.items():
            print(f"{n}: {m[3]}")
        return 0
    if len(argv) != 3 or argv[1] not in MUTANTS:
        print(f"usage: mutants.py NAME OUTDIR (names: {', '.join(MUTANTS)})", file=sys.stderr)
        return 2
    try:
        print(write(argv[1], argv[2]))
    except ValueError as e:
        print(f"mutants: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""tools/bench/drd_classify.py (make test-drd): a DRD conflict on a plain field of a descriptor
is a finding (exit 1), one on an atomic field or another object is expected (exit 0).  The
addresses are those valgrind prints for a PIE executable: the symbol's offset + BASE."""
import shutil, subprocess

import pytest

from tools.bench import drd_classify

pytestmark = pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("nm")),
                                reason="needs gcc and nm (binutils)")


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("drd")
    (d / "p.c").write_text("struct d { long depth; long lock; } irq_desc[4];\n"
                           "int other[8];\nint main(void) { return 0; }\n")
    subprocess.run(["gcc", "-O0", "-o", str(d / "p"), str(d / "p.c")], check=True)
    syms = {}
    for line in subprocess.run(["nm", "-S", str(d / "p")], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = int(f[0], 16)
    (d / "layout.txt").write_text("size 16\ndepth 0 8 plain\nlock 8 8 atomic\n")
    return d, syms


def classify(prog, capsys, offsets, tail="==1== ERROR SUMMARY: 3 errors\n"):
    d, syms = prog
    text = "".join(f"==1== Conflicting store by thread 2 at 0x{syms[s] + off + drd_classify.BASE:08x} "
                   f"size 8\n" for s, off in offsets) + tail
    (d / "drd.err").write_text(text)
    rc = drd_classify.main([str(d / "drd.err"), str(d / "p"), str(d / "layout.txt")])
    return rc, capsys.readouterr().out


def test_plain_field_of_a_later_descriptor_is_a_finding(prog, capsys):
    rc, out = classify(prog, capsys, [("irq_desc", 2 * 16 + 0), ("irq_desc", 8)])
    assert rc == 1
    assert "irq_desc[].depth (plain)" in out and "irq_desc[].lock (atomic)" in out
    assert "plain descriptor fields in conflict: 1" in out


def test_atomic_fields_and_other_objects_are_expected(prog, capsys):
    rc, out = classify(prog, capsys, [("irq_desc", 3 * 16 + 8), ("other", 4), ("irq_desc", 8)])
    assert rc == 0
    assert "3 conflict reports:" in out
    assert "       2  irq_desc[].lock (atomic)" in out and "       1  other" in out


def test_no_conflict_and_no_error_summary_means_drd_did_not_run(prog, capsys):
    assert classify(prog, capsys, [], tail="")[0] == 1
    assert classify(prog, capsys, [])[0] == 0

"""The readers of the lint's output that tests/suites/60-lint.sh trusts: check_examples.py
(an example's `expect:` markers against the findings, as TAP) and check_sarif.py (SARIF fixes
applied to the file, columns converted back to the tool's)."""
import pytest

from conftest import load_script

check_examples = load_script("tests/lint/check_examples.py")
check_sarif = load_script("tests/lint/check_sarif.py")

BAD = """\
void f(void)
{
\tspin_lock_irq(&l);   /* expect: cocci/spin-lock-irq */
\tspin_lock_irq(&m);   /* expect: cocci/spin-lock-irq sparse/context */
}
/* @ID */
""".replace("@ID", "REQ" + "-LOCK-4")   # (no citation for the trace check)


def examples(tmp_path, findings, good_findings=""):
    d = tmp_path / "spin-lock-irq"
    d.mkdir()
    bad, good = d / "bad-x.c", d / "good-x.c"
    bad.write_text(BAD)
    good.write_text("int g;\n")
    text = "".join(f"{bad}:{ln}:2: {rule}: msg {ln}\n" for ln, rule in findings)
    text += "".join(f"{good}:{ln}:1: {rule}: noise\n" for ln, rule in good_findings)
    (tmp_path / "found.txt").write_text(text)
    return [str(tmp_path / "found.txt"), str(bad), str(good)]


def test_examples_all_marked_lines_reported(tmp_path, capsys):
    argv = examples(tmp_path, [(3, "cocci/spin-lock-irq"), (4, "cocci/spin-lock-irq"),
                               (4, "sparse/context"), (1, "cppcheck/other")])
    assert check_examples.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["ok 1 - spin-lock-irq/bad-x.c cocci/spin-lock-irq at lines 3,4 [" + "REQ" + "-LOCK-4]",
                   "ok 2 - spin-lock-irq/bad-x.c sparse/context at lines 4 [" + "REQ" + "-LOCK-4]",
                   "ok 3 - spin-lock-irq/good-x.c clean under every tool ",
                   "1..3"]


def test_examples_missing_and_extra_findings_fail(tmp_path, capsys):
    argv = examples(tmp_path, [(3, "cocci/spin-lock-irq"), (5, "cocci/spin-lock-irq"),
                               (4, "sparse/context")], good_findings=[(1, "sparse/x")])
    assert check_examples.main(argv) == 1
    out = capsys.readouterr().out
    assert "not ok 1 - spin-lock-irq/bad-x.c cocci/spin-lock-irq" in out
    assert "#   line 4: not reported by cocci/spin-lock-irq" in out
    assert "#   line 5: reported by cocci/spin-lock-irq but not marked: msg 5" in out
    assert "ok 2 - spin-lock-irq/bad-x.c sparse/context" in out
    assert "not ok 3 - spin-lock-irq/good-x.c clean" in out and "#   sparse/x:1 noise" in out


def test_examples_bad_file_without_markers_fails(tmp_path, capsys):
    f = tmp_path / "bad-nomark.c"
    f.write_text("int x;\n")
    (tmp_path / "none.txt").write_text("")
    assert check_examples.main([str(tmp_path / "none.txt"), str(f)]) == 1
    assert "has expect: markers" in capsys.readouterr().out


def rep(sl, sc, ec, text, el=None):
    r = {"deletedRegion": {"startLine": sl, "startColumn": sc, "endColumn": ec},
         "insertedContent": {"text": text}}
    if el:
        r["deletedRegion"]["endLine"] = el
    return r


def test_sarif_fixes_apply_in_the_original_coordinates():
    text = "spin_lock_irq(&l);\nx = 1;\nspin_unlock_irq(&l);\n"
    got = check_sarif.apply(text, [rep(3, 1, 16, "spin_unlock_irqrestore"),
                                   rep(1, 1, 14, "spin_lock_irqsave"),
                                   rep(1, 17, 17, ", flags")])
    assert got == "spin_lock_irqsave(&l, flags);\nx = 1;\nspin_unlock_irqrestore(&l);\n"


def test_sarif_fix_without_end_column_deletes_to_the_end_of_line():
    got = check_sarif.apply("a = 1;\nb = 2;\n", [{"deletedRegion": {"startLine": 1, "startColumn": 3}}])
    assert got == "a \nb = 2;\n"


def test_sarif_same_fix_twice_applies_once_and_overlaps_are_refused():
    r = rep(1, 1, 2, "X")
    assert check_sarif.apply("abc\n", [r, dict(r)]) == "Xbc\n"
    with pytest.raises(ValueError, match="overlapping"):
        check_sarif.apply("abcdef\n", [rep(1, 1, 4, "X"), rep(1, 3, 5, "Y")])


def test_sarif_columns_back_to_the_tools():
    line = "\tx = \"é\"; y"
    # code-point column 10 is 'y': sparse counts a tab as 8 columns, the others count bytes
    assert check_sarif.tool_column(line, 10, "sparse") == 17
    assert check_sarif.tool_column(line, 10, "cocci") == 11
    assert check_sarif.tool_column("abc", 2, "cppcheck") == 2
    assert check_sarif.tool_column("ab\tc", 4, "sparse") == 9     # the tab goes to the next stop

"""tools/trace.py: how spec/requirements.md is read (the methods of a Verify field, the
problems the trace check reports)."""
from tools import trace

# Requirement IDs of a fixture area, built at run time: written out, the tree's trace check
# would read them as citations (and as test evidence for real requirements).
ID = "REQ" + "-FX"

REQS = """\
# Requirements

## Area

### @-1 — first
**Statement.** The thing
holds.
**Rationale.** Because.
**Verify.** test (debug build), proof (precondition; a model run shows the bug).

### @-2 — second
**Statement.** Other.
**Verify.** review.

### @-1 — again
**Statement.** x **Rationale.** y **Verify.** lint.

### @-3 — third
**Statement.** x **Rationale.** y **Verify.** as @-1.
""".replace("@", ID)


def test_parse_requirements(tmp_path):
    p = tmp_path / "requirements.md"
    p.write_text(REQS)
    reqs, problems = trace.parse_requirements(str(p))
    assert sorted(reqs) == [f"{ID}-1", f"{ID}-2", f"{ID}-3"]
    assert reqs[f"{ID}-2"]["methods"] == ["review"]
    assert reqs[f"{ID}-3"]["methods"] == []          # "as REQ-…" names none, and is allowed
    assert any(f"{ID}-1 defined twice" in x for x in problems)
    assert any(f"{ID}-2 has no **Rationale.** field" in x for x in problems)
    assert not any(f"{ID}-3" in x for x in problems)


def test_verify_methods_outside_parentheses(tmp_path):
    p = tmp_path / "requirements.md"
    p.write_text(REQS.split(f"### {ID}-2")[0])
    reqs, problems = trace.parse_requirements(str(p))
    assert reqs[f"{ID}-1"]["methods"] == ["proof", "test"]
    assert reqs[f"{ID}-1"]["statement"] == "The thing holds."
    assert problems == []


def test_kind_of_a_reference():
    assert trace.kind_of("promela/irqsync.pml", "x") == "model"
    assert trace.kind_of("src/core/sync.c", f"  requires \\valid(desc); // {ID}-1") == "proof"
    assert trace.kind_of("src/core/sync.c", f"/* {ID}-1: the loop */") == "code"
    assert trace.kind_of("tests/unit/x.c", "") == "test"
    assert trace.kind_of("README.md", "") == "doc"


def test_the_markdown_matrix_has_a_row_per_requirement_with_twins_and_judgement(tmp_path):
    import os
    from tools import trace
    cwd = os.getcwd()
    os.chdir(trace.root())
    try:
        out, md = tmp_path / "t.json", tmp_path / "t.md"
        assert trace.write_json(str(out), str(md)) == 0
    finally:
        os.chdir(cwd)
    rows = [l for l in md.read_text().splitlines() if l.startswith("| REQ-")]
    reqs, _ = trace.parse_requirements(os.path.join(trace.root(), "spec/requirements.md"))
    assert len(rows) == len(reqs)
    sync3 = next(l for l in rows if l.startswith("| REQ-SYNC-3 |"))
    assert "`variant-sync-v1`" in sync3            # a twin that breaks it, from twins/catalog.yml
    assert "ordering is not WP's" in sync3          # its judgement, from spec/traceability.md

"""tools/refine/steps.py: spec/refinement.yml is the one source of the step list; the step
tables of spec/steps.md are its rendering, byte for byte, and src/core/steps.h lists the same
steps in the same order."""
import os

import pytest

from tools.refine import steps


@pytest.fixture(scope="module")
def rmap():
    return steps.load_map(steps.ROOT)


def test_steps_md_is_the_maps_rendering_byte_for_byte(rmap):
    with open(os.path.join(steps.ROOT, steps.STEPS_MD), encoding="utf-8") as f:
        have = steps.md_block(f.read())
    assert have is not None, "spec/steps.md lost its generated-block markers"
    assert have == steps.tables(rmap), \
        "spec/steps.md differs from spec/refinement.yml: python3 -m tools.refine.steps --write"


def test_every_copy_agrees_with_the_map(rmap):
    assert steps.differences(steps.ROOT, rmap) == []


def test_a_section_per_step_group_and_a_row_per_step(rmap):
    block = steps.tables(rmap)
    rows = [l for l in block.splitlines() if l.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [s["step"] for s in rmap["steps"]]
    assert block.count("\n## ") == len(rmap["step_groups"])


def test_access_text():
    assert steps.access_text([]) == "—"
    assert steps.access_text([
        {"op": "load", "object": "status", "order": "acquire"},
        {"op": "store", "object": "depth", "order": "plain", "only": "c"},
        {"op": "rmw", "object": "pending", "order": "relaxed", "model_in": "MM_WEAK"}]) == \
        "load `status` acquire; store `depth` plain (C only); rmw `pending` relaxed (model: MM_WEAK)"


def test_a_meaning_over_several_lines_is_one_table_row():
    m = {"step_groups": [{"first": "A", "title": "Group"}],
         "steps": [{"step": "A", "meaning": "takes the lock\n  and  checks\n", "access": []}]}
    assert steps.tables(m).splitlines()[-3] == "| `A` | — | takes the lock and checks |"


def test_a_step_without_meaning_is_refused():
    bad = {"step_groups": [{"first": "A", "title": "T"}], "steps": [{"step": "A"}]}
    with pytest.raises(SystemExit, match="step A has no meaning"):
        steps.tables(bad)


def test_header_steps_reads_the_x_macro_in_order():
    text = ("#define IRQSYNC_FOR_EACH_STEP(S) \\\n\tS(FIRST) \\\n\tS(SECOND) S(THIRD)\n"
            "#define OTHER S(NOT_A_STEP)\n")
    assert steps.header_steps(text) == ["FIRST", "SECOND", "THIRD"]

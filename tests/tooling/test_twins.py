"""tools/twins.py: the catalog of known-bad twins is well formed, an edit applies exactly once or
not at all, and `verify` counts a twin killed only when each of its killers failed as expected."""
import os

import pytest

from tools import twins

ENTRY = """
  - id: {id}
    kind: {kind}
    breaks: [{breaks}]
    what: "a bug"
    edit: {{file: x.c, old: "a", new: "b"}}
    proof: {{function: f, clause: c, unproved: ["^f:g$"]}}
    killed_by:
      - {{suite: 50-proof, case: "proof/{id}", expect: "{expect}"}}
"""


def catalog(tmp_path, *entries):
    p = tmp_path / "catalog.yml"
    p.write_text("twins:\n" + "".join(ENTRY.format(**dict(
        dict(id="t1", kind="proof-mutant", breaks="REQ-SYNC-1", expect="boom"), **e)) for e in entries))
    return str(p)


def test_the_real_catalog_loads_and_applies_to_this_tree():
    ts = twins.load()
    assert len({t["id"] for t in ts}) == len(ts) > 100
    assert twins.check(ts) == []
    # every kind the groups run is present, and every twin has a killer or campaign techniques
    assert {t["kind"] for t in ts} == set(twins.KINDS)
    assert all(t["killed_by"] or t.get("techniques") for t in ts), \
        [t["id"] for t in ts if not (t["killed_by"] or t.get("techniques"))]


def test_a_good_entry_loads(tmp_path):
    (t,) = twins.load(catalog(tmp_path, {}))
    assert t["edit"]["old"] == "a" and t["edit"]["also"] == []
    assert t["killed_by"][0]["case"] == "proof/t1"


@pytest.mark.parametrize("entry, why", [
    ({"kind": "mystery"}, "kind 'mystery' is not one of"),
    ({"breaks": "SYNC-1"}, "not requirement IDs"),
    ({"expect": "(unclosed"}, "expect is not a regex"),
    ({"expect": ""}, "a killer without `expect`"),
])
def test_a_malformed_entry_is_refused_by_name(tmp_path, entry, why):
    with pytest.raises(twins.CatalogError, match=why):
        twins.load(catalog(tmp_path, entry))


def test_an_id_given_twice_is_refused(tmp_path):
    with pytest.raises(twins.CatalogError, match="given twice"):
        twins.load(catalog(tmp_path, {}, {}))


def test_killers_expand_one_per_value():
    t = {"killed_by": [{"suite": "s", "case": "cross/{target}/x", "expect": "e",
                        "each": {"target": ["a", "b"]}}]}
    assert [k["case"] for k in twins._expand_killers(t)] == ["cross/a/x", "cross/b/x"]


def test_fragments_by_alias_are_joined(tmp_path):
    p = tmp_path / "c.yml"
    p.write_text('fragments:\n  f: &f "mid"\ntwins:\n  - id: x\n    kind: refine-mutant\n'
                 '    breaks: [REQ-SYNC-1]\n    what: w\n    edit: {file: x.c, old: ["a", *f, "z"], new: "b"}\n')
    assert twins.load(str(p))[0]["edit"]["old"] == "amidz"


@pytest.mark.parametrize("text, n", [("xyz", 0), ("a a", 2)])
def test_an_edit_applies_exactly_once_or_not_at_all(text, n):
    edit = {"file": "x.c", "old": "a", "new": "b", "also": []}
    with pytest.raises(twins.CatalogError, match=f"occurs {n} times"):
        twins.apply_edit(text, edit, "t1")


def test_an_edit_and_its_second_edit_both_apply():
    edit = {"file": "x.c", "old": "one", "new": "1", "also": [("two", "2")]}
    assert twins.apply_edit("one two", edit, "t1") == "1 2"
    with pytest.raises(twins.CatalogError):
        twins.apply_edit("one", edit, "t1")


def write_results(d, suite, rows):
    # tests/lib.sh's format: status, name, seconds, detail, each field ending in a space
    (d / f"{suite}.tsv").write_text("".join(f"{s}\t{n} \t1\t{x} \n" for s, n, x in rows))


def killers_of(*cases, skip_ok=False):
    return [{"id": f"t{i}", "kind": "proof-mutant", "killed_by": [dict(
        {"suite": "50-proof", "case": c, "expect": "e"}, **({"skip_ok": "why"} if skip_ok else {}))]}
        for i, c in enumerate(cases)]


@pytest.mark.parametrize("status, detail, killed", [
    ("pass", "xfail: failed as expected: boom", True),
    ("pass", "", False),                               # a pass that is not an expected failure
    ("fail", "xfail: expected a failure, but the command succeeded", False),
    ("fail", "xfail: timeout after 600 s (log: x)", False),      # only a hang
    ("skip", "one core", False),                       # a skip the killer does not allow
])
def test_verify_counts_a_twin_killed_only_by_an_expected_failure(tmp_path, status, detail, killed):
    write_results(tmp_path, "50-proof", [(status, "proof/a", detail)])
    (n, probs), = twins.verify(killers_of("proof/a"), str(tmp_path), ["50-proof"]).values()
    assert (n, not probs) == ((1, True) if killed else (0, False))


def test_verify_allows_a_skip_only_where_the_killer_says_so(tmp_path):
    write_results(tmp_path, "50-proof", [("skip", "proof/a", "one core")])
    (n, probs), = twins.verify(killers_of("proof/a", skip_ok=True), str(tmp_path), ["50-proof"]).values()
    assert n == 1 and probs == []


def test_verify_names_a_killer_the_group_did_not_run(tmp_path):
    write_results(tmp_path, "50-proof", [("pass", "proof/b", "xfail: failed as expected: e")])
    (n, probs), = twins.verify(killers_of("proof/a"), str(tmp_path), ["50-proof"]).values()
    assert n == 0 and probs == ["t0: killer case not run by [50-proof]: proof/a"]


def test_verify_ignores_groups_that_did_not_run(tmp_path):
    assert twins.verify(killers_of("proof/a"), str(tmp_path), ["30-model"]) == {}


def test_write_edited_leaves_the_source_alone(tmp_path):
    src = tmp_path / "x.c"
    src.write_text("keep a here\n")
    t = {"id": "t", "edit": {"file": "x.c", "old": "a", "new": "b", "also": []}}
    out = twins.write_edited(t, str(tmp_path / "out" / "x.c"), str(tmp_path))
    assert open(out).read() == "keep b here\n" and src.read_text() == "keep a here\n"
    assert not os.path.exists(out + ".tmp")


def test_a_model_switch_the_model_does_not_use_is_named():
    t = {"id": "m", "kind": "model-switch", "defines": ["BUG_NOWHERE_AT_ALL=1"], "killed_by": []}
    assert twins.check([t]) == ["m: define BUG_NOWHERE_AT_ALL is used by no model of promela/"]

"""proofs/gate.py (imported, not run): what the gate reads back from Frama-C -- the prover time
of each goal in the log (the SLOW margin and prove-store's refusal depend on it), the goals and
their status in WP's JSON report, the property report, and the REQ IDs of a goal name."""
import json

import pytest

from conftest import load_script

gate = load_script("proofs/gate.py")
Q = "REQ" + "-"   # (spelt so that the tree's trace check does not read these IDs as citations)

LOG = """\
[wp] [Qed] Goal typed_f_assigns : Valid
[wp] [Qed] Goal typed_f_ensures_1 : Valid (2ms)
[wp] [Z3 4.8.12] Goal typed_irqsync_unlink_ensures_REQ_SYNC_1_part2 : Valid (Qed:128ms) (1.1s) (3350228) (cached)
[wp] [CVC4 1.8] Goal typed_g_ensures_x : Valid (Qed:4ms) (40ms) (9629) (cached)
[wp] [CVC4 1.8] Goal typed_h_loop_inv : Valid (Qed:98ms) (1'05s) (456941)
[wp] [Z3 4.8.12] Goal typed_k_fast : Valid (Qed:3ms) (12345)
[wp] [Failed] Goal typed_install_requires_REQ_SYNC_5
[wp] [Z3 4.8.12] Goal typed_m_timeout : Timeout (Qed:3ms) (10s)
"""


def test_goal_times_units():
    t = gate.goal_times(LOG)
    assert t["typed_irqsync_unlink_ensures_REQ_SYNC_1_part2"] == pytest.approx(1.1)
    assert t["typed_g_ensures_x"] == pytest.approx(0.040)      # ms, not s
    assert t["typed_h_loop_inv"] == pytest.approx(65.0)        # 1'05s: a minute and 5 s


def test_goal_times_only_goals_a_prover_proved():
    t = gate.goal_times(LOG)
    # Qed's own goals, a bare step count, a failed or timed-out goal: no prover time
    assert set(t) == {"typed_irqsync_unlink_ensures_REQ_SYNC_1_part2", "typed_g_ensures_x",
                      "typed_h_loop_inv"}


def test_req_ids_of_goal_names():
    assert gate.req_ids("typed_f_ensures_REQ_SYNC_1_REQ_LOCK_2_part3") == [Q + "LOCK-2", Q + "SYNC-1"]
    assert gate.req_ids("typed_f_assert_rte_mem_access") == [Q + "IMPL-2"]
    assert gate.req_ids("typed_f_ensures_2") == []


def test_read_wp_json_status_per_goal(tmp_path):
    wp = {"wp:global": {}, "wp:functions": {
        "irqsync_install": {
            "typed_install_requires_REQ_SYNC_5": {
                "CVC4:1.8": {"total": 1, "unknown": 1}, "wp:main": {"total": 1, "unknown": 1}},
            "typed_install_ensures_1": {
                "qed": {"total": 1, "valid": 1}, "wp:main": {"total": 1, "valid": 1}},
            "typed_install_loop_part": {
                "Z3:4.8.12": {"total": 2, "valid": 2}, "CVC4:1.8": {"total": 2, "unknown": 2},
                "wp:main": {"total": 2, "valid": 2}},
            "typed_install_wp_smoke_dead_code_s1": {
                "qed": {"total": 1, "valid": 1}, "wp:main": {"total": 1, "valid": 1}},
            "wp:section": {"wp:main": {"total": 5, "valid": 4}}}}}
    p = tmp_path / "wp.json"
    p.write_text(json.dumps(wp))
    _, goals, smoke = gate.read_wp_json(str(p))
    by_name = {g["goal"]: g for g in goals}
    assert set(by_name) == {"typed_install_requires_REQ_SYNC_5", "typed_install_ensures_1",
                            "typed_install_loop_part"}          # no wp:section, smoke apart
    assert [g["goal"] for g in smoke] == ["typed_install_wp_smoke_dead_code_s1"]
    bad = by_name["typed_install_requires_REQ_SYNC_5"]
    assert (bad["total"], bad["proved"], bad["by"]) == (1, 0, {})
    assert bad["requirements"] == [Q + "SYNC-5"]
    assert by_name["typed_install_loop_part"]["by"] == {"z3": 2}   # CVC4 proved nothing
    provers, functions, reqs = gate.tally(goals, smoke, ["z3", "cvc4"])
    assert functions["irqsync_install"] == {"total": 4, "proved": 3, "qed": 1, "z3": 2,
                                            "smoke": 1, "smoke_passed": 1}
    assert reqs[Q + "SYNC-5"]["proved"] == 0 and reqs[Q + "SYNC-5"]["total"] == 1


def test_read_props_joins_a_property_printed_over_several_lines(tmp_path, root):
    p = tmp_path / "props.csv"
    p.write_text("directory\tfile\tline\tfunction\tproperty kind\tstatus\tproperty\n"
                 f"{root}/acsl\tdesc.h\t51\tirqsync_status_update\tprecondition\tUnknown\tREQ_SYNC_5: a ≢ 0\n"
                 f"{root}/src\tcore.c\t10\tf\tcomplete behaviors\tValid\tcomplete behaviors a,\n"
                 "  b\n")
    props = gate.read_props(str(p))
    assert len(props) == 2
    assert props[0]["file"] == "acsl/desc.h" and props[0]["line"] == 51
    assert props[0]["status"] == "Unknown"
    assert props[1]["property"] == "complete behaviors a,\n  b"

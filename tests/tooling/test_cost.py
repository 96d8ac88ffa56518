"""proofs/cost.py: the time of a proof run, split by prover, read from the units proved now."""
import json

from conftest import load_script

cost = load_script("proofs/cost.py")

LOG = """\
$ frama-c proofs/core.c -wp -wp-prover cvc4,z3 -wp-timeout 40 -wp-smoke-timeout 3 -wp-par 1 -wp-fct f
[wp] [Qed] Goal typed_f_assigns : Valid
[wp] [CVC4 1.8] Goal typed_f_ensures_x : Valid (Qed:4ms) (40ms) (9629)
[wp] [CVC4 1.8] Goal typed_f_loop_inv : Valid (Qed:98ms) (1'05s) (456941)
[wp] [Z3 4.8.12] Goal typed_f_hard : Valid (Qed:3ms) (2.5s) (12345)
[wp] [Failed] Goal typed_f_requires
"""


def unit(tmp_path, name, seconds, log):
    d = tmp_path / name
    d.mkdir()
    (d / "unit.json").write_text(json.dumps({
        "seconds": seconds, "smoke": [{"goal": "s1"}, {"goal": "s2"}],
        "goals": [{"total": 4, "proved": 4, "by": {"qed": 1, "cvc4": 2, "z3": 1}}]}))
    if log:
        (d / "frama-c.log").write_text(log)


def test_split_by_prover(tmp_path, capsys):
    unit(tmp_path, "f", 100.0, LOG)
    unit(tmp_path, "g", 20.0, None)      # no log (reused): counted in the wall, no prover time
    assert cost.main(["cost.py", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 units proved now" in out and "wall seconds summed: 120" in out
    assert "provers cvc4,z3" in out and "smoke timeout 3 s" in out
    assert "goals: 8, Qed alone: 2" in out
    assert "CVC4: proved 2 goals in 65 s" in out       # 40 ms + 1'05s, the minute read as 60 s
    assert "Z3: proved 1 goals in 2 s" in out
    assert "smoke tests: 4, at most 24 prover-seconds (4 x 3 s x 2 prover(s))" in out
    assert "the rest (WP's own work and scheduling, and the smoke tests): 52 s" in out


def test_no_units_is_an_error(tmp_path, capsys):
    assert cost.main(["cost.py", str(tmp_path)]) == 2
    assert "no unit proved now" in capsys.readouterr().err

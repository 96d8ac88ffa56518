"""tools/model/pan.py: the figures read from pan's output and the one verdict rule
(parse + verdict).  The fixtures are real pan outputs (spin 6.5.2) of small runs:
  pan-hold.out        promela/ticket.pml MM_SC, -DSAFETY -DBFS: no error, full search
  pan-violate.out     irqsync.pml MM_TSO VARIANT=0 CHECK_FLAG=0: an assertion fails (pan also
                      prints "Warning: Search not completed" after an error)
  pan-depth.out       ticket.pml MM_SC with pan -m20: "error: max search depth too small"
  pan-bitstate.out    ticket.pml MM_SC with -DBITSTATE: errors 0, but a lossy search
  pan-acceptance.out  irqsync.pml LTL_TERM with pan -a: an acceptance cycle
"""
from tools.model import pan


def test_clean_exhaustive_run_holds(fixture_text):
    r = pan.parse(fixture_text("pan-hold.out"))
    assert (r["errors"], r["states"], r["transitions"], r["depth"]) == (0, 11644, 24433, 103)
    assert r["search"] == "Full statespace" and r["cut"] == []
    assert r["memory_mb"] == 129.367
    assert pan.verdict(r) == ("hold", "")


def test_error_is_a_violation_with_pans_message(fixture_text):
    r = pan.parse(fixture_text("pan-violate.out"))
    assert r["errors"] == 1
    # the "Search not completed" pan prints after an error must not hide the error
    assert pan.verdict(r) == ("violate", "pan:1: assertion violated (before==0) (at depth 49)")


def test_acceptance_cycle_is_a_violation(fixture_text):
    r = pan.parse(fixture_text("pan-acceptance.out"))
    assert pan.verdict(r) == ("violate", "pan:1: acceptance cycle (at depth 85)")


def test_depth_limit_proves_nothing(fixture_text):
    r = pan.parse(fixture_text("pan-depth.out"))
    assert r["errors"] == 0 and r["search"] == "Full statespace"
    result, detail = pan.verdict(r)
    assert result == "incomplete"
    assert "max search depth too small" in detail


def test_lossy_bitstate_search_proves_nothing(fixture_text):
    r = pan.parse(fixture_text("pan-bitstate.out"))
    assert r["errors"] == 0 and r["cut"] == []
    assert pan.verdict(r) == ("incomplete", "not exhaustive: Bit statespace search")


def test_no_errors_line_is_incomplete_with_the_last_progress_figures():
    # a run stopped at its timeout: pan printed progress lines only (pan.run appends the marker)
    out = ("Depth=      10 States=    1e+06 Transitions= 2.5e+06 Memory=   128.195\tt=     1.5 R=   7e+05\n"
           "Depth=      12 States=    2e+06 Transitions= 5.1e+06 Memory=   256.500\tt=     3.25 R=   6e+05\n"
           "\nSearch not completed (timeout)\n")
    r = pan.parse(out)
    assert (r["depth"], r["states"], r["transitions"], r["memory_mb"], r["seconds"]) == \
        (12, 2000000, 5100000, 256.5, 3.25)
    result, detail = pan.verdict(r)
    assert result == "incomplete" and "no 'errors:' line" in detail and "Search not completed" in detail


def test_large_counts_in_exponent_form(fixture_text):
    out = fixture_text("pan-hold.out").replace("    11644 states, stored", "1.1965918e+08 states, stored")
    assert pan.parse(out)["states"] == 119659180


def test_memory_bound_after_errors_zero_is_incomplete(fixture_text):
    out = fixture_text("pan-hold.out") + "pan: reached -DMEMLIM bound\n"
    assert pan.verdict(pan.parse(out))[0] == "incomplete"

"""The command lines of the report's entry points and checks converted to argparse (issue 24):
check_wp_verdict, check_report, check_xfail, goals, report, trail. Each prints its help and exits
0 on --help, exits 2 with a message on a bad option, turns the command lines that the make
fragments and the suites use into the same calls as before, and does what the suites rely on."""
import json, os

import pytest

from conftest import load_script
from tools.report import goals, report, trail

check_wp_verdict = load_script("tests/mutants/check_wp_verdict.py")
check_report = load_script("tests/report/check_report.py")
check_xfail = load_script("tests/report/check_xfail.py")

MAINS = {"check_wp_verdict": check_wp_verdict.main, "check_report": check_report.main,
         "check_xfail": check_xfail.main, "goals": goals.main, "report": report.main,
         "trail": trail.main}


@pytest.fixture(autouse=True)
def stay_in_root(monkeypatch, root):
    monkeypatch.chdir(root)   # report chdirs to its root; undone after each test


# --help and a bad option, for every program: tests/tooling/test_tools_main.py


@pytest.mark.parametrize("name", ["check_report", "check_xfail"])
def test_unknown_check_exits_2(name, capsys):
    with pytest.raises(SystemExit) as e:
        MAINS[name](["no-such-check"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["page", "ev.json"], ["timeline", "ev.json", "sb-tso"],
                                  ["same", "a.json", "b.json", "c.json"], ["status", "ev.json"]])
def test_check_report_wrong_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        check_report.main(argv)
    assert e.value.code == 2 and "error: " in capsys.readouterr().err


# --- check_report: the suite's command lines reach the same functions, arguments in order
CHECK_REPORT_CALLS = [
    (["fixture", "E"], "fixture", ("E",)),
    (["page", "E", "P.html"], "page", ("E", "P.html")),
    (["junit", "E", "J.xml"], "junit", ("E", "J.xml")),
    (["timeline", "E", "sb-tso", "1:W_Y/enter 1:R_X/load ERROR"], "timeline",
     ("E", "sb-tso", "1:W_Y/enter 1:R_X/load ERROR")),
    (["same", "A", "B"], "same", ("A", "B")),
    (["status", "E", "model", "stale"], "status", ("E", "model", "stale")),
    (["credit", "E"], "credit", ("E",)),
    (["groups", "E"], "groups", ("E",)),
    (["stale", "E", "FIX-TCB-1", "handle_irq:x"], "stale", ("E", "FIX-TCB-1", "handle_irq:x")),
    (["hostile", "S.json", "D.json"], "hostile", ("S.json", "D.json")),
    (["escaped", "E", "P.html"], "escaped", ("E", "P.html")),
    (["green", "SRC", "DST"], "green", ("SRC", "DST")),
    (["green", "SRC", "DST", "FIX-LOCK-1", "FIX-MM-2"], "green",
     ("SRC", "DST", "FIX-LOCK-1", "FIX-MM-2")),
]


@pytest.mark.parametrize("argv, fn, args", CHECK_REPORT_CALLS, ids=[" ".join(c[0][:1] + c[0][3:])
                                                                     for c in CHECK_REPORT_CALLS])
def test_check_report_arguments(monkeypatch, argv, fn, args):
    got = []
    monkeypatch.setattr(check_report, fn, lambda *a: got.append(a) or 5)
    assert check_report.main(argv) == 5
    assert got == [args]


# --- check_report page: every number of the page equals evidence.json
def evidence(model_status="fresh", model=True):
    v = {"requirements": {"verified": 1, "total": 3, "partial": 1, "failed": 0, "none": 1},
         "goals": {"proved": 19, "total": 20, "assumptions": 1},
         "model": {"as_expected": 3, "total": 4} if model else None,
         "tests": {"passed": 4, "total": 6, "failed": 1, "skipped": 1},
         "targets": {"ok": 1, "total": 2}, "fresh": 5, "producers": 6}
    prods = {n: {"status": "fresh"} for n in ("trace", "proofs", "tests", "cross", "bench")}
    prods["model"] = {"status": model_status}
    return {"verdict": v, "producers": prods, "requirements": {"REQ-A-1": {"status": "verified"}}}


def page_html(model='<span id="v-model-num">3</span>/<span id="v-model-den">4</span>',
              goals='<span id="v-goals-num">19</span> / <span id="v-goals-den">20</span>',
              req_row='<tr id="req-REQ-A-1"><td>verified</td></tr>', model_row="fresh"):
    prods = "".join(f'<tr id="prod-{n}"><td>{n}</td><td>{"fresh" if n != "model" else model_row}'
                    f'</td></tr>' for n in ("trace", "proofs", "tests", "cross", "bench", "model"))
    return f"""<html><body>
<div id="v-req"><span id="v-req-num">1</span>/<span id="v-req-den">3</span>
 <span id="v-req-partial">1</span> <span id="v-req-failed">0</span> <span id="v-req-none">
   1
 </span></div>
<div id="v-goals">{goals} <span id="v-goals-assumptions"><b>1</b></span></div>
<div id="v-model">{model}</div>
<div><span id="v-tests-num">4</span>/<span id="v-tests-den">6</span>
 <span id="v-tests-failed">1</span> <span id="v-tests-skipped">1</span></div>
<div><span id="v-targets-num">1</span>/<span id="v-targets-den">2</span></div>
<div><span id="v-fresh-num">5</span>/<span id="v-fresh-den">6</span></div>
<table>{req_row}</table><table>{prods}</table></body></html>"""


def run_page(tmp_path, ev, html):
    (tmp_path / "ev.json").write_text(json.dumps(ev))
    (tmp_path / "p.html").write_text(html)
    return check_report.main(["page", str(tmp_path / "ev.json"), str(tmp_path / "p.html")])


def test_check_report_page_equal_numbers_pass(tmp_path, capsys):
    assert run_page(tmp_path, evidence(), page_html()) == 0
    out = capsys.readouterr().out
    assert "BAD" not in out
    assert "ok  v-req-none: page '1', evidence.json '1'" in out   # whitespace around it ignored
    assert "ok  v-goals-assumptions: page '1', evidence.json '1'" in out   # text of a child
    assert out.endswith("18 numbers and 1 rows compared\n")


@pytest.mark.parametrize("goals_html, says", [
    ('<span id="v-goals-num">20</span>/<span id="v-goals-den">20</span>',
     "BAD v-goals-num: page '20', evidence.json '19'"),          # the suite's tampered page
    ('<span id="v-goals-num">20</span>/<span id="v-goals-den">19</span>',
     "BAD v-goals-den: page '19', evidence.json '20'"),          # numerator and denominator
    ('<span id="v-goals-num">19</span>', "BAD v-goals-den: page '<absent>', evidence.json '20'"),
], ids=["changed", "swapped", "absent"])
def test_check_report_page_catches_a_wrong_number(tmp_path, capsys, goals_html, says):
    assert run_page(tmp_path, evidence(), page_html(goals=goals_html)) == 1
    assert says in capsys.readouterr().out


@pytest.mark.parametrize("status, shown", [("stale", "stale"), ("missing", "not run"),
                                           ("failed", "failed"), ("fresh", "invalid")])
def test_check_report_page_state_of_a_result_not_counted(tmp_path, capsys, status, shown):
    """A producer without numbers: its card shows its status; fresh but no data is invalid."""
    ev = evidence(model_status=status, model=False)
    html = page_html(model=f'<div id="v-model-state">{shown}</div>', model_row=status)
    assert run_page(tmp_path, ev, html) == 0
    assert f"ok  v-model-state: page {shown!r}, evidence.json {shown!r}" in capsys.readouterr().out
    wrong = "not run" if shown != "not run" else "stale"
    assert run_page(tmp_path, ev, page_html(model=f'<div id="v-model-state">{wrong}</div>',
                                            model_row=status)) == 1


def test_check_report_page_rows(tmp_path, capsys):
    assert run_page(tmp_path, evidence(), page_html(req_row="")) == 1
    assert "BAD requirement REQ-A-1 has no row" in capsys.readouterr().out
    assert run_page(tmp_path, evidence(model_status="stale"), page_html(model_row="fresh")) == 1
    assert "BAD producer model: status stale not on its row" in capsys.readouterr().out


# --- check_report timeline and same
STEPS = [{"kind": "step", "cpu": 1, "step": "W_Y", "effect": "enter"},
         {"kind": "print", "cpu": None, "text": "hello"},
         {"kind": "step", "cpu": 1, "step": "R_X", "effect": "load"},
         {"kind": "enter", "cpu": 0, "step": "flag=1"},
         {"kind": "flush", "cpu": 1, "step": "W_Y [1]=1"},
         {"kind": "late", "cpu": 0, "text": "x"},
         {"kind": "error", "cpu": None, "text": "assertion violated"}]


def test_check_report_timeline(tmp_path, capsys):
    ev = {"timelines": [{"run": "MM_TSO sb", "trail": "trails/sb-tso.txt", "steps": STEPS},
                        {"run": "MM_TSO mp", "trail": "trails/mp-tso.txt", "steps": []}]}
    (tmp_path / "ev.json").write_text(json.dumps(ev))
    e = str(tmp_path / "ev.json")
    want = "1:W_Y/enter 1:R_X/load 0:flag=1/enter 1:W_Y [1]=1/flush ERROR"
    assert check_report.main(["timeline", e, "sb-tso", want]) == 0
    assert capsys.readouterr().out == f"got:  {want}\nwant: {want}\n"
    assert check_report.main(["timeline", e, "sb-tso", want.replace("R_X", "R_Y")]) == 1
    assert check_report.main(["timeline", e, "MM_TSO", want]) == 1
    assert "BAD: 2 timelines match 'MM_TSO'" in capsys.readouterr().out


def test_check_report_same_ignores_only_times(tmp_path, capsys):
    a = {"generated": "t1", "goals": {"proved": 3, "seconds": 1.5},
         "runs": [{"name": "r", "time": 2}], "producers": {"model": {"stamped": "x"}}}
    b = {"generated": "t2", "goals": {"proved": 3, "seconds": 9.0},
         "runs": [{"name": "r", "time": 7}], "producers": {"model": {"stamped": "y"}}}
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(b))
    (tmp_path / "c.json").write_text(json.dumps(dict(b, goals={"proved": 2, "seconds": 1.5})))
    assert check_report.main(["same", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    assert capsys.readouterr().out == "identical apart from times\n"
    assert check_report.main(["same", str(tmp_path / "a.json"), str(tmp_path / "c.json")]) == 1
    assert capsys.readouterr().out == "differs in goals\n"


# --- check_xfail: an expected failure is never support, and the page says it was shown able to fail
def xfail_evidence(**override):
    reqs = {rid: {"method_status": {m: mst}, "status": rst, "shown_able_to_fail": {m: 1}}
            for rid, (m, mst, rst) in check_xfail.WANT.items()}
    for rid, r in override.items():
        reqs[rid].update(r)
    return {"requirements": reqs}


XFAIL_PAGE = "".join(f'<tr><td id="xfail-{rid}">1 {m} item</td></tr>\n'
                     for rid, (m, _, _) in check_xfail.WANT.items())


def run_verdict(tmp_path, ev, page=XFAIL_PAGE):
    (tmp_path / "ev.json").write_text(json.dumps(ev))
    (tmp_path / "p.html").write_text(page)
    return check_xfail.main(["verdict", str(tmp_path / "ev.json"), str(tmp_path / "p.html")])


def test_check_xfail_verdict_holds(tmp_path, capsys):
    assert run_verdict(tmp_path, xfail_evidence()) == 0
    out = capsys.readouterr().out
    assert "BAD" not in out and out.count("ok ") == len(check_xfail.WANT)


@pytest.mark.parametrize("override, says", [
    ({"FIX-ERR-1": {"method_status": {"test": "pass"}, "status": "partial"}},
     "BAD FIX-ERR-1: test pass, requirement partial"),       # the suite's unmarked variant
    ({"FIX-LOCK-1": {"status": "verified"}}, "BAD FIX-LOCK-1: lint none, requirement verified"),
    ({"FIX-MM-2": {"shown_able_to_fail": {}}}, "shown able to fail by 0 model item(s)"),
], ids=["credited", "requirement-status", "not-shown-able-to-fail"])
def test_check_xfail_verdict_catches_support(tmp_path, capsys, override, says):
    assert run_verdict(tmp_path, xfail_evidence(**override)) == 1
    assert says in capsys.readouterr().out


def test_check_xfail_verdict_needs_the_page_cell(tmp_path, capsys):
    page = XFAIL_PAGE.replace('id="xfail-FIX-ERR-1">1 test', 'id="xfail-FIX-ERR-1">')
    assert run_verdict(tmp_path, xfail_evidence(), page) == 1
    assert "BAD FIX-ERR-1: the page's shown-able-to-fail cell lacks its test item" in \
        capsys.readouterr().out


def test_check_xfail_add_and_strip(tmp_path, capsys):
    (tmp_path / "s.json").write_text(json.dumps({"suites": [{"suite": "20-unit", "cases": [
        {"status": "pass", "name": "unit/a", "seconds": 1, "detail": "log: x"}]}]}))
    (tmp_path / "t.tsv").write_text(
        "pass\tstress/broken [FIX-ERR-1]\t0.5\txfail: failed as expected: race observed\n"
        "pass\tlint/flagged [FIX-LOCK-1]\t0\tfailed as expected: context imbalance\n"
        "fail\tunit/b\n")
    s, t, o, u = (str(tmp_path / n) for n in ("s.json", "t.tsv", "o.json", "u.json"))
    assert check_xfail.main(["add", s, "40-stress", t, o]) == 0
    assert capsys.readouterr().out.startswith("3 cases added: pass stress/broken [FIX-ERR-1]: xfail:")
    added = json.loads((tmp_path / "o.json").read_text())["suites"]
    assert [x["suite"] for x in added] == ["20-unit", "40-stress"]
    assert added[1]["cases"] == [
        {"status": "pass", "name": "stress/broken [FIX-ERR-1]", "seconds": 0.5,
         "detail": "xfail: failed as expected: race observed"},
        {"status": "pass", "name": "lint/flagged [FIX-LOCK-1]", "seconds": 0.0,
         "detail": "failed as expected: context imbalance"},
        {"status": "fail", "name": "unit/b", "seconds": 0.0, "detail": ""}]
    assert check_xfail.main(["strip", o, u]) == 0
    details = [c["detail"] for su in json.loads((tmp_path / "u.json").read_text())["suites"]
               for c in su["cases"]]
    assert details == ["log: x", "race observed", "context imbalance", ""]


# --- check_wp_verdict: the campaign's rule passes, the known-bad rule and a wrong detail fail
def test_check_wp_verdict_campaign_rule_passes(capsys):
    assert check_wp_verdict.main([]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(check_wp_verdict.CASES) and all(l.startswith("ok ") for l in out)
    assert check_wp_verdict.main(["--classifier", "campaign"]) == 0


def test_check_wp_verdict_exit_status_rule_is_caught(capsys):
    assert check_wp_verdict.main(["--classifier", "exit-status"]) == 1
    assert "BAD tool-crash: killed (prove: FAILED) (want error" in capsys.readouterr().out


def test_check_wp_verdict_wants_the_evidence_in_the_detail(monkeypatch, capsys):
    """A rule with every verdict right but a detail naming nothing fails the check."""
    def right_verdict_no_evidence(rc, out, proofs):
        return next(want for r, o, p, want, _ in check_wp_verdict.CASES.values()
                    if (r, o, p) == (rc, out, proofs)), "no detail"
    monkeypatch.setitem(check_wp_verdict.RULES, "campaign", right_verdict_no_evidence)
    assert check_wp_verdict.main([]) == 1
    assert "BAD passes: survived (no detail)" in capsys.readouterr().out


# --- goals: the list checked against a proofs.json, a row per line
GOAL_LIST = """| requirement | goal | credit |
|---|---|---|
| REQ-A-1 | `f:f_ensures_REQ_A_1` | proof |
| REQ-A-2 | `*:*_requires_REQ_A_2` | no: the caller's duty |
| REQ-B-1 | `g:g_gone_REQ_B_1` | proof |
| REQ-B-2 | `g:g_assert_*` | proof |
| REQ-C-1 | not a goal | proof |
"""
GOALS = {"f:f_ensures_REQ_A_1": [3, 3], "f:f_ensures_REQ_A_1_2": [1, 1],
         "h:h_requires_REQ_A_2": [2, 2], "g:g_assert_rte_mem": [5, 6],
         "g:g_ensures_REQ_B_2_REQ_A_1": [1, 1]}


def goal_tree(monkeypatch, tmp_path, rows, goals_):
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "proof-goals.md").write_text(rows)
    (tmp_path / "proofs.json").write_text(json.dumps({"goals": goals_}))
    read = goals.read
    monkeypatch.setattr(goals, "read", lambda root: read(str(tmp_path)))
    return str(tmp_path / "proofs.json")


def test_goals_table(monkeypatch, tmp_path, capsys):
    assert goals.main([goal_tree(monkeypatch, tmp_path, GOAL_LIST, GOALS)]) == 1
    unlisted = ("unlisted {0} g:g_ensures_REQ_B_2_REQ_A_1: cites it, no row of spec/proof-goals.md "
                "lists it (no credit); a row: | {0} | `g:g_ensures_REQ_B_2_REQ_A_1` | proof |   "
                "(or `no: <why>`)")
    assert capsys.readouterr().out.splitlines() == [
        "spec/proof-goals.md:7: not a row `| REQ-X-N | `function:goal` | proof or no: why |`",
        "pass REQ-A-1 f:f_ensures_REQ_A_1 [proof] 4/4 goals proved",   # the repeat _2 counted
        unlisted.format("REQ-A-1"),
        "pass REQ-A-2 *:*_requires_REQ_A_2 [no credit] 2/2 goals proved",
        "fail REQ-B-1 g:g_gone_REQ_B_1 [proof] stale: matches no goal of proofs.json (renamed or "
        "removed?); update spec/proof-goals.md:5",
        "fail REQ-B-2 g:g_assert_* [proof] 5/6 goals proved",
        unlisted.format("REQ-B-2"),
        "goals: 4 rows, 3 stale, failing or malformed, 2 unlisted goal(s)"]


def test_goals_all_rows_pass(monkeypatch, tmp_path, capsys):
    rows = "| REQ-A-1 | `f:f_ensures_REQ_A_1` | proof |\n| REQ-A-2 | `h:*` | proof |\n"
    path = goal_tree(monkeypatch, tmp_path, rows, {k: GOALS[k] for k in list(GOALS)[:3]})
    assert goals.main([path]) == 0
    assert capsys.readouterr().out.endswith(
        "goals: 2 rows, 0 stale, failing or malformed, 0 unlisted goal(s)\n")


def test_goals_unreadable_or_nameless_proofs(tmp_path, capsys):
    assert goals.main([str(tmp_path / "nosuch.json")]) == 2
    assert "goals: cannot read" in capsys.readouterr().err
    (tmp_path / "old.json").write_text(json.dumps({"total": 3, "proved": 3}))
    assert goals.main([str(tmp_path / "old.json")]) == 1
    assert "has no `goals`" in capsys.readouterr().out


# --- trail: a row per line of the timeline; exit 1 when the parse found inconsistencies
FIXTURE_TREE = "tests/report/fixtures/tree"
TRAILS = "tests/report/fixtures/results/trails"


def test_trail_explicit_markers(capsys):
    assert trail.main([f"{TRAILS}/tg3-v0-markers.txt", "tso", FIXTURE_TREE]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "CPU0  step   store   DRV_STORE_FLAG",
        "CPU0  enter          flag=1 flag = 1 enters the store buffer",
        "CPU1  step   other   D_SET_INPROGRESS",
        "CPU1  enter          status=INPROGRESS status = INPROGRESS enters the store buffer",
        "CPU0  step   load    S_SPIN_READ",
        "CPU1  step   other   H_READ_FLAG",
        "CPU0  step   other   S_RETURN",
        "CPU0  flush          flag=1 flag = 1 (CPU0) reaches memory",
        "CPU1  flush          status=INPROGRESS status = INPROGRESS (CPU1) reaches memory",
        "-     error           tg3.pml:30, Error: assertion violated; text of failed assertion: "
        "assert(!(handler_old_flag))"]


def test_trail_inferred_stores_show_address_and_value(capsys):
    """spin's own SB trail: the stores inferred from mm_store, named by their address and value."""
    assert trail.main([f"{TRAILS}/sb-tso.txt", "tso", FIXTURE_TREE]) == 0
    assert capsys.readouterr().out.splitlines()[:6] == [
        "CPU1  step   enter   W_Y [1]=1",
        "CPU1  step   load    R_X",
        "CPU0  step   enter   W_X [0]=1",
        "CPU0  step   load    R_Y",
        "CPU1  flush          W_Y [1]=1 W_Y [1]=1 (CPU1) reaches memory",
        "CPU0  flush          W_X [0]=1 W_X [0]=1 (CPU0) reaches memory"]


def test_trail_inconsistency_is_a_note_and_exit_1(tmp_path, capsys):
    """Without the model's sources no step is known to store: the flushers' moves find no entry."""
    assert trail.main([f"{TRAILS}/sb-tso.txt", "tso", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "note: flusher of CPU1 moved at step 13 with no (inferred) entry 0" in out
    # under SC nothing is buffered: the same trail is consistent
    assert trail.main([f"{TRAILS}/sb-tso.txt", "sc", str(tmp_path)]) == 0


def test_trail_default_root_is_the_repository(monkeypatch):
    got = []
    monkeypatch.setattr(trail, "Sources", lambda root: got.append(root) or trail.Sources)
    monkeypatch.setattr(trail, "parse", lambda text, src, mm: got.append(mm) or
                        {"steps": [], "notes": []})
    assert trail.main([f"{TRAILS}/sb-tso.txt", "weak"]) == 0
    assert got == [os.getcwd(), "weak"]


# --- report: the options become build()'s arguments; the report goes to BUILD/evidence
@pytest.fixture
def fake_report(monkeypatch):
    monkeypatch.setenv("BUILD", "build-env")          # main sets both; restored after the test
    monkeypatch.setenv("IRQSYNC_ROOT", "/nonexistent")
    got = {}
    monkeypatch.setattr(report, "build", lambda root, bdir, promela, with_env:
                        got.update(build=(root, bdir, promela, with_env)) or {"ev": 1})
    monkeypatch.setattr(report, "write", lambda ev, out: got.update(write=(ev, out)))
    monkeypatch.setattr(report.summary, "print_summary",
                        lambda ev, out: got.update(summary=(ev, out)))
    return got


def test_report_defaults(fake_report, root, capsys):
    assert report.main([]) == 0
    assert fake_report == {"build": (root, "build-env", "promela", True),
                           "write": ({"ev": 1}, os.path.join("build-env", "evidence"))}
    assert capsys.readouterr().out == "report: build-env/evidence/index.html, evidence.json, " \
                                      "junit.xml written\n"
    assert os.environ["IRQSYNC_ROOT"] == root and os.environ["BUILD"] == "build-env"


def test_report_options(fake_report, tmp_path, capsys):
    """The suite's gen: --root and --build (inside the root: relative to it), and the flags."""
    fx = tmp_path / "tree"
    fx.mkdir()
    argv = ["--root", str(fx), "--build", str(fx / "build"), "--promela", "pml", "--no-env",
            "--summary"]
    assert report.main(argv) == 0
    assert fake_report == {"build": (str(fx), "build", "pml", False),
                           "write": ({"ev": 1}, os.path.join("build", "evidence")),
                           "summary": ({"ev": 1}, os.path.join("build", "evidence"))}
    assert os.getcwd() == str(fx) and os.environ["BUILD"] == "build"


def test_report_build_outside_the_root_stays_absolute(fake_report, tmp_path):
    (tmp_path / "tree").mkdir()
    assert report.main(["--root", str(tmp_path / "tree"), "--build", str(tmp_path / "b")]) == 0
    assert fake_report["build"][1] == str(tmp_path / "b")


def test_report_usage_error_prints_what_it_does(capsys):
    """tests/suites/90-report.sh greps the description for an unknown option."""
    with pytest.raises(SystemExit) as e:
        report.main(["--frobnicate"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "make report: build/evidence" in err
    assert "error: unrecognized arguments: --frobnicate" in err

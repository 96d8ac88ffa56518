"""The command lines of the entry points converted to argparse (issue 24): each prints its
help and exits 0 on --help, exits 2 with a message on a bad option, and turns the command
lines that the make fragments and the suites use into the same calls as before."""
import json

import pytest

from conftest import load_script
from tools import stamp, summary, trace
from tools.bench import bench, drd_classify
from tools.model import pan, run1, tables

check_examples = load_script("tests/lint/check_examples.py")
check_sarif = load_script("tests/lint/check_sarif.py")
same_result = load_script("tests/proofs/same_result.py")

MAINS = {"check_examples": check_examples.main, "check_sarif": check_sarif.main,
         "same_result": same_result.main, "bench": bench.main, "drd_classify": drd_classify.main,
         "run1": run1.main, "tables": tables.main, "stamp": stamp.main, "summary": summary.main,
         "trace": trace.main}


@pytest.fixture(autouse=True)
def stay_in_root(monkeypatch, root):
    monkeypatch.chdir(root)   # stamp and trace chdir to the root; undone after each test


# --help and a bad option, for every program: tests/tooling/test_tools_main.py


@pytest.mark.parametrize("name", ["check_sarif", "stamp", "trace"])
def test_unknown_subcommand_exits_2(name, capsys):
    with pytest.raises(SystemExit) as e:
        MAINS[name](["no-such-command"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err


# --- run1: the flags become pan's compile and run options, pan's verdict the exit status
def fake_pan(monkeypatch, result):
    calls = []

    def run(work, model, defines, cc, args):
        calls.append({"model": model, "defines": defines, "cc": cc, "args": args})
        return result
    monkeypatch.setattr(pan, "run", run)
    return calls


HOLD = {"errors": 0, "states": 1, "transitions": 1, "depth": 1, "memory_mb": 1.0, "seconds": 0.0,
        "search": "Full statespace", "cut": [], "message": "", "trail_file": None}


@pytest.mark.parametrize("argv, cc, args", [
    (["MM_TSO", "VARIANT=1"], ["-DSAFETY", "-DBFS"], []),
    (["--dfs", "MM_WEAK", "VARIANT=2"], ["-DSAFETY", "-DCOLLAPSE"], []),
    (["--noreduce", "MM_WEAK", "SYMM_CHECK"], ["-DSAFETY", "-DBFS", "-DNOREDUCE"], []),
    (["--ltl", "MM_TSO", "LTL_SYNC"], [], ["-a"]),
    (["--fair", "MM_WEAK", "LTL_TERM"], [], ["-a", "-f"]),
], ids=["bfs", "dfs", "noreduce", "ltl", "fair"])
def test_run1_flags(monkeypatch, capsys, argv, cc, args):
    calls = fake_pan(monkeypatch, HOLD)
    assert run1.main(argv) == 0
    c = calls[0]
    assert c["cc"] == ["-DMEMLIM=4096", "-DNFAIR=4"] + cc
    assert c["args"] == ["-m2000000"] + args
    assert c["defines"] == [a for a in argv if not a.startswith("--")]
    assert c["model"].endswith("promela/irqsync.pml")
    assert "no error, exhaustive" in capsys.readouterr().out


def test_run1_model_and_spin_style_defines(monkeypatch, capsys):
    calls = fake_pan(monkeypatch, HOLD)
    run1.main(["--model", "promela/ticket.pml", "MM_WEAK", "-DTAS_LOCK=1"])
    assert calls[0]["model"] == "promela/ticket.pml"
    assert calls[0]["defines"] == ["MM_WEAK", "TAS_LOCK=1"]
    assert capsys.readouterr().out.startswith("promela/ticket.pml MM_WEAK TAS_LOCK=1: errors=0 ")


@pytest.mark.parametrize("result, status, says", [
    (dict(HOLD, errors=1, message="pan:1: assertion violated (x) (at depth 3)"), 1,
     "pan:1: assertion violated (x)"),
    (dict(HOLD, cut=["error: max search depth too small"]), 3, "incomplete: search cut short"),
    (dict(HOLD, search="Bit statespace"), 3, "incomplete: not exhaustive"),
    ({"fatal": "spin -a failed: syntax error"}, 2, "spin -a failed"),
], ids=["violate", "depth-cut", "bitstate", "fatal"])
def test_run1_exit_status_is_the_verdict(monkeypatch, capsys, result, status, says):
    fake_pan(monkeypatch, result)
    assert run1.main(["MM_SC"]) == status
    assert says in capsys.readouterr().out


# --- stamp: `run PRODUCER -- CMD...` hands CMD over whole, options and all
def test_stamp_run_passes_the_command_after_dashes(monkeypatch):
    got = []
    monkeypatch.setattr(stamp, "run", lambda name, cmd: got.append((name, cmd)) or 7)
    argv = ["run", "tests", "--", "make", "--no-print-directory", "check", "SUITES="]
    assert stamp.main(argv) == 7
    assert got == [("tests", ["make", "--no-print-directory", "check", "SUITES="])]


def test_stamp_run_without_a_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        stamp.main(["run", "model", "--"])
    assert e.value.code == 2


def test_stamp_check_names_an_unknown_producer(capsys):
    assert stamp.main(["check", "nosuch"]) == 2
    assert "unknown producer nosuch" in capsys.readouterr().err


def test_stamp_make_table_words(capsys):
    assert stamp.main(["make-table"]) == 0
    words = capsys.readouterr().out.split()
    assert [w.split(":")[0] for w in words] == list(stamp.PRODUCERS)
    assert "model:model:required:model,model-quick,model-litmus,model-merge" in words
    assert "bench:bench:optional:bench" in words


# --- check_sarif: the positional forms of the suite's calls
def test_check_sarif_runs_and_apply_arguments(monkeypatch):
    got = []
    monkeypatch.setattr(check_sarif, "runs", lambda *a: got.append(a) or [])
    monkeypatch.setattr(check_sarif, "apply_one", lambda *a: got.append(a) or ["boom"])
    assert check_sarif.main(["runs", "x.sarif", "sparse,coccinelle", "--empty"]) == 0
    assert check_sarif.main(["runs", "x.sarif", "sparse"]) == 0
    assert check_sarif.main(["apply", "x.sarif", "f.c", "44", "clang-tidy/r", "1", "o.c"]) == 1
    assert got == [("x.sarif", ["sparse", "coccinelle"], True), ("x.sarif", ["sparse"], False),
                   ("x.sarif", "f.c", 44, "clang-tidy/r", 1, "o.c")]


def test_check_sarif_a_read_error_is_a_failed_check(capsys):
    assert check_sarif.main(["same", "/nonexistent.sarif", "/nonexistent.txt"]) == 1
    assert "FAIL: FileNotFoundError" in capsys.readouterr().out


# --- trace, summary, same_result
def test_trace_json_writes_where_asked(monkeypatch):
    got = []
    monkeypatch.setattr(trace, "write_json", lambda out, md=None: got.append((out, md)) or 0)
    monkeypatch.setattr(trace, "check", lambda: got.append("check") or 1)
    assert trace.main(["json", "build/evidence/trace.json"]) == 0
    assert trace.main(["json", "t.json", "--md", "t.md"]) == 0
    assert trace.main(["check"]) == 1
    assert got == [("build/evidence/trace.json", None), ("t.json", "t.md"), "check"]


def test_summary_without_a_report_exits_2(tmp_path, capsys):
    assert summary.main([str(tmp_path)]) == 2
    assert "no report in" in capsys.readouterr().err


def test_same_result_names_what_differs(tmp_path, capsys):
    a = {"total": 3, "proved": 3, "units": {"u": {"key": "k1"}}, "shards": ["1/1"]}
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "b.json").write_text(json.dumps(dict(a, proved=2, units={"u": {"key": "k2"}})))
    assert same_result.main([str(tmp_path / "a.json"), str(tmp_path / "a.json")]) == 0
    assert "same result: 3/3 goals, 1 units" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        same_result.main([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert e.value.code == "results differ in: ['proved', 'units/keys']"

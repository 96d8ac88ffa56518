"""tools/runtests.py (the runner of `make check`), run on a tree of fixture suites: its last
line is the totals `N passed, N failed[, N skipped]` that tests/suites/00-foundation.sh, the
report and a reader rely on, its exit status says whether anything failed, and a suite that
crashes is counted as a failure by name."""
import json, os, shutil, subprocess, sys

import pytest


def run_tree(tmp_path, root, suites, **env):
    d = tmp_path / "tree"
    (d / "tests" / "suites").mkdir(parents=True)
    (d / "tools").mkdir()
    for f in os.listdir(os.path.join(root, "tests")):   # lib.sh and what it sources
        if f.endswith(".sh"):
            shutil.copy(os.path.join(root, "tests", f), d / "tests")
    for f in ("__init__.py", "runtests.py"):
        shutil.copy(os.path.join(root, "tools", f), d / "tools")
    for name, body in suites.items():
        (d / "tests" / "suites" / name).write_text(". tests/lib.sh\n" + body)
    # BUILD too: the fixture's runner writes to the fixture tree's build/ (read below), never
    # to the build directory of the run that runs this test
    e = {k: v for k, v in os.environ.items() if k not in ("SUITES", "RESULTS", "LOGDIR", "BUILD")}
    p = subprocess.run([sys.executable, "-m", "tools.runtests"], cwd=d, env=dict(e, **env),
                       capture_output=True, text=True, timeout=120)
    return p, d


def test_totals_line_counts_every_status_and_fails_the_run(tmp_path, root):
    p, d = run_tree(tmp_path, root, {
        "a.sh": "t_ok one\nt_fail two boom\nt_skip three 'not here'\n",
        "b.sh": "t_ok four\n"})
    lines = p.stdout.strip().splitlines()
    assert lines[-1] == "2 passed, 1 failed, 1 skipped"
    assert "[a] 1 passed, 1 failed, 1 skipped" in p.stdout
    assert p.returncode == 1
    s = json.loads((d / "build" / "results" / "summary.json").read_text())
    assert [x["suite"] for x in s["suites"]] == ["a", "b"]
    # (tests/lib.sh's _t_clean leaves a trailing blank on every name: not the runner's concern)
    assert [(c["status"], c["name"].rstrip()) for c in s["suites"][0]["cases"]] == \
        [("pass", "one"), ("fail", "two"), ("skip", "three")]


def test_all_passed_exits_0_and_omits_skipped(tmp_path, root):
    p, _ = run_tree(tmp_path, root, {"a.sh": "t_ok one\nt_ok two\n"})
    assert p.stdout.strip().splitlines()[-1] == "2 passed, 0 failed"
    assert p.returncode == 0


@pytest.mark.parametrize("body, why", [("t_ok one\nexit 3\n", "script exited 3"),
                                       ("true\n", "suite recorded no test case")],
                         ids=["crashed", "empty"])
def test_a_crashed_or_empty_suite_is_a_named_failure(tmp_path, root, body, why):
    p, d = run_tree(tmp_path, root, {"c.sh": body})
    assert p.returncode == 1
    s = json.loads((d / "build" / "results" / "summary.json").read_text())
    fails = [c for c in s["suites"][0]["cases"] if c["status"] == "fail"]
    assert [c["name"] for c in fails] == ["c (suite)"] and why in fails[0]["detail"]


def test_suites_selects_by_substring(tmp_path, root):
    p, _ = run_tree(tmp_path, root, {"10-x.sh": "t_ok one\n", "20-y.sh": "t_fail two no\n"},
                    SUITES="10-")
    assert "[20-y]" not in p.stdout
    assert p.stdout.strip().splitlines()[-1] == "1 passed, 0 failed" and p.returncode == 0

"""python3 -m tools: the one command line finds every program of the tooling and runs it with its
own arguments and exit status."""
import os, subprocess, sys

import pytest

from tools import __main__ as cli

ROOT = cli.ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "tools", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_every_program_is_a_command():
    cmds = cli.commands()
    for name in ("twins", "trace", "runtests", "model.run1", "refine.check", "proofs.gate",
                 "proofs.units", "proofs.negative.mutate", "lint.irqlint", "tests.shipped.hooks_check"):
        assert name in cmds, name
    assert not any(n.startswith("tests.tooling") for n in cmds)
    assert all(os.path.exists(p) for p, _ in cmds.values())


def test_the_list_names_each_command_with_its_purpose():
    r = run()
    assert r.returncode == 0
    assert any(l.split()[:1] == ["twins"] and "catalog" in l for l in r.stdout.splitlines())


def test_a_command_runs_with_its_arguments_and_exit_status():
    assert run("twins", "list", "--kind", "proof-mutant").stdout.split()[0] == "unlocked-status"
    r = run("twins", "killers", "no-such-twin")
    assert r.returncode == 2 and "no twin 'no-such-twin'" in r.stderr


def test_an_unknown_command_exits_2_and_says_so():
    r = run("no.such.command")
    assert r.returncode == 2 and "no command 'no.such.command'" in r.stderr


@pytest.mark.parametrize("name", sorted(cli.commands()))
def test_every_program_has_help_and_refuses_a_bad_option(name):
    # in-process would share module state between programs: one subprocess each, as a user runs it
    h = run(name, "--help")
    assert h.returncode == 0 and "usage:" in h.stdout, (h.stdout + h.stderr)[-300:]
    b = run(name, "--no-such-option")
    assert b.returncode == 2 and "error:" in b.stderr, (b.stdout + b.stderr)[-300:]

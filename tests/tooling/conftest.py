"""Shared fixtures of the tooling's own tests (python3 -m pytest tests/tooling; pyproject.toml
puts the repository root on the import path, so `from tools.model import pan` works)."""
import importlib.util, os, sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def load_script(relpath):
    """A program that is not in a package (proofs/gate.py, tests/lint/check_sarif.py), imported
    from its file under a module name of its own; its `if __name__ == "__main__"` does not run."""
    name = "tooling_" + relpath.replace("/", "_").removesuffix(".py")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, relpath))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def fixture_text():
    def read(name):
        with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
            return f.read()
    return read

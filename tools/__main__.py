"""python3 -m tools - the one command line of irqsync's tooling.

  python3 -m tools                   list the commands, one line each
  python3 -m tools COMMAND [ARGS...] run one (its --help says how), e.g.
                                     python3 -m tools twins check
                                     python3 -m tools model.run1 --model promela/ticket.pml MM_SC

A command is every program of the tooling: the modules of tools/ (`twins`, `trace`,
`model.run1`, ...), the proof gate and its units (`proofs.gate`, `proofs.units`,
`proofs.negative.mutate`), the lint driver (`lint.irqlint`) and the checkers the test groups run
(`tests.shipped.hooks_check`, ...).  The list is found, not written: a Python file of those
directories with a `__main__` block is a command, named by its path.  Each still runs by its
own path or module too (the Makefiles call them so); this is the same code.
"""
import argparse, ast, os, runpy, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ("tools", "proofs", "lint", "tests")
SKIP = ("tests/tooling",)       # the tooling's own pytest tests: `make check` runs them


def commands():
    """{name: (path, first line of its docstring)} of every program of DIRS."""
    out = {}
    for d in DIRS:
        for base, dirs, files in os.walk(os.path.join(ROOT, d)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            rel = os.path.relpath(base, ROOT)
            if rel.startswith(SKIP):
                continue
            for f in sorted(files):
                if not f.endswith(".py") or f.startswith("__"):
                    continue
                path = os.path.join(base, f)
                with open(path, encoding="utf-8") as fh:
                    src = fh.read()
                if "__main__" not in src:
                    continue
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                if name.startswith("tools."):
                    name = name[len("tools."):]
                doc = (ast.get_docstring(ast.parse(src)) or "").strip().split("\n")[0]
                out[name] = (path, doc)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m tools", add_help=False,
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("command", nargs="?", help="the program to run (none: list them)")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="its arguments, passed on as they are")
    a, options = ap.parse_known_args(argv)     # options before a command: -h, --help
    cmds = commands()
    if a.command in (None, "list") or options:
        print(__doc__.split("\n\n")[0])
        for name, (_, doc) in sorted(cmds.items()):
            print(f"  {name:28} {doc[:90]}")
        return 0
    name, args = a.command, a.args
    if name not in cmds:
        print(f"python3 -m tools: no command {name!r} (python3 -m tools lists them)", file=sys.stderr)
        return 2
    path = cmds[name][0]
    sys.argv = [path] + args
    sys.path.insert(0, ROOT)
    rel = os.path.relpath(path, ROOT)
    try:
        if rel.startswith("tools" + os.sep) or os.path.exists(
                os.path.join(os.path.dirname(path), "__init__.py")):
            runpy.run_module(rel[:-3].replace(os.sep, "."), run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

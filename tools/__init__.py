"""irqsync's tooling, one Python package: run every program from the repository root as a
module, `python3 -m tools.model.matrix …`, `python3 -m tools.report.report …`.

Running from the root is what puts this package on the import path (python3 -m adds the
current directory), so the programs import each other by their package names
(`from tools.model import pan`) and none edits sys.path.  The make fragments and the test
suites run with the root as their working directory.
"""

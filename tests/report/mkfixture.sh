#!/bin/bash
# tests/report/mkfixture.sh DIR — a throw-away tree for the report tests: the fixture sources in a
# git repository of their own, and every fixture result "produced" (copied) through
# `python3 -m tools.stamp run` (from the repository root), so that each one is stamped against
# those sources exactly as `make` does.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=$1
rm -rf "$dir"
mkdir -p "$dir"
cp -r "$here/fixtures/tree/." "$dir/"
git -C "$dir" init -q
export IRQSYNC_ROOT=$dir BUILD=$dir/build
ev=$dir/build/evidence res=$dir/build/results fx=$here/fixtures/results
mkdir -p "$ev" "$res"
stamp() { (cd "$top" && python3 -m tools.stamp run "$@") >/dev/null; }
stamp model  -- bash -c "cp '$fx/model.json' '$ev/' && cp -r '$fx/trails' '$ev/'"
stamp proofs -- cp "$fx/proofs.json" "$ev/"
stamp tests  -- cp "$fx/summary.json" "$res/"
stamp cross  -- cp "$fx/cross.json" "$ev/"
stamp bench  -- cp "$fx/bench.json" "$ev/"
stamp trace  -- cp "$fx/trace.json" "$ev/"

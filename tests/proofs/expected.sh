#!/usr/bin/env bash
# tests/proofs/expected.sh JOB — replay what `make prove-expected` recorded for JOB: its output,
# then its exit status (so t_run_fail checks the real run's status and message).
f=${BUILD:-build}/proofs/expected/$1   # BUILD: the build directory (make passes it)
[[ -f $f.rc && -f $f.out ]] || { echo "expected.sh: no result for $1 (make prove-expected)"; exit 99; }
cat "$f.out"
exit "$(cat "$f.rc")"

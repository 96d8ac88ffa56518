#!/usr/bin/env bash
# The cold proof (CI, before make check) must not take make check's prover cache away:
# a CI run once left an empty $BUILD/proofs/cache behind, so make check seeded nothing and its
# expected-failure jobs (the cache-only replay among them) ran without the committed cache.
#   1. make prove-cold proves into a cache directory of its own;
#   2. prove-cache-seed seeds a cache directory that exists but is empty.
set -euo pipefail
cd "$(dirname "$0")/../.."
dry=$(make -n prove-cold SHARD=)
last=$(grep -o -- '--cache-dir [^ ]*' <<<"$dry" | tail -1)
[[ $last == "--cache-dir ${BUILD:-build}/proofs/cold/cache" ]] || { echo "prove-cold proves into: ${last:-no --cache-dir}"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/proofs/cache"
make -s prove-cache-seed BUILD="$tmp"
n=$(find "$tmp/proofs/cache" -type f | wc -l)
((n > 0)) || { echo "an empty cache directory was not seeded"; exit 1; }
echo "prove-cold: $last; an empty cache directory seeded with $n entries"

#!/usr/bin/env bash
# make deps: install the Debian packages of tools/deps.list that are missing.
# Idempotent; when nothing is missing it only asks dpkg (well under a second).
# DEPS_LIST=file reads another list (tests). As non-root it prints the exact apt-get line and fails (exit 2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${DEPS_LIST:-$here/deps.list}" | awk '{print $1}')
missing=()
for p in "${pkgs[@]}"; do
  st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ $st == ii* ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "deps: all ${#pkgs[@]} packages present"
  exit 0
fi
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) != 0 ]]; then
  echo "deps: missing ${#missing[@]} package(s): ${missing[*]}" >&2
  echo "deps: run as root:  apt-get update && $line" >&2
  exit 2
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >"${TMPDIR:-/tmp}/irqsync-deps.log" 2>&1 || {
  echo "deps: apt-get failed; log follows" >&2; tail -n 40 "${TMPDIR:-/tmp}/irqsync-deps.log" >&2; exit 1; }
echo "deps: installed ${#missing[@]} package(s)"

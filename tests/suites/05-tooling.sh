#!/usr/bin/env bash
# The tooling's own tests: pytest over tests/tooling/ (configured by pyproject.toml), one case
# per pytest test, read back from its JUnit XML -- the verdict rule and the figures of pan's
# output, the proof gate's goal times and WP report, the step tables rendered from the step
# map, the runner's totals, the lint readers, and the command line of the entry points.
. tests/lib.sh
B=${BUILD:-build}/tooling; mkdir -p "$B"
XML=$B/junit.xml

# python3-pytest installs for Debian's python3; a python3 earlier on PATH (a virtualenv, pyenv)
# may not see it: then Debian's is used.
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import pytest' 2>/dev/null; then PY=$p; break; fi
done
if [[ -z $PY ]]; then
  t_fail "tooling/pytest" "pytest is not installed (Debian python3-pytest): run make deps"
  exit 0
fi

rm -f "$XML"   # a run that dies must not leave an older result to be read back
log="" rc=0 dt=0
T_LIMIT=${T_LIMIT:-300} _t_go "tooling/pytest" \
  "$PY" -m pytest -p no:cacheprovider --junitxml="$XML" tests/tooling
if [[ ! -s $XML ]]; then
  t_record fail "tooling/pytest" "$dt" "no JUnit XML: $(_t_why "$rc" "$log")"
  exit 0
fi

# One line per test: status, name, seconds, detail.
n=0 bad=0
while IFS=$'\t' read -r st name secs detail; do
  [[ $st == fail ]] && detail="$detail (log: $log)" && bad=$((bad + 1))
  t_record "$st" "$name" "$secs" "$detail"
  n=$((n + 1))
done < <("$PY" - "$XML" <<'PY'
import sys
import xml.etree.ElementTree as ET

for c in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    # classname tests.tooling.test_pan, name test_clean_exhaustive_run_holds; a file that
    # does not import is a case of its own: no classname, name tests.tooling.test_pan
    cls, name = c.get("classname") or "", c.get("name") or "?"
    name = ("tooling/%s::%s" % (cls.rpartition(".")[2], name) if cls
            else "tooling/%s (collection)" % name.rpartition(".")[2])
    st, detail = "pass", ""
    for kind in ("failure", "error", "skipped"):
        e = c.find(kind)
        if e is not None:
            st = "skip" if kind == "skipped" else "fail"
            msg = (e.get("message") or e.text or kind).strip().splitlines()
            detail = (kind + ": " if kind == "error" else "") + (msg[0] if msg else kind)
            break
    print("\t".join((st, name, "%.2f" % float(c.get("time") or 0),
                     " ".join(detail.split())[:300])))
PY
)
if ((n == 0)); then
  t_record fail "tooling/pytest" "$dt" "no test case in $XML: $(_t_why "$rc" "$log")"
elif ((rc != 0 && bad == 0)); then   # interrupted, a usage or internal error, a timeout
  t_record fail "tooling/pytest" "$dt" "pytest: $(_t_why "$rc" "$log") after $n cases without a failed case"
fi

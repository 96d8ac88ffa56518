#!/usr/bin/env python3
"""The CI templates under ci-templates/ are valid YAML, run every shard 1..N of the proofs and
the model, and merge them in a job that depends on all shards.  The cold proof (make prove-cold:
no reuse, no prover cache, compared with the store) is a required sharded job of both templates
and a step of .ci/run before make check."""
import subprocess, sys, yaml

gh = yaml.safe_load(open("ci-templates/github-actions.yml"))
jobs = gh["jobs"]
for kind in ("prove", "model"):
    shard = jobs[f"{kind}-shard"]
    n = int(gh["env"]["SHARDS"])
    assert shard["strategy"]["matrix"]["shard"] == list(range(1, n + 1)), (kind, n)
    steps = " ".join(s.get("run", "") for s in shard["steps"])
    assert f"make {kind} SHARD=${{{{ matrix.shard }}}}/${{{{ env.SHARDS }}}}" in steps, steps
    merge = jobs[f"{kind}-merge"]
    assert merge["needs"] == f"{kind}-shard", merge["needs"]
    assert f"make {kind}-merge" in " ".join(s.get("run", "") for s in merge["steps"])

gl = yaml.safe_load(open("ci-templates/gitlab-ci.yml"))
for kind in ("prove", "model"):
    shard = gl[f"{kind}-shard"]
    assert isinstance(shard["parallel"], int) and shard["parallel"] > 1
    assert f"make {kind} SHARD=${{CI_NODE_INDEX}}/${{CI_NODE_TOTAL}}" in shard["script"]
    assert gl[f"{kind}-merge"]["needs"] == [f"{kind}-shard"]
    assert f"make {kind}-merge" in gl[f"{kind}-merge"]["script"]

# The cold proof: sharded 1..N, merged after the reused proof's merge, required.
n = int(gh["env"]["SHARDS"])
cold = jobs["prove-cold-shard"]
assert cold["strategy"]["matrix"]["shard"] == list(range(1, n + 1)), cold["strategy"]
assert "make prove-cold SHARD=${{ matrix.shard }}/${{ env.SHARDS }}" in \
    " ".join(s.get("run", "") for s in cold["steps"])
merge = jobs["prove-cold"]
assert set(merge["needs"]) == {"prove-cold-shard", "prove-merge"}, merge["needs"]
assert "make prove-cold-merge" in " ".join(s.get("run", "") for s in merge["steps"])
assert not any(j.get("continue-on-error") for j in jobs.values()), "a job may fail unnoticed"
verify = jobs["verify"]
assert set(verify["needs"]) == {"prove-merge", "prove-cold", "model-merge"}, verify["needs"]
assert verify["if"] == "always()" and "success success success" in verify["steps"][0]["run"]
cold = gl["prove-cold-shard"]
assert isinstance(cold["parallel"], int) and cold["parallel"] > 1
assert "make prove-cold SHARD=${CI_NODE_INDEX}/${CI_NODE_TOTAL}" in cold["script"]
assert set(gl["prove-cold"]["needs"]) == {"prove-cold-shard", "prove-merge"}
assert "make prove-cold-merge" in gl["prove-cold"]["script"]
assert not any(isinstance(j, dict) and j.get("allow_failure") not in (None, False)
               for j in gl.values()), "a job may fail unnoticed"

# .ci/run: the cold proof, then make check (whose runner prints the last line and reads the cold
# verdict as a case), both deciding the exit status
cmds = [x.split("#")[0].strip() for x in open(".ci/run") if not x.lstrip().startswith(("#", "echo"))]
cold_cmd = "make prove-cold JOBS=3 > >(tee build/ci/prove-cold.log) 2>&1 || cold=$?"
check_cmd = "IRQSYNC_CI_COLD_STATUS=build/ci/prove-cold.status make check || status=$?"
assert check_cmd in cmds and cold_cmd in cmds, cmds
assert cmds.index(cold_cmd) < cmds.index(check_cmd)
assert cmds[-2:] == ["((status != 0)) || status=$cold", 'exit "$status"'], cmds[-2:]
assert not any("PROVE_" in c for c in cmds), ".ci/run must not override the cold settings"

# the make targets the templates name exist (dry run), and the cold ones are cold
for cmd in (["make", "-n", "prove", "SHARD=1/4"], ["make", "-n", "prove-merge"],
            ["make", "-n", "model", "SHARD=1/4"], ["make", "-n", "model-merge"],
            ["make", "-n", "prove-cold", "SHARD=1/4"], ["make", "-n", "prove-cold-merge"],
            ["make", "-n", "prove-cold"]):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or "No rule" in r.stderr:
        sys.exit(f"{' '.join(cmd)}: {r.stderr.strip()}")
    if "prove-cold" in cmd[2]:
        line = [x for x in r.stdout.splitlines() if "proofs/units.py" in x][-1]
        opts = line.split(" -- ")[0].split()
        last = {o: opts[len(opts) - 1 - opts[::-1].index(o) + 1] for o in ("--reuse", "--cache")}
        assert last == {"--reuse": "none", "--cache": "none"}, (cmd, last)
        assert "--compare-store" in opts, cmd
print("github-actions.yml and gitlab-ci.yml: prove and model shards 1..N, merged; the cold "
      "proof sharded, merged and required; .ci/run runs it before make check, which reports it")

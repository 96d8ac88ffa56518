#!/usr/bin/env python3
"""The CI templates under ci-templates/ are valid YAML, run every shard 1..N of the proofs and
the model, and merge them in a job that depends on all shards."""
import re, subprocess, sys, yaml

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

# the make targets the templates name exist (dry run)
for cmd in (["make", "-n", "prove", "SHARD=1/4"], ["make", "-n", "prove-merge"],
            ["make", "-n", "model", "SHARD=1/4"], ["make", "-n", "model-merge"]):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or "No rule" in r.stderr:
        sys.exit(f"{' '.join(cmd)}: {r.stderr.strip()}")
print("github-actions.yml and gitlab-ci.yml: prove and model shards 1..N, merged")

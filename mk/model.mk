# mk/model.mk -- the SPIN model (promela/): `make model`, `make model-quick`, `make model-scale`.
#   make model                              the full matrix -> build/evidence/model.json
#   make model CPUS=4 LINES=2 MM=weak VARIANT=v2 [ARRIVALS=2 SHARERS=2]
#                                           one configuration -> build/evidence/model-run.json
#   make model-quick                        the matrix of `make check` (2 CPUs)
#   make model [SET=quick|full|litmus] SHARD=i/N
#                                           shard i of N of that matrix (balanced by expected cost)
#                                           -> build/model/shards/<set>-i-of-N.json
#   make model-merge [SET=…] [SHARDS="files"] merge the shards -> build/evidence/model.json, with
#                                           the verdict rules of the unsharded run; fails on a
#                                           missing / duplicated shard or row, or shards made
#                                           from other sources, settings or matrix
#   make model-scale / make bench-model     the scale benchmark -> build/evidence/model-scale.json
#                                           (frontier runs: nice -n 15, pan -DMEMLIM=14000)
#   make model-swarm [SHARD=i/N] [SWARM_JOBS=3] [SWARM_MINUTES=3]
#                                           bitstate swarm, 6-8 CPUs: coverage, never "hold"
#                                           -> build/evidence/model-swarm.json (or a shard file
#                                           under build/model/swarm-shards/)
#   make model-swarm-merge [SHARDS="files"] the swarm shards -> build/evidence/model-swarm.json
# Trails of violations: build/evidence/trails/<run>.{trail,replay.sh,txt}.
# The small models, one command each (also rows of both matrices):
#   python3 -m tools.model.run1 --model promela/ticket.pml MM_WEAK [TAS_LOCK=1]   REQ-LOCK-2
#   python3 -m tools.model.run1 --model promela/request.pml MM_TSO [REQ_BUG=1|2]  REQ-LIFECYCLE-2
MODEL_ARGS = --jobs $(JOBS) $(if $(CPUS),--cpus $(CPUS)) $(if $(LINES),--lines $(LINES)) \
	$(if $(ARRIVALS),--arrivals $(ARRIVALS)) $(if $(SHARERS),--sharers $(SHARERS)) \
	$(if $(MM),--mm $(MM)) $(if $(VARIANT),--variant $(VARIANT)) \
	$(if $(SET),--set $(SET)) $(if $(SHARD),--shard $(SHARD))

ALL_TARGETS += model
.PHONY: model model-quick model-litmus model-scale bench-model model-merge model-swarm \
	model-swarm-merge
model: ## the SPIN matrix (or one configuration with CPUS= LINES= ARRIVALS= SHARERS= MM= VARIANT=)
	@$(PYTHON) -m tools.model.matrix $(MODEL_ARGS) --build $(BUILD)
model-quick:
	@$(PYTHON) -m tools.model.matrix --set quick --jobs $(JOBS) --build $(BUILD) $(if $(SHARD),--shard $(SHARD))
# the merged model.json counts as produced from this tree's sources (the merge checks the shards
# were made from them): it takes the model producer's begin-stamp, like `make model` (it is one
# of the model's writers in tools/stamp.py's producer table; mk/report.mk adds the stamp)
model-merge:
	@$(PYTHON) -m tools.model.merge --build $(BUILD) $(if $(SET),--set $(SET)) \
	  $(if $(SHARDS),--shards $(SHARDS))
# swarm-style bitstate runs for 6-8 CPUs (coverage, never "hold"; tools/model/swarm.py)
model-swarm:
	@$(PYTHON) -m tools.model.swarm --build $(BUILD) $(if $(SHARD),--shard $(SHARD)) \
	  $(if $(SWARM_JOBS),--jobs-per-config $(SWARM_JOBS)) $(if $(SWARM_MINUTES),--minutes $(SWARM_MINUTES))
model-swarm-merge:
	@$(PYTHON) -m tools.model.swarm --merge --build $(BUILD) $(if $(SHARDS),--shards $(SHARDS))
model-litmus:
	@$(PYTHON) -m tools.model.matrix --set litmus --jobs $(JOBS) --build $(BUILD)
model-scale bench-model:
	@$(PYTHON) -m tools.model.scale --build $(BUILD)

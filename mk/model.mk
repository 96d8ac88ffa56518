# mk/model.mk -- the SPIN model (promela/): `make model`, `make model-quick`, `make model-scale`.
#   make model                              the full matrix -> build/evidence/model.json
#   make model CPUS=4 LINES=2 MM=weak VARIANT=v2 [ARRIVALS=2 SHARERS=2]
#                                           one configuration -> build/evidence/model-run.json
#   make model-quick                        the matrix of `make check` (2 CPUs)
#   make model-scale / make bench-model     the scale benchmark -> build/evidence/model-scale.json
# Trails of violations: build/evidence/trails/<run>.{trail,replay.sh,txt}.
# The small models, one command each (also rows of both matrices):
#   python3 tools/model/run1.py --model promela/ticket.pml MM_WEAK [TAS_LOCK=1]   REQ-LOCK-2
#   python3 tools/model/run1.py --model promela/request.pml MM_TSO [REQ_BUG=1|2]  REQ-LIFECYCLE-2
MODEL_ARGS = --jobs $(JOBS) $(if $(CPUS),--cpus $(CPUS)) $(if $(LINES),--lines $(LINES)) \
	$(if $(ARRIVALS),--arrivals $(ARRIVALS)) $(if $(SHARERS),--sharers $(SHARERS)) \
	$(if $(MM),--mm $(MM)) $(if $(VARIANT),--variant $(VARIANT))

ALL_TARGETS += model
.PHONY: model model-quick model-litmus model-scale bench-model
model: ## the SPIN matrix (or one configuration with CPUS= LINES= ARRIVALS= SHARERS= MM= VARIANT=)
	@$(PYTHON) tools/model/matrix.py $(MODEL_ARGS) --build $(BUILD)
model-quick:
	@$(PYTHON) tools/model/matrix.py --set quick --jobs $(JOBS) --build $(BUILD)
model-litmus:
	@$(PYTHON) tools/model/matrix.py --set litmus --jobs $(JOBS) --build $(BUILD)
model-scale bench-model:
	@$(PYTHON) tools/model/scale.py --build $(BUILD)

# make check: everything that can fail. SUITES="a b" runs the suites whose names contain a or b.
# BUILD goes to the runner (and through it to every group) whether it was set on the command
# line, in the environment or by mk/config.mk: make exports only the first two by itself.
.PHONY: check
check: ## every test: the runner's groups (SUITES="a b": the groups whose names contain a or b)
	@BUILD='$(BUILD)' $(PYTHON) -m tools.runtests

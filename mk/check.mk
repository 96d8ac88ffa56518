# make check: everything that can fail. SUITES="a b" runs the suites whose names contain a or b.
.PHONY: check
check: ## every test: the runner's groups (SUITES="a b": the groups whose names contain a or b)
	@$(PYTHON) -m tools.runtests

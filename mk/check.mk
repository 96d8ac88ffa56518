# make check: everything that can fail. SUITES="a b" runs the suites whose names contain a or b.
.PHONY: check
check:
	@$(PYTHON) -m tools.runtests

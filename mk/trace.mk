# make trace: requirement -> evidence table, from the REQ IDs written next to the evidence.
.PHONY: trace trace-check
trace: trace-check
	@$(PYTHON) tools/trace.py json $(EVIDENCE)/trace.json
trace-check:
	@$(PYTHON) tools/trace.py check

# make trace: requirement -> evidence table, from the REQ IDs written next to the evidence.
.PHONY: trace trace-check
trace: trace-check
	@$(PYTHON) -m tools.trace json $(EVIDENCE)/trace.json --md $(EVIDENCE)/traceability.md
trace-check:
	@$(PYTHON) -m tools.trace check

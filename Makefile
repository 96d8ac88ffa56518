# irqsync — the user interface. `make` produces the evidence, `make check` runs every test.
# Each capability lives in its own fragment under mk/ (README.md; the evidence formats: spec/evidence-schema.md).
.DEFAULT_GOAL := all
SHELL := /bin/bash

include mk/config.mk
# The library template first: other fragments (cross, bare metal, sanitizers) call it at parse time.
include mk/lib.mk
include $(filter-out mk/config.mk mk/lib.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: all
all: deps $(EVIDENCE_ALL)
	@$(PYTHON) -m tools.summary $(EVIDENCE)

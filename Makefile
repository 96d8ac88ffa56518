# irqsync — the user interface. `make` produces the evidence, `make check` runs every test.
# Each capability lives in its own fragment under mk/ (see DESIGN in spec/ and README.md).
.DEFAULT_GOAL := all
SHELL := /bin/bash

include mk/config.mk
include $(filter-out mk/config.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: all
all: deps $(EVIDENCE_ALL)
	@$(PYTHON) tools/summary.py $(EVIDENCE)

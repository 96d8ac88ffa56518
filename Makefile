# irqsync — the user interface. `make` produces the evidence, `make check` runs every test.
# Each capability lives in its own fragment under mk/ (README.md; the evidence formats: spec/evidence-schema.md).
.DEFAULT_GOAL := all
SHELL := /bin/bash

include mk/config.mk
# The library template first: other fragments (cross, bare metal, sanitizers) call it at parse time.
include mk/lib.mk
include $(filter-out mk/config.mk mk/lib.mk,$(sort $(wildcard mk/*.mk)))

.PHONY: all help
all: deps $(EVIDENCE_ALL) ## the evidence: every proof, model check, test and build -> build/evidence, report, summary
	@$(PYTHON) -m tools.summary $(EVIDENCE)

# make help: the targets that carry a `## what it does` comment, read from the makefiles
# themselves (no second list to keep).  A pattern target prints as its pattern.
help: ## this list
	@grep -hE '^([^ #:=]+|\$$\(addprefix [^)]+\)\)):[^=]*## ' Makefile mk/*.mk | \
	  sed -E 's/^\$$\(addprefix ([^,]+),\$$\(([A-Z_]+)\)\): [^ ]*: /\1<\2>: /' | \
	  awk -F':[^#]*## ' '!seen[$$1]++ {printf "  %-24s %s\n", $$1, $$2}'

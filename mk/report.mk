# mk/report.mk — the evidence report and the composition of the default `make` (spec/report.md).
#
#   make report            build/evidence/{index.html,evidence.json,junit.xml} from the results
#                          already there; only results stamped as produced from the current
#                          sources count (tools/stamp.py); takes seconds
#   make evidence-<name>   run one producer and stamp its result: model, proofs, tests, cross,
#                          trace, and the optional bench, conformance, mutants, scale (`make evidence-tests` runs the quick test groups,
#                          `make evidence-check` all of them)
#   make freshness         the freshness of every result, one line each (exit 1 if any is not fresh)
#   make                   deps, the other ALL_TARGETS (the library, …), model, proofs, quick
#                          tests, cross, trace, report, then a one-screen summary
#
# A producer run directly (`make model`, `make check`, …) is stamped too: a begin-stamp taken
# before its recipe runs (added below as a prerequisite of the producer's own target) records
# the sources it starts from; the report accepts the result it writes after that.

REPORT_PY  := $(PYTHON) -m tools.report.report
STAMP      := BUILD=$(BUILD) $(PYTHON) -m tools.stamp
# Test groups the default `make` runs: all but those repeating model / prove / cross, which
# `make` has just run as producers. `make check` runs everything; the report shows whichever ran last.
QUICK_SUITES ?= $(filter-out %-model %-proof %-proofs %-cross,$(basename $(notdir $(wildcard tests/suites/*.sh))))

# The producers and their make targets: the one table is tools/stamp.py's PRODUCERS (with their
# outputs and sources), read once per make run. A word per producer:
#   name:target:required|optional:writer,writer,...   (writers: every target that writes the
#   result when run directly, each given the producer's begin-stamp below)
# The table is written to $(STAMP_MK) by a rule, not by $(shell) at parse time: make remakes an
# included makefile that is out of date with tools/stamp.py (and then rereads everything), so
# Python runs once after a change of the table, not on every make run.
STAMP_MK := $(BUILD)/mk/stamp-table.mk
$(STAMP_MK): tools/stamp.py
	@$(call write_mk_var,STAMP_TABLE,$(PYTHON) -m tools.stamp make-table)
-include $(STAMP_MK)
stamp_comma := ,
stamp_field = $(word $(2),$(subst :, ,$(filter $(1):%,$(STAMP_TABLE))))
stamp_names = $(strip $(foreach w,$(STAMP_TABLE),$(if $(filter $(1),$(word 3,$(subst :, ,$(w)))),$(firstword $(subst :, ,$(w))))))
producer_target = $(call stamp_field,$(1),2)
begin_targets = $(subst $(stamp_comma), ,$(call stamp_field,$(1),4))
EVIDENCE_PRODUCERS := $(call stamp_names,required)
OPTIONAL_PRODUCERS := $(call stamp_names,optional)

.PHONY: report freshness evidence-check $(addprefix evidence-,$(EVIDENCE_PRODUCERS) $(OPTIONAL_PRODUCERS))
report: ## the evidence report from fresh results (seconds)
	@BUILD=$(BUILD) $(REPORT_PY) --build $(BUILD)

freshness:
	@$(STAMP) check

evidence-tests:
	@$(STAMP) run tests -- $(MAKE) --no-print-directory check SUITES="$(QUICK_SUITES)"
evidence-check:
	@$(STAMP) run tests -- $(MAKE) --no-print-directory check SUITES=
define _evidence_rule
evidence-$(1):
	@$$(STAMP) run $(1) -- $$(MAKE) --no-print-directory $(call producer_target,$(1))
endef
$(foreach p,$(filter-out tests,$(EVIDENCE_PRODUCERS)) $(OPTIONAL_PRODUCERS),$(eval $(call _evidence_rule,$(p))))

# Begin-stamps for direct runs: only for targets some fragment defines (adding a prerequisite
# to an undefined target would define it, and `make model` would then silently do nothing).
_mk_defines = $(shell grep -lsE '^([^:=\#]+[[:space:]])?$(1)([[:space:]][^:=\#]*)?:([^=]|$$)' Makefile mk/*.mk)
define _begin_stamp
ifneq ($$(call _mk_defines,$(2)),)
$(2): _evidence-begin-$(1)
endif
endef
$(foreach p,$(EVIDENCE_PRODUCERS) $(OPTIONAL_PRODUCERS),$(foreach t,$(call begin_targets,$(p)),$(eval $(call _begin_stamp,$(p),$(t)))))
define _begin_rule
.PHONY: _evidence-begin-$(1)
_evidence-begin-$(1):
	-@$$(STAMP) begin $(1)
endef
$(foreach p,$(EVIDENCE_PRODUCERS) $(OPTIONAL_PRODUCERS),$(eval $(call _begin_rule,$(p))))

# The default `make` (the top Makefile's `all:` rule): keep going past a failing producer so
# that the report shows the failure; the summary's exit status then reports it.
EVIDENCE_ALL = $(filter-out model prove test check cross trace report $(foreach p,$(OPTIONAL_PRODUCERS),$(call producer_target,$(p))),$(ALL_TARGETS)) \
               evidence-model evidence-proofs evidence-tests evidence-cross \
               $(foreach p,$(OPTIONAL_PRODUCERS),$(if $(filter $(call producer_target,$(p)),$(ALL_TARGETS)),evidence-$(p))) \
               evidence-trace report
all: export EVIDENCE_KEEP_GOING := 1

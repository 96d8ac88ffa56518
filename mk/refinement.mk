# mk/refinement.mk — the refinement map between the model and the C core (spec/refinement.yml,
# spec/refinement.md; REQ-IMPL-3, REQ-MM-4).
#
#   make refinement        hold the C (clang's JSON AST of src/core, twins/variants/sync-v0/v1.c)
#                          and the model (promela/irqsync.pml, ticket.pml, request.pml) to the map;
#                          prints one FAIL line per difference, exits non-zero on any
#   make refinement-mutants  the same check on each known-bad copy (build/refine/mutants/), each
#                          of which must fail (tests/suites/82-refinement.sh asserts the message)
.PHONY: refinement refinement-mutants
refinement: ## the refinement map: C and model against spec/refinement.yml
	@$(PYTHON) -m tools.refine.check

refinement-mutants:
	@for m in $$($(PYTHON) -m tools.refine.mutants --list | awk '$$1 != "null" {print $$1}'); do \
	  if $(PYTHON) -m tools.refine.mutants $$m >/dev/null; then echo "refinement mutant $$m: not caught"; exit 1; \
	  else echo "refinement mutant $$m: caught"; fi; done

# mk/mutants.mk — model ↔ code conformance (tests/conformance/) and the mutation campaign (tests/mutants/).
# (One fragment: it must be included after mk/lib.mk, whose template it uses.)
#
# Conformance (REQ-IMPL-3):
#
#   make conformance            generate schedules from SPIN (random simulations + counterexample
#                               trails, TSO and WEAK), replay them on the C core, v2 also on every
#                               v0/v1 counterexample as a mapped schedule (and v0 on those as the
#                               control) → build/evidence/conformance.json
#                               (part of the default `make`: run there as the stamped producer
#                               `make evidence-conformance`, after the model's trails exist;
#                               tests/suites/80-conformance.sh writes build/conformance/ instead)
#   make conformance-bins       only the replay harnesses (one per synchronize_irq variant)
#   CONF_SEEDS=n                random simulations per configuration (default 20, SYNC-2 runs n/2:
#                               ~1,800 schedules)
#
# The harness links a library built with the step hooks (-DIRQSYNC_STEP_HOOKS, test-only) and the
# variant under test; the shipped library (build/lib) has no hook (checked by 80-conformance.sh).
CONF_DIR    := $(BUILD)/conformance
CONF_SEEDS  ?= 20
CONF_CFLAGS  = $(ALL_CFLAGS) -DIRQSYNC_TESTING -DIRQSYNC_STEP_HOOKS

# v0 and v1 from twins/variants/ (in place of src/core/sync.c), v2 the shipped sources.
$(eval $(call IRQSYNC_LIB_RULES,$(CONF_DIR)/lib-v0,$(CC),$(CONF_CFLAGS),hosted,,$(SYNC_V0)))
$(eval $(call IRQSYNC_LIB_RULES,$(CONF_DIR)/lib-v1,$(CC),$(CONF_CFLAGS),hosted,,$(SYNC_V1)))
$(eval $(call IRQSYNC_LIB_RULES,$(CONF_DIR)/lib-v2,$(CC),$(CONF_CFLAGS),hosted))

$(CONF_DIR)/replay-v%: tests/conformance/replay.c $(CONF_DIR)/lib-v%/libirqsync.a $(IRQSYNC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CONF_CFLAGS) -DIRQSYNC_TEST_VARIANT=$* $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) -Isrc/core \
	  $< $(CONF_DIR)/lib-v$*/libirqsync.a $(IRQSYNC_HOST_LIBS) -o $@

# The ticket lock through the hooks (a gap of the replay: it never contends a lock).
$(CONF_DIR)/lockcheck: tests/conformance/lockcheck.c $(CONF_DIR)/lib-v2/libirqsync.a $(IRQSYNC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CONF_CFLAGS) $(IRQSYNC_CPPFLAGS) -Isrc/core $< $(CONF_DIR)/lib-v2/libirqsync.a \
	  $(IRQSYNC_HOST_LIBS) -o $@

# The threaded protocol's harness (tests/conformance/replay_threaded.c) is its own port: it links
# the shipped core's objects of lib-v2 (hooks on), not the hosted port.
CONF_CORE_OBJS = $(filter $(CONF_DIR)/lib-v2/obj/core/%,$(call irqsync_lib_objs,$(CONF_DIR)/lib-v2,hosted))
$(CONF_DIR)/replay-threaded: tests/conformance/replay_threaded.c $(CONF_DIR)/lib-v2/libirqsync.a $(IRQSYNC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CONF_CFLAGS) $(IRQSYNC_CPPFLAGS) -Isrc/core -Isrc/port $< $(CONF_CORE_OBJS) \
	  $(IRQSYNC_HOST_LIBS) -o $@

CONF_BINS := $(CONF_DIR)/replay-v0 $(CONF_DIR)/replay-v1 $(CONF_DIR)/replay-v2 $(CONF_DIR)/lockcheck \
             $(CONF_DIR)/replay-threaded

# The default `make` shows model ↔ code conformance as fresh evidence (mk/report.mk turns an
# optional producer's target in ALL_TARGETS into its stamped `evidence-conformance` run).
ALL_TARGETS += conformance

.PHONY: conformance conformance-bins
conformance-bins: $(CONF_BINS)

conformance: $(CONF_BINS) ## replay SPIN schedules on the C core → build/evidence/conformance.json
	@mkdir -p $(EVIDENCE)
	$(PYTHON) tests/conformance/run.py --seeds $(CONF_SEEDS) --out $(EVIDENCE)/conformance.json

# Mutation campaign (twins/catalog.yml, tools/mutants/campaign.py):
#   make mutants                every mutant × every applicable technique, each on a copy of the
#                               tree under build/mutants/ → build/evidence/mutants.json (list of
#                               {id, target, description, killed_by, results}) and
#                               build/evidence/mutants-matrix.json (kill matrix, rate, time)
#   make mutants MUTANTS=a,b    only those
# WP runs on every C mutant: first on an unmutated control copy, whose unit results and prover
# cache seed each mutant's copy (only the units the mutation changed are proved again), one WP
# run at a time with JOBS units at once; a WP failure that is not the gate's verdict on a named
# goal (a tool crash, no result, MUTANTS_WP_TIMEOUT) is an error, not a kill (spec/conformance.md).
MUTANTS ?=
.PHONY: mutants
mutants: conformance-bins ## the mutation campaign → build/evidence/mutants.json
	@mkdir -p $(EVIDENCE)
	$(PYTHON) -m tools.mutants.campaign --jobs $(JOBS) $(if $(MUTANTS),--ids $(MUTANTS)) \
	  --out $(EVIDENCE)/mutants.json

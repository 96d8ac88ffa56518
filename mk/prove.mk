# mk/prove.mk — Frama-C WP proofs (acsl/, proofs/; spec/proof.md says what is proved and assumed).
#
#   make prove          the gate: every goal of the core proved → build/evidence/proofs.json
#   make prove-ledger   the same, then rewrite the committed ledger proofs/ledger.md
#   make prove-trial    the gate's own trial file (proofs/trial/trial.c)
#   make prove-neg-<n>  one expected proof failure (tests/suites/50-proof.sh asserts the goal)
#   make prove-cold     CI's evidence: every unit proved again, no prover cache, compared with
#                       the store and the reused run (SHARD=i/N, then prove-cold-merge)
#   make prove-status   which stored units are current, behind (and why) or edited by hand
#   make prove-contracts  the contracts as WP sees them, for readers -> build/evidence/contracts.c
#
# WP exits 0 with unproved goals: proofs/gate.py is the gate (exit 1 on any unproved goal, failed
# smoke test, unlisted assumption or unsound default). The Why3 configuration is rebuilt on every
# run into $(PROVE_DIR)/why3.conf (z3, cvc4, and cvc5 through proofs/why3/cvc5.drv).
# Prover results are cached in $(PROVE_DIR)/cache (PROVE_CACHE=update); PROVE_CACHE=none reruns
# every prover, PROVE_CACHE=offline replays the cache only (a goal not in it stays unproved).
PROVE_DIR      := $(BUILD)/proofs
PROVE_WHY3CONF := $(PROVE_DIR)/why3.conf
PROVE_CACHE    ?= update
PROVE_STEPS    ?= 0
PROVE_TIMEOUT  ?= 40
# A smoke test passes when no prover proves `false' at the point within this budget.  1 s: a
# contradiction planted on purpose is found well inside it (make prove-neg-lock-irq still
# fails its goal and its 5 smoke tests), and z3 spends the whole budget on every smoke test
# (611 of them: 3 s each was a sixth of a cold proof's time).
PROVE_SMOKE_TIMEOUT ?= 1
# The required provers, in the order each goal tries them.  cvc4 first: it proves most goals
# in a fraction of a second and answers `unknown' at once on most smoke tests, where z3 runs
# to the smoke timeout; z3 then gets every goal cvc4 left.  Both must fail for a smoke test to
# pass, as before: the order changes the cost, not what is proved (spec/proof.md).
PROVE_PROVERS  ?= cvc4,z3
# One prover process per goal at a time (-wp-par 1): WP then tries the provers in the order
# above, the next only when the one before failed.  With 2 they race on every goal and the
# loser's time is spent for nothing (a cold irqsync_unlocked_pass: 218 CPU-s raced, 122 in
# order); the parallelism is the units' (JOBS).  WP's own work between two goals leaves about a
# quarter of a core idle per unit: .ci/run proves three units at a time on its two cores.
PROVE_PAR      ?= 1
# cvc5 is configured when installed, but each smoke test costs every prover its full budget:
# it is opt-in (PROVE_OPTIONAL=cvc5); z3 and cvc4 are required.
PROVE_OPTIONAL ?=
PROVE_GATE      = $(PYTHON) proofs/gate.py run --why3conf $(PROVE_WHY3CONF) --cache $(PROVE_CACHE) \
                  --cache-dir $(PROVE_DIR)/cache --steps $(PROVE_STEPS) --timeout $(PROVE_TIMEOUT) --smoke-timeout $(PROVE_SMOKE_TIMEOUT) \
                  --par $(PROVE_PAR) --provers $(PROVE_PROVERS) --optional-provers "$(PROVE_OPTIONAL)"

.PHONY: prove-config
prove-config: ## project-local Why3 configuration (rebuilt every run)
	@$(PYTHON) proofs/gate.py config --out $(PROVE_WHY3CONF)

# --- the trial file: the gate end to end on code of its own --------------------------------
PROVE_TRIAL := proofs/trial/trial.c
.PHONY: prove-trial prove-neg-trial-v0
prove-trial: prove-config
	@$(PROVE_GATE) --job trial --outdir $(PROVE_DIR)/trial --trusted proofs/trial/trusted.txt \
	  --check-trusted-used -- $(PROVE_TRIAL)
prove-neg-trial-v0: prove-config
	@$(PROVE_GATE) --job trial-v0 --outdir $(PROVE_DIR)/trial-v0 --trusted proofs/trial/trusted.txt \
	  --fct synchronize --expect-unproved 'synchronize:.*REQ_SYNC_1' \
	  -- -cpp-extra-args=-DTRIAL_V0 $(PROVE_TRIAL)

# --- the core ---------------------------------------------------------------------------------
.PHONY: prove prove-ledger

PROVE_CORE      := proofs/core.c
PROVE_CORE_CPP  := -Isrc/include -Isrc/core
PROVE_SKIP      := irqsync_call_handler,irqsync_call_warn_hook,irqsync_call_thread_fn
# Initialisation checks (-rte-initialized) on every function of the core (spec/proof.md).
PROVE_CORE_OPTS := --trusted proofs/trusted-base.txt --skip-fct $(PROVE_SKIP) --initialized @all
PROVE_INPUTS     = $(wildcard acsl/*.h acsl/logic/*.h) $(IRQSYNC_CORE_SRCS) $(wildcard src/core/*.h src/include/irqsync/*.h src/port/port.h)

# The proof of the core is split into units, one per function (proofs/units.py, spec/proof.md
# "Proof units"): a unit whose key (everything its goals depend on) matches a stored passing
# result in proofs/units/ is reused, the others run JOBS at a time, and the gate applies to the
# union.  PROVE_REUSE=none reruns every unit (cold); SHARD=i/N runs shard i of N and writes a
# partial result, merged by prove-merge.  The committed prover cache seeds a fresh clone too.
PROVE_REUSE    ?= store
# PROVE_RERUN=f,g proves those units again whatever the store holds.
PROVE_RERUN    ?=
# Each unit's prover processes: PROVE_PAR's, for the same reason (in order, no race).
PROVE_UNIT_PAR ?= $(PROVE_PAR)
# Stored units behind for another reason than their own text (the gate's code, an option, a tool
# version, KEY_VERSION: then every unit is) are proved again by make prove; inside make check
# (tools/runtests.py sets SUITE) make prove fails at once instead, naming the reason, since
# proving all 46 units is make prove + make prove-store's job, not the proof group's.
PROVE_STALE_CONTEXT ?= $(if $(SUITE),fail,prove)
PROVE_UNITS     = $(PYTHON) proofs/units.py --why3conf $(PROVE_WHY3CONF) --cache $(PROVE_CACHE) \
                  --cache-dir $(PROVE_DIR)/cache --steps $(PROVE_STEPS) --timeout $(PROVE_TIMEOUT) \
                  --smoke-timeout $(PROVE_SMOKE_TIMEOUT) --provers $(PROVE_PROVERS) --optional-provers "$(PROVE_OPTIONAL)" \
                  --jobs $(JOBS) --unit-par $(PROVE_UNIT_PAR) --reuse $(PROVE_REUSE) --rerun "$(PROVE_RERUN)" \
                  --stale-context $(PROVE_STALE_CONTEXT) \
                  --outdir $(PROVE_DIR)/units --shard-dir $(PROVE_DIR)/shards \
                  --trusted proofs/trusted-base.txt --skip-fct $(PROVE_SKIP) --initialized @all \
                  --evidence $(EVIDENCE)/proofs.json --ledger $(PROVE_DIR)/ledger.md
PROVE_FC_ARGS   = -- -cpp-extra-args="$(PROVE_CORE_CPP)" $(PROVE_CORE)

# The contracts as WP sees them, for readers: Frama-C's print of the proved program
# (proofs/core.c with the proof's -cpp-extra-args), every ACSL macro expanded (ACSL_INIT, the
# location lists), each contract above its function, loop annotations in the bodies.  It is
# the print whose per-function slices key the proof units (proofs/units.py), so it is what
# the goals are made from.  No prover runs (about a second).  make prove writes it (not
# make report): the contracts belong with the proof run's evidence (proofs.json) and are
# then written from the same sources, and make prove runs without the report's tools.
PROVE_CONTRACTS := $(EVIDENCE)/contracts.c
.PHONY: prove-contracts
prove-contracts: ## the contracts as WP sees them, macros expanded -> build/evidence/contracts.c
	@mkdir -p $(EVIDENCE) $(PROVE_DIR)
	@frama-c -cpp-extra-args="$(PROVE_CORE_CPP)" $(PROVE_CORE) -print -ocode $(PROVE_DIR)/contracts.c \
	  > $(PROVE_DIR)/contracts.log 2>&1 || { tail -n 20 $(PROVE_DIR)/contracts.log; \
	  echo "prove-contracts: frama-c failed (log: $(PROVE_DIR)/contracts.log)"; exit 2; }
	@{ printf '%s\n' \
	  '/* $(PROVE_CONTRACTS) - written by make prove-contracts (make prove runs it): the proved' \
	  ' * program as Frama-C WP reads it, $(PROVE_CORE) preprocessed with' \
	  ' * -cpp-extra-args="$(PROVE_CORE_CPP)", every macro of acsl/ expanded, every contract' \
	  ' * above its function.  Frama-C'"'"'s print (-print -ocode): for reading, never compiled.' \
	  ' * The contracts of the port and the atomics are assumed (proofs/trusted-base.txt).  */'; \
	  cat $(PROVE_DIR)/contracts.c; } > $(PROVE_CONTRACTS).tmp && mv $(PROVE_CONTRACTS).tmp $(PROVE_CONTRACTS)
	@echo "prove-contracts: $(PROVE_CONTRACTS) ($$(grep -c '^/\*@ *\(requires\|assigns\|ensures\|behavior\|terminates\)' $(PROVE_CONTRACTS)) function contracts)"

# Where the last run's time went (proofs/cost.py): per prover, the smoke tests, WP's own work.
.PHONY: prove-cost
prove-cost: ## where the last make prove's (or PROVE_COST_DIR's) time went, per prover
	@$(PYTHON) proofs/cost.py $(or $(PROVE_COST_DIR),$(PROVE_DIR)/units)

.PHONY: prove-merge prove-store prove-status
prove: prove-config prove-contracts | prove-cache-seed ## the WP gate on the core, unit by unit -> build/evidence/proofs.json
	@mkdir -p $(EVIDENCE)
ifeq ($(SHARD),)
	@$(PROVE_UNITS) prove $(PROVE_FC_ARGS)
	@cmp -s $(PROVE_DIR)/ledger.md proofs/ledger.md || \
	  echo "prove: proofs/ledger.md differs from this run (make prove-store, then commit it)"
else
	@$(PROVE_UNITS) prove --shard $(SHARD) $(PROVE_FC_ARGS)
endif
ALL_TARGETS += prove

prove-merge: prove-config ## merge the shards' partial results (build/proofs/shards/) and apply the gate
	@mkdir -p $(EVIDENCE)
	@$(PROVE_UNITS) merge $(if $(PARTIALS),--partials $(PARTIALS)) $(PROVE_FC_ARGS)

prove-status: prove-config ## each unit's key now: stored result current, behind (why) or edited by hand
	@$(PROVE_UNITS) status $(PROVE_FC_ARGS)

prove-store: ## store the units proved by the last passing make prove in proofs/units/, rewrite the ledger
	@$(PROVE_UNITS) store
	@cp $(PROVE_DIR)/ledger.md proofs/ledger.md && echo "proofs/ledger.md updated"
prove-ledger: prove ## prove, then store the units proved now and the ledger
	@$(MAKE) -s prove-store

# --- expected failures: each must leave exactly the named goals unproved -----------------------
# make prove-expected runs them all, JOBS at a time, each into $(PROVE_DIR)/expected/<job>.out
# and .rc (the gate's output and exit status, which 50-proof then checks one by one).
# The proof mutants of the core (twins/catalog.yml, kind proof-mutant: the edit, the function
# proved, the goals that must be the unproved ones; proofs/negative/mutate.py builds and proves one).
# The list is written to a makefile by a rule (remade when the catalog changes), not by $(shell)
# on every make run.
PROVE_MUTANTS_MK := $(BUILD)/mk/prove-mutants.mk
$(PROVE_MUTANTS_MK): proofs/negative/mutate.py twins/catalog.yml tools/twins.py
	@$(call write_mk_var,PROVE_NEG_MUTANTS,$(PYTHON) proofs/negative/mutate.py list)
-include $(PROVE_MUTANTS_MK)
PROVE_EXPECTED := prove-neg-sync-v0 prove-neg-sync-v0-offline prove-neg-lock-irq prove-neg-statement-contract \
                  $(addprefix prove-neg-,$(PROVE_NEG_MUTANTS)) prove-trial prove-neg-trial-v0
.PHONY: prove-expected $(PROVE_EXPECTED) $(addprefix prove-expected-,$(PROVE_EXPECTED))
prove-expected: prove-config | prove-cache-seed ## every expected proof failure (and the trial), in parallel
	@rm -rf $(PROVE_DIR)/expected && mkdir -p $(PROVE_DIR)/expected
	@$(MAKE) -s -k -j$(JOBS) $(addprefix prove-expected-,$(PROVE_EXPECTED))
	@echo "prove-expected: $(words $(PROVE_EXPECTED)) jobs -> $(PROVE_DIR)/expected/"
$(addprefix prove-expected-,$(PROVE_EXPECTED)): prove-expected-%:
	@$(MAKE) -s $* > $(PROVE_DIR)/expected/$*.out 2>&1; echo $$? > $(PROVE_DIR)/expected/$*.rc

PROVE_NEG_V0 = --fct irqsync_wait_for_handler \
	  --expect-unproved '^irqsync_wait_for_handler:irqsync_wait_for_handler_ensures_REQ_SYNC_1_REQ_SYNC_3_locked_recheck$$' \
	  -- -cpp-extra-args="$(PROVE_CORE_CPP) -DIRQSYNC_TESTING -DPROVE_SYNC_V0" $(PROVE_CORE)
prove-neg-sync-v0: prove-config ## v0 synchronize_irq (no locked re-check) fails REQ_SYNC_1
	@$(PROVE_GATE) --job neg-sync-v0 --outdir $(PROVE_DIR)/neg-sync-v0 $(PROVE_CORE_OPTS) $(PROVE_NEG_V0)
# The same job replayed from the prover cache alone (no prover runs): it must still fail.
prove-neg-sync-v0-offline: prove-config
	@$(PROVE_GATE) --job neg-sync-v0-offline --outdir $(PROVE_DIR)/neg-sync-v0-offline \
	  $(PROVE_CORE_OPTS) --cache offline $(PROVE_NEG_V0)
prove-neg-lock-irq: prove-config ## spin_lock_irq inside spin_lock_irqsave fails REQ_LOCK_4
	@$(PROVE_GATE) --job neg-lock-irq --outdir $(PROVE_DIR)/neg-lock-irq $(PROVE_CORE_OPTS) \
	  --fct driver_nested,driver_good \
	  --expect-unproved '^driver_nested:spin_lock_irq_requires_REQ_LOCK_4_REQ_ERR_6_irqs_enabled$$' \
	  --expect-unproved '^smoke:driver_nested:' \
	  -- -cpp-extra-args="$(PROVE_CORE_CPP)" proofs/negative/lock_irq_in_irqsave.c
# A statement contract, which WP 25 skips with a warning: the gate must fail on the warning.
prove-neg-statement-contract: prove-config ## a statement contract (skipped by WP 25) fails the gate
	@$(PROVE_GATE) --job neg-statement-contract --outdir $(PROVE_DIR)/neg-statement-contract \
	  --trusted proofs/trial/trusted.txt --fct stmt_set_one \
	  -- proofs/negative/statement_contract.c
$(addprefix prove-neg-,$(PROVE_NEG_MUTANTS)): prove-neg-%: prove-config ## one proof mutant of the core fails its named goals
	@$(PYTHON) proofs/negative/mutate.py prove $* $(PROVE_DIR)/neg-$*/src --cpp="$(PROVE_CORE_CPP)" -- \
	  $(PROVE_GATE) --job neg-$* --outdir $(PROVE_DIR)/neg-$* $(PROVE_CORE_OPTS)

# --- the committed prover cache (fast replay on a fresh clone) ----------------------------------
# proofs/wp-cache.tar.xz holds WP's cache entries (goal hash -> prover result) of the last
# passing run; prove-cache-seed unpacks it into $(PROVE_DIR)/cache when that is absent or empty.  A stale
# entry is simply never hit; a goal that changed is proved again.
.PHONY: prove-cache-seed prove-cache-mark prove-cache-save
prove-cache-seed:
	@if [ -z "$$(ls -A $(PROVE_DIR)/cache 2>/dev/null)" ] && [ -f proofs/wp-cache.tar.xz ]; then \
	  mkdir -p $(PROVE_DIR)/cache && tar -C $(PROVE_DIR)/cache -xJf proofs/wp-cache.tar.xz; fi
# To commit only the entries the current proofs use: make prove-cache-mark, then run make prove
# and the prove-neg-* / prove-trial jobs, then make prove-cache-save.  An entry read or written
# after the mark is kept (file access times; Linux's default relatime updates them on a read).
# Every entry's access time is first set to the epoch: relatime updates it on a read only when
# it is older than the modification time (or a day old), so an entry read within a day of its
# last read would otherwise look unused and be dropped.
prove-cache-mark:
	@mkdir -p $(PROVE_DIR)/cache && find $(PROVE_DIR)/cache -type f -exec touch -a -d @0 {} + && \
	  touch $(PROVE_DIR)/cache.mark && sleep 1
prove-cache-save: ## pack the cache (only entries used since prove-cache-mark) into proofs/wp-cache.tar.xz
	@cd $(PROVE_DIR)/cache && if [ -f ../cache.mark ]; then \
	  find . -type f \( -anewer ../cache.mark -o -newer ../cache.mark \) | sort > ../cache.used; \
	else find . -type f | sort > ../cache.used; fi && \
	tar -cJf $(CURDIR)/proofs/wp-cache.tar.xz -T ../cache.used && \
	echo "prove-cache-save: $$(wc -l < ../cache.used) of $$(find . -type f | wc -l) entries" && \
	ls -l $(CURDIR)/proofs/wp-cache.tar.xz

# --- the cold proof: CI's evidence (the store and the prover cache are speed, not evidence) ----
# Every unit proved again (no reuse) with no prover cache (PROVE_COLD_CACHE=none; `rebuild`
# also reruns every prover and refreshes a cache), into $(PROVE_COLD_DIR) with a cache
# directory of its own (it must not leave an empty build/proofs/cache behind: make check's
# expected-failure jobs replay the seeded cache from there), never over
# build/evidence/proofs.json.  Each unit proved is compared with its stored result (same key,
# goals, smoke tests, properties, assumptions, all Valid now) and, when make prove or make
# check left one, with the reused run's proofs.json: a unit whose stored result is not
# reproduced fails by name (COLD-MISMATCH <unit>).  .ci/run runs it before make check; the
# ci-templates run it as shards (SHARD=i/N) merged by prove-cold-merge.
PROVE_COLD_DIR   := $(PROVE_DIR)/cold
PROVE_COLD_CACHE ?= none
PROVE_COLD = $(PROVE_UNITS) --reuse none --rerun "" --cache $(PROVE_COLD_CACHE) \
             --cache-dir $(PROVE_COLD_DIR)/cache \
             --outdir $(PROVE_COLD_DIR)/units --shard-dir $(PROVE_COLD_DIR)/shards \
             --evidence $(PROVE_COLD_DIR)/proofs.json --ledger $(PROVE_COLD_DIR)/ledger.md \
             --compare-store
PROVE_COLD_AGAINST = $(if $(wildcard $(EVIDENCE)/proofs.json),--compare-evidence $(EVIDENCE)/proofs.json)
.PHONY: prove-cold prove-cold-merge prove-cold-check-cache
prove-cold-check-cache:
	@case "$(PROVE_COLD_CACHE)" in none|rebuild) ;; *) \
	  echo "prove-cold: PROVE_COLD_CACHE=$(PROVE_COLD_CACHE): a cold proof runs every prover (none or rebuild)"; exit 2;; esac
prove-cold: prove-config prove-cold-check-cache ## every unit and every prover again, compared with the store (CI)
	@mkdir -p $(PROVE_COLD_DIR)
ifeq ($(SHARD),)
	@$(PROVE_COLD) prove $(PROVE_COLD_AGAINST) $(PROVE_FC_ARGS)
else
	@$(PROVE_COLD) prove --shard $(SHARD) $(PROVE_FC_ARGS)
endif
prove-cold-merge: prove-config ## merge the cold shards (build/proofs/cold/shards/), gate and compare
	@$(PROVE_COLD) merge $(if $(PARTIALS),--partials $(PARTIALS)) $(PROVE_COLD_AGAINST) $(PROVE_FC_ARGS)

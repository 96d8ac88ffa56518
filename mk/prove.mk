# mk/prove.mk — Frama-C WP proofs (acsl/, proofs/; spec/proof.md says what is proved and assumed).
#
#   make prove          the gate: every goal of the core proved → build/evidence/proofs.json
#   make prove-ledger   the same, then rewrite the committed ledger proofs/ledger.md
#   make prove-trial    the gate's own trial file (proofs/trial/trial.c)
#   make prove-neg-<n>  one expected proof failure (tests/suites/50-proof.sh asserts the goal)
#
# WP exits 0 with unproved goals: proofs/gate.py is the gate (exit 1 on any unproved goal, failed
# smoke test, unlisted assumption or unsound default). The Why3 configuration is rebuilt on every
# run into $(PROVE_DIR)/why3.conf (z3, cvc4, and cvc5 through proofs/why3/cvc5.drv).
# Prover results are cached in $(PROVE_DIR)/cache (PROVE_CACHE=update); PROVE_CACHE=none reruns
# every prover, PROVE_CACHE=offline replays the cache only (a goal not in it stays unproved).
PROVE_DIR      := $(BUILD)/proofs
PROVE_WHY3CONF := $(PROVE_DIR)/why3.conf
PROVE_CACHE    ?= update
PROVE_STEPS    ?= 2000000
PROVE_TIMEOUT  ?= 60
PROVE_PAR      ?= $(JOBS)
PROVE_GATE      = $(PYTHON) proofs/gate.py run --why3conf $(PROVE_WHY3CONF) --cache $(PROVE_CACHE) \
                  --cache-dir $(PROVE_DIR)/cache --steps $(PROVE_STEPS) --timeout $(PROVE_TIMEOUT) \
                  --par $(PROVE_PAR)

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
prove: prove-trial

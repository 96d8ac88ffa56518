# mk/lint.mk — static checks of the library and of user drivers (spec/lint.md).
#
#   make lint                      the library (src/core, src/port/hosted, headers): must be clean
#   make lint SRC="a.c b.c"        your driver sources instead of the library
#   make lint-fix SRC="a.c"        rewrite spin_lock_irq pairs that are unsafe to irqsave, in place
#   LINT_TOOLS=sparse,cocci,cppcheck,clang-tidy   a subset of the tools
#   LINT_CFLAGS="-Imy/include -DFOO"               your include paths and defines
#   make lint FORMAT=sarif [SRC=...]              also write build/evidence/lint.sarif
#
# Every finding is one line `FILE:LINE:COL: TOOL/RULE: MESSAGE` (lint/irqlint.py); the exit
# status is non-zero on any finding (1) or when a tool cannot run (2).
LINT_TOOLS  ?= sparse,cocci,cppcheck,clang-tidy
LINT_CFLAGS ?=
# FORMAT=sarif: the same run, the same lines on stdout and the same exit status; the findings
# are also written as SARIF 2.1.0 (tools/lint_sarif.py): one run per tool, rule ids, locations
# relative to the checkout (uriBaseId SRCROOT), fixes where the rule has an automatic one. Each
# irqlint call leaves its data in LINT_SARIF_DATA; the last step merges them. A SARIF that cannot
# be written fails the target like a tool failure (2). FORMAT=text (the default) writes none.
FORMAT          ?= text
LINT_SARIF      := $(EVIDENCE)/lint.sarif
LINT_SARIF_DATA := $(BUILD)/lint-sarif
lint_data = $(if $(filter sarif,$(FORMAT)),--sarif-data $(LINT_SARIF_DATA)/$(1).json)
LINT_BEGIN = case "$(FORMAT)" in text|sarif) ;; *) echo "make lint: FORMAT=$(FORMAT): FORMAT=text (the default) or FORMAT=sarif" >&2; exit 2;; esac; \
	$(if $(filter sarif,$(FORMAT)),rm -rf $(LINT_SARIF_DATA) $(LINT_SARIF) && mkdir -p $(LINT_SARIF_DATA) $(EVIDENCE) || exit 2;) rc=0
LINT_END = $(if $(filter sarif,$(FORMAT)),$(PYTHON) -m tools.lint_sarif convert -o $(LINT_SARIF) $$(ls -tr $(LINT_SARIF_DATA)/*.json) || rc=2;) exit $$rc
# The SARIF 2.1.0 JSON schema the tests validate against (tests/suites/60-lint.sh): no Debian
# package ships it; the npm package @microsoft/jest-sarif does (lib/schemas/, MIT). `make deps`
# fetches that package's tarball with npm (no install, no scripts), keeps the schema under
# build/deps/ and checks its sha256; nothing happens when it is already there.
LINT_SCHEMA_NPM    := @microsoft/jest-sarif@1.0.0-beta.0
LINT_SCHEMA_MEMBER := package/lib/schemas/sarif-2.1.0-rtm.5.json
LINT_SCHEMA_SHA256 := 2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8
LINT_SCHEMA        := $(BUILD)/deps/sarif/sarif-schema-2.1.0.json
# The library is checked as it is built (mk/lib.mk, mk/cross.mk): public headers, core and the
# hosted port for the host; core and each bare-metal port for its CPU (clang-tidy with that
# target, sparse with the target's --arch, cppcheck with the target's macro).
LINT_LIB_SRCS   = $(sort $(wildcard src/core/*.c src/port/hosted/*.c))
# -U: the port built as a controller without an in-flight state is a test library's, not what
# ships (docs/porting.md); left undefined, cppcheck need not try it (its 12-configuration limit).
LINT_LIB_CFLAGS = $(CSTD) $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) -Isrc/core -Isrc/port \
                  -UIRQSYNC_PORT_NO_ACTIVE_STATE
LINT_BM_SRCS    = $(sort $(wildcard src/port/baremetal-armv7m/*.c))
LINT_BM_CFLAGS  = $(CSTD) $(IRQSYNC_CPPFLAGS) -Isrc/core -Isrc/port -ffreestanding -DIRQSYNC_NR_CPUS=1
LINT_BM_TOOLFLAGS = --tool-flags clang-tidy="--target=arm-none-eabi -mcpu=cortex-m3 -mthumb -mfloat-abi=soft" \
                    --tool-flags sparse="--arch=arm -D__ARM_ARCH_7M__" \
                    --tool-flags cppcheck="-D__ARM_ARCH_7M__"
# The AArch64 bare-metal port (DAIF masking, MPIDR cpu ids), up to the SMP run's two CPUs.
LINT_A64_SRCS   = $(sort $(wildcard src/port/baremetal-aarch64/*.c))
LINT_A64_CFLAGS = $(CSTD) $(IRQSYNC_CPPFLAGS) -Isrc/core -Isrc/port -ffreestanding -DIRQSYNC_NR_CPUS=2
LINT_A64_TOOLFLAGS = --tool-flags clang-tidy="--target=aarch64-none-elf" \
                     --tool-flags sparse="--arch=aarch64 -D__aarch64__" \
                     --tool-flags cppcheck="-D__aarch64__"

LINT_RUN = $(PYTHON) lint/irqlint.py --tools "$(LINT_TOOLS)"
# coccinelle reads every #ifdef branch whatever the -D options: one pass over a file is enough
LINT_RUN_NOCOCCI = $(PYTHON) lint/irqlint.py --tools "$(subst cocci,,$(LINT_TOOLS))"

.PHONY: lint lint-lib lint-fix lint-deps lint-py
ifeq ($(strip $(SRC)),)
lint: lint-lib lint-py ## sparse, coccinelle, cppcheck, clang-tidy over the library, pyflakes over our Python (SRC="..." for yours; FORMAT=sarif)
else
lint: ## sparse, coccinelle, cppcheck, clang-tidy over SRC="..." (your driver; FORMAT=sarif)
	@$(LINT_BEGIN); \
	$(LINT_RUN) --cflags "$(LINT_CFLAGS)" $(call lint_data,src) $(SRC) || rc=$$?; \
	$(LINT_END)
endif

# Every group always runs; the worse exit status wins (2 tool failure > 1 findings > 0).
#   host:       core + hosted port, default build (what ships)
#   host-debug: the same with -DIRQSYNC_DEBUG (the REQ-ERR-6 reports compiled in)
#   armv7m:     core + bare-metal port for a Cortex-M3
#   aarch64:    core + bare-metal port for AArch64
lint-lib:
	@$(LINT_BEGIN); \
	group() { echo "lint-lib: $$1" >&2; shift; r=0; "$$@" || r=$$?; [ $$r -gt $$rc ] && rc=$$r; true; }; \
	group host $(LINT_RUN) --cflags "$(LINT_LIB_CFLAGS) $(LINT_CFLAGS)" $(call lint_data,host) $(LINT_LIB_SRCS); \
	group host-debug $(LINT_RUN_NOCOCCI) --cflags "$(LINT_LIB_CFLAGS) -DIRQSYNC_DEBUG $(LINT_CFLAGS)" $(call lint_data,host-debug) $(LINT_LIB_SRCS); \
	$(if $(strip $(LINT_BM_SRCS)),group armv7m $(LINT_RUN_NOCOCCI) --cflags "$(LINT_BM_CFLAGS) $(LINT_CFLAGS)" $(LINT_BM_TOOLFLAGS) \
	  $(call lint_data,armv7m) $(filter-out src/port/hosted/%,$(LINT_LIB_SRCS)) $(LINT_BM_SRCS); \
	  $(if $(findstring cocci,$(LINT_TOOLS)),group armv7m-cocci $(LINT_RUN) --tools cocci --cflags "$(LINT_BM_CFLAGS)" $(call lint_data,armv7m-cocci) $(LINT_BM_SRCS);)) \
	$(if $(strip $(LINT_A64_SRCS)),group aarch64 $(LINT_RUN_NOCOCCI) --cflags "$(LINT_A64_CFLAGS) $(LINT_CFLAGS)" $(LINT_A64_TOOLFLAGS) \
	  $(call lint_data,aarch64) $(filter-out src/port/hosted/%,$(LINT_LIB_SRCS)) $(LINT_A64_SRCS); \
	  $(if $(findstring cocci,$(LINT_TOOLS)),group aarch64-cocci $(LINT_RUN) --tools cocci --cflags "$(LINT_A64_CFLAGS)" $(call lint_data,aarch64-cocci) $(LINT_A64_SRCS);)) \
	$(LINT_END)

# The project's own tooling (Python under tools/, proofs/, lint/, tests/): pyflakes, which
# reports unused imports and variables, undefined names and redefinitions, never style.
PYFLAKES    ?= pyflakes3
LINT_PY_SRC ?= tools proofs lint tests
lint-py: ## pyflakes over the project's Python (LINT_PY_SRC=)
	@command -v $(PYFLAKES) >/dev/null || { echo "lint-py: $(PYFLAKES) missing: make deps" >&2; exit 2; }
	@$(PYFLAKES) $(LINT_PY_SRC) && echo "lint-py: pyflakes clean: $(LINT_PY_SRC)"

lint-fix: ## apply the spin_lock_irq -> spin_lock_irqsave patch to SRC="..." in place, then lint
	@test -n "$(strip $(SRC))" || { echo "make lint-fix: give the files: SRC=\"a.c b.c\"" >&2; exit 2; }
	@$(LINT_RUN) --fix --cflags "$(LINT_CFLAGS)" $(SRC)

# `make deps` also fetches the SARIF schema (see LINT_SCHEMA above); npm comes with the machine's
# Node.js (on a plain Debian 12: apt-get install npm).
deps: lint-deps
lint-deps: ## the SARIF 2.1.0 JSON schema for the lint's SARIF test (npm pack, sha256-checked)
	@if echo "$(LINT_SCHEMA_SHA256)  $(LINT_SCHEMA)" | sha256sum -c --status 2>/dev/null; then exit 0; fi; \
	command -v npm >/dev/null || { echo "deps: npm is needed to fetch the SARIF schema ($(LINT_SCHEMA_NPM)); on Debian: apt-get install npm" >&2; exit 2; }; \
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	(cd "$$tmp" && npm pack --silent --ignore-scripts $(LINT_SCHEMA_NPM) >/dev/null) && \
	tar -xzf "$$tmp"/*.tgz -C "$$tmp" $(LINT_SCHEMA_MEMBER) || { echo "deps: npm pack $(LINT_SCHEMA_NPM) failed" >&2; exit 1; }; \
	echo "$(LINT_SCHEMA_SHA256)  $$tmp/$(LINT_SCHEMA_MEMBER)" | sha256sum -c --status || \
	  { echo "deps: the schema in $(LINT_SCHEMA_NPM) is not the expected one (sha256)" >&2; exit 1; }; \
	mkdir -p $(dir $(LINT_SCHEMA)) && cp "$$tmp/$(LINT_SCHEMA_MEMBER)" $(LINT_SCHEMA) && \
	echo "deps: SARIF 2.1.0 schema from npm $(LINT_SCHEMA_NPM) -> $(LINT_SCHEMA)"

# make lint-bench: recall and precision per rule on the corpus of real kernel bugs (issue 28,
# tests/lint/corpus/README.md), from a fresh coccinelle run over the whole corpus at once (a bug
# may span files). Prints the table, writes build/evidence/lint-bench.json; fails when a rule is
# below LINT_BENCH_MIN_RECALL / LINT_BENCH_MIN_PRECISION (percent).
LINT_CORPUS               = $(sort $(wildcard tests/lint/corpus/*.c))
LINT_BENCH_JSON          := $(EVIDENCE)/lint-bench.json
LINT_BENCH_MIN_RECALL    ?= 90
LINT_BENCH_MIN_PRECISION ?= 100
.PHONY: lint-bench
lint-bench: ## recall and precision per lint rule on tests/lint/corpus/ (real kernel bugs)
	@mkdir -p $(BUILD)/lint-bench && \
	rc=0; $(PYTHON) lint/irqlint.py --tools cocci $(LINT_CORPUS) >$(BUILD)/lint-bench/findings.txt 2>$(BUILD)/lint-bench/stderr.txt || rc=$$?; \
	[ $$rc -le 1 ] || { cat $(BUILD)/lint-bench/stderr.txt >&2; echo "lint-bench: a tool failed (exit $$rc)" >&2; exit 2; }; \
	$(PYTHON) tests/lint/bench_corpus.py --min-recall $(LINT_BENCH_MIN_RECALL) --min-precision $(LINT_BENCH_MIN_PRECISION) \
	  $(BUILD)/lint-bench/findings.txt $(LINT_BENCH_JSON) $(LINT_CORPUS)

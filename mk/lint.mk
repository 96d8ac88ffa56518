# mk/lint.mk — static checks of the library and of user drivers (spec/lint.md).
#
#   make lint                      the library (src/core, src/port/hosted, headers): must be clean
#   make lint SRC="a.c b.c"        your driver sources instead of the library
#   make lint-fix SRC="a.c"        rewrite spin_lock_irq pairs that are unsafe to irqsave, in place
#   LINT_TOOLS=sparse,cocci,cppcheck,clang-tidy   a subset of the tools
#   LINT_CFLAGS="-Imy/include -DFOO"               your include paths and defines
#
# Every finding is one line `FILE:LINE:COL: TOOL/RULE: MESSAGE` (lint/irqlint.py); the exit
# status is non-zero on any finding (1) or when a tool cannot run (2).
LINT_TOOLS  ?= sparse,cocci,cppcheck,clang-tidy
LINT_CFLAGS ?=
# The library is checked as it is built (mk/lib.mk, mk/cross.mk): public headers, core and the
# hosted port for the host; core and each bare-metal port for its CPU (clang-tidy with that
# target, sparse with the target's --arch, cppcheck with the target's macro).
LINT_LIB_SRCS   = $(sort $(wildcard src/core/*.c src/port/hosted/*.c))
LINT_LIB_CFLAGS = $(CSTD) $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) -Isrc/core -Isrc/port
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

.PHONY: lint lint-lib lint-fix
ifeq ($(strip $(SRC)),)
lint: lint-lib ## sparse, coccinelle, cppcheck, clang-tidy over the library (SRC="..." for yours)
else
lint: ## sparse, coccinelle, cppcheck, clang-tidy over SRC="..." (your driver)
	@$(LINT_RUN) --cflags "$(LINT_CFLAGS)" $(SRC)
endif

# Every group always runs; the worse exit status wins (2 tool failure > 1 findings > 0).
#   host:       core + hosted port, default build (what ships)
#   host-debug: the same with -DIRQSYNC_DEBUG (the REQ-ERR-6 reports compiled in)
#   armv7m:     core + bare-metal port for a Cortex-M3
#   aarch64:    core + bare-metal port for AArch64
lint-lib:
	@rc=0; \
	group() { echo "lint-lib: $$1" >&2; shift; r=0; "$$@" || r=$$?; [ $$r -gt $$rc ] && rc=$$r; true; }; \
	group host $(LINT_RUN) --cflags "$(LINT_LIB_CFLAGS) $(LINT_CFLAGS)" $(LINT_LIB_SRCS); \
	group host-debug $(LINT_RUN_NOCOCCI) --cflags "$(LINT_LIB_CFLAGS) -DIRQSYNC_DEBUG $(LINT_CFLAGS)" $(LINT_LIB_SRCS); \
	$(if $(strip $(LINT_BM_SRCS)),group armv7m $(LINT_RUN_NOCOCCI) --cflags "$(LINT_BM_CFLAGS) $(LINT_CFLAGS)" $(LINT_BM_TOOLFLAGS) \
	  $(filter-out src/port/hosted/%,$(LINT_LIB_SRCS)) $(LINT_BM_SRCS); \
	  $(if $(findstring cocci,$(LINT_TOOLS)),group armv7m-cocci $(LINT_RUN) --tools cocci --cflags "$(LINT_BM_CFLAGS)" $(LINT_BM_SRCS);)) \
	$(if $(strip $(LINT_A64_SRCS)),group aarch64 $(LINT_RUN_NOCOCCI) --cflags "$(LINT_A64_CFLAGS) $(LINT_CFLAGS)" $(LINT_A64_TOOLFLAGS) \
	  $(filter-out src/port/hosted/%,$(LINT_LIB_SRCS)) $(LINT_A64_SRCS); \
	  $(if $(findstring cocci,$(LINT_TOOLS)),group aarch64-cocci $(LINT_RUN) --tools cocci --cflags "$(LINT_A64_CFLAGS)" $(LINT_A64_SRCS);)) \
	exit $$rc

lint-fix: ## apply the spin_lock_irq -> spin_lock_irqsave patch to SRC="..." in place, then lint
	@test -n "$(strip $(SRC))" || { echo "make lint-fix: give the files: SRC=\"a.c b.c\"" >&2; exit 2; }
	@$(LINT_RUN) --fix --cflags "$(LINT_CFLAGS)" $(SRC)

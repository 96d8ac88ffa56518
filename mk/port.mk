# mk/port.mk — the port conformance suite (issue 17; docs/porting.md).
#
#   make port-check PORT=<name>     check a port's obligations at run time and in its object code
#       <name>: a directory of src/port/ (hosted, baremetal-armv7m, baremetal-aarch64, or yours),
#       or of tests/port/ (the deliberately broken ports: PORT=broken/hosted-restore-ignores-state)
#   make port-check-all             every port we ship
#   PORT_CHECK_TARGETS="hosted"     where to run it (default: per shipped port, below; a port
#       directory may set it in a file port-check.mk): hosted (this machine, POSIX threads),
#       armv7m (qemu mps2-an385, 1 CPU), aarch64 (qemu virt, 1 CPU), aarch64-smp (virt, 2 CPUs)
#   PORT_CHECK_BASE=<shipped port>  for a port directory without .c files (a build variant of a
#       shipped port, e.g. one with its own <irqsync/atomic.h>): whose sources to build (default:
#       the shipped port of each target)
#   PORT_CHECK_ROUNDS=N             litmus rounds per atomics test (default per target)
#   PORT_CHECK_ONLY="irq/ atomics/sb"  run only the cases whose names start so (the broken ports
#       set it to the obligation they break; the object-code checks always run)
#
# Per target, in $(BUILD)/port/<name>/<target>/: tu.c #includes the port's .c files, then
# tests/port/conformance.c and tests/port/probes.c -- ONE translation unit, so the compiler sees
# the port's bodies as with -flto (what makes a missing compiler barrier observable). No core
# library is linked: the suite defines handle_irq() itself. The run prints TAP:
#   1. tests/port/barrier_probe.py on tu.o: is each port function a compiler barrier?
#   2. bare metal: tools/cross/barrier_check.py on the image: the atomics' acquire, release and
#      full-fence instructions (mk/cross.mk's check, on the suite's own probes)
#   3. the suite itself: natively (hosted) or under qemu-system (the boards of tests/baremetal/,
#      the compiler, flags, link scripts and qemu command lines of mk/cross.mk)
# The exit status is non-zero when any case failed.
PORT               ?= hosted
PORT_CHECK_SHIPPED := hosted baremetal-armv7m baremetal-aarch64
PC_ROOT            := $(BUILD)/port

# Where the port lives and where it runs.
# (a directory of tests/port/ is a port only with its port-check.mk: PORT=broken is not one)
PC_PORT_DIR := $(firstword $(wildcard src/port/$(PORT)/.) $(wildcard tests/port/$(PORT)/port-check.mk))
PC_PORT_DIR := $(patsubst %/.,%,$(patsubst %/port-check.mk,%,$(PC_PORT_DIR)))
ifneq ($(PC_PORT_DIR),)
-include $(PC_PORT_DIR)/port-check.mk
endif
PC_TARGETS_hosted            := hosted
PC_TARGETS_baremetal-armv7m  := armv7m
PC_TARGETS_baremetal-aarch64 := aarch64 aarch64-smp
PORT_CHECK_TARGETS ?= $(PC_TARGETS_$(PORT))
PORT_CHECK_BASE    ?=
PORT_CHECK_ONLY    ?=
# Each program (and qemu) runs under `timeout PC_RUN_LIMIT`: a guard against a hang (a cpu_relax
# that never returns), not a speed goal. A quiet run takes seconds; beside other jobs on two
# cores the litmus rounds of aarch64-smp, each needing both vCPU threads on a core at once, took
# over 120 s (the old limit) at load 14. The suite's own waits count iterations.
PC_RUN_LIMIT       ?= 540
# The sources: the port directory's .c files; for a directory without any (a build variant of
# a shipped port, e.g. its own <irqsync/atomic.h>), those of PORT_CHECK_BASE, or else of the
# shipped port of each target.
PC_BASE_hosted      := hosted
PC_BASE_armv7m      := baremetal-armv7m
PC_BASE_aarch64     := baremetal-aarch64
PC_BASE_aarch64-smp := baremetal-aarch64
PC_OWN_SRCS := $(sort $(wildcard $(PC_PORT_DIR)/*.c))
pc_srcs = $(or $(PC_OWN_SRCS),$(sort $(wildcard src/port/$(or $(PORT_CHECK_BASE),$(PC_BASE_$(1)))/*.c)))
PC_OUT  := $(PC_ROOT)/$(subst /,-,$(PORT))

# ---- per target: compiler, flags, link, run -------------------------------------------------
PC_HOST_ARCH := $(shell uname -m | sed -e 's/^arm.*/arm/' -e 's/^amd64$$/x86_64/')
PC_SUITE_SRC := tests/port/conformance.c tests/port/probes.c
PC_SUITE_HDR := tests/port/plat.h $(IRQSYNC_HDRS)
PC_CPPFLAGS   = -I$(PC_PORT_DIR) $(IRQSYNC_CPPFLAGS) -Itests/port -I.
# Probes: no identical-code folding (a probe would become its control), one section each.
PC_PROBE_FLAGS := -ffunction-sections -fno-ipa-icf

PC_CC_hosted      := $(CC)
PC_OBJDUMP_hosted := objdump
PC_PARCH_hosted   := $(PC_HOST_ARCH)
PC_CFLAGS_hosted   = $(ALL_CFLAGS) -Isrc/port/hosted
PC_PLAT_hosted    := tests/port/plat-hosted.c
PC_LINK_hosted     = $(IRQSYNC_HOST_LIBS)
PC_EXE_hosted     := port-check
PC_ROUNDS_hosted  := 10000
PC_RUN_hosted      = timeout $(PC_RUN_LIMIT) $(1)
PC_INSN_hosted    :=

PC_BM_PLAT := tests/port/plat-baremetal.c tests/baremetal/semihost.c
define PC_BM_TARGET
# $(1): target name, $(2): mk/cross.mk arch (armv7m, aarch64), $(3): CPUs, $(4): qemu command
PC_CC_$(1)      := $$(BM_$(2)_PFX)gcc
PC_OBJDUMP_$(1) := $$(BM_$(2)_PFX)objdump
PC_PARCH_$(1)   := $(if $(filter armv7m,$(2)),arm,aarch64)
PC_CFLAGS_$(1)   = $$(ALL_CFLAGS) $$(BM_$(2)_ARCH) -ffreestanding -DIRQSYNC_NR_CPUS=$(3) \
                   -DPC_NCPUS=$(3) -Itests/baremetal
PC_PLAT_$(1)     = $$(PC_BM_PLAT) $$(BM_$(2)_BOOT) $$(BM_$(2)_BOARD)/board.c
PC_LINK_$(1)     = $$(BM_LINK_$(2)) -lgcc
PC_EXE_$(1)     := port-check.elf
PC_RUN_$(1)      = timeout $(PC_RUN_LIMIT) $(4) $$(BM_QEMU_OPTS) -kernel $$(1)
PC_INSN_$(1)    := $$(BM_$(2)_CHECK)
endef
$(eval $(call PC_BM_TARGET,armv7m,armv7m,1,$(BM_armv7m_QEMU)))
$(eval $(call PC_BM_TARGET,aarch64,aarch64,1,$(BM_aarch64_QEMU)))
$(eval $(call PC_BM_TARGET,aarch64-smp,aarch64,2,$(SMP_QEMU)))
PC_ROUNDS_armv7m      := 0
PC_ROUNDS_aarch64     := 0
PC_ROUNDS_aarch64-smp := 5000
PC_ALL_TARGETS := hosted armv7m aarch64 aarch64-smp

# $(call PC_TARGET_RULES,<target>)
define PC_TARGET_RULES
$(PC_OUT)/$(1)/tu.c: $(call pc_srcs,$(1)) $(PC_SUITE_SRC) $(PC_SUITE_HDR) $(wildcard $(PC_PORT_DIR)/*.h $(PC_PORT_DIR)/*/*.h $(PC_PORT_DIR)/port-check.mk)
	@mkdir -p $$(@D)
	@printf '/* generated by mk/port.mk: port %s, target %s */\n' '$(PORT)' '$(1)' >$$@
	@printf '#include "%s"\n' $(call pc_srcs,$(1)) $(PC_SUITE_SRC) >>$$@
PC_TU_CMD_$(1) = $$(PC_CC_$(1)) $$(PC_CFLAGS_$(1)) $(PC_PROBE_FLAGS) $$(PC_CPPFLAGS) \
	  -DPC_NAME='"$(1)"' -DPC_LITMUS_ROUNDS=$$(or $$(PORT_CHECK_ROUNDS),$$(PC_ROUNDS_$(1))) \
	  -DPC_ONLY='"$$(PORT_CHECK_ONLY)"'
# The command line is a prerequisite: a build with other flags (PORT_CHECK_ROUNDS=…) is redone.
$(PC_OUT)/$(1)/flags: pc-force
	@mkdir -p $$(@D)
	@echo '$$(PC_TU_CMD_$(1))' | cmp -s - $$@ || echo '$$(PC_TU_CMD_$(1))' >$$@
$(PC_OUT)/$(1)/tu.o: $(PC_OUT)/$(1)/tu.c $(PC_OUT)/$(1)/flags
	$$(PC_TU_CMD_$(1)) -c $$< -o $$@
$(PC_OUT)/$(1)/$(PC_EXE_$(1)): $(PC_OUT)/$(1)/tu.o $$(PC_PLAT_$(1)) $(wildcard tests/baremetal/*.h)
	$$(PC_CC_$(1)) $$(PC_CFLAGS_$(1)) $$(IRQSYNC_CPPFLAGS) -Itests/port $$(filter %.o %.c %.S,$$^) \
	  $$(PC_LINK_$(1)) -o $$@
endef
$(foreach t,$(PC_ALL_TARGETS),$(eval $(call PC_TARGET_RULES,$(t))))

PC_EXES = $(foreach t,$(PORT_CHECK_TARGETS),$(PC_OUT)/$(t)/$(PC_EXE_$(t)))

# One target's checks, as a shell fragment that sets rc=1 on a failure.
PC_ATOMICS_FNS := --fn pc_atomics_lock=rmw,acquire_rmw,acquire_load \
                  --fn pc_atomics_unlock=release --fn pc_atomics_mb=full
define pc_check_one
echo "# port-check: port $(PORT) ($(PC_PORT_DIR)), target $(1)"; \
$(if $(filter x86_64 aarch64 arm,$(PC_PARCH_$(1))),\
$(PYTHON) -m tests.port.barrier_probe --arch $(PC_PARCH_$(1)) --objdump $(PC_OBJDUMP_$(1)) \
  --name $(1) $(PC_OUT)/$(1)/tu.o || rc=1;,\
echo "ok 1 - $(1)/compiler-barrier/static [REQ-TCB-1 REQ-TCB-2] # SKIP no probe rules for $(PC_PARCH_$(1))";) \
$(if $(PC_INSN_$(1)),\
if $(PYTHON) -m tools.cross.barrier_check --arch $(PC_INSN_$(1)) --objdump $(PC_OBJDUMP_$(1)) \
     $(PC_OUT)/$(1)/$(PC_EXE_$(1)) $(PC_ATOMICS_FNS) >$(PC_OUT)/$(1)/insn.log 2>&1; \
then sed 's/^/#   /' $(PC_OUT)/$(1)/insn.log; \
  echo "ok 1 - $(1)/atomics/instructions-acquire-release-full-fence [REQ-MM-4 REQ-TCB-1]"; \
else sed 's/^/#   /' $(PC_OUT)/$(1)/insn.log; \
  echo "not ok 1 - $(1)/atomics/instructions-acquire-release-full-fence [REQ-MM-4 REQ-TCB-1]"; rc=1; fi;) \
$(call PC_RUN_$(1),$(PC_OUT)/$(1)/$(PC_EXE_$(1))) || rc=1;
endef

# What stops port-check before it builds anything (a parse must never stop: PORT is shared).
PC_ERROR :=
ifeq ($(PC_PORT_DIR),)
PC_ERROR := no port '$(PORT)' in src/port/ or tests/port/ (shipped: $(PORT_CHECK_SHIPPED))
else ifeq ($(strip $(PORT_CHECK_TARGETS)),)
PC_ERROR := where does '$(PORT)' run? Set PORT_CHECK_TARGETS=<$(PC_ALL_TARGETS)>, or put it in $(PC_PORT_DIR)/port-check.mk
else ifneq ($(filter-out $(PC_ALL_TARGETS),$(PORT_CHECK_TARGETS)),)
PC_ERROR := unknown PORT_CHECK_TARGETS $(filter-out $(PC_ALL_TARGETS),$(PORT_CHECK_TARGETS)) (known: $(PC_ALL_TARGETS))
else ifneq ($(strip $(foreach t,$(PORT_CHECK_TARGETS),$(if $(call pc_srcs,$(t)),,$(t)))),)
PC_ERROR := no .c files for $(PORT) (PORT_CHECK_BASE=<shipped port> builds a shipped port's sources)
endif

.PHONY: port-check port-check-all port-check-build pc-force
pc-force:
port-check-build: $(if $(PC_ERROR),,$(PC_EXES))
ifneq ($(PC_ERROR),)
	@echo "port-check: $(PC_ERROR)" >&2; exit 2
endif
port-check: $(if $(PC_ERROR),,$(PC_EXES)) ## the port conformance suite on PORT=<name> (docs/porting.md)
ifneq ($(PC_ERROR),)
	@echo "port-check: $(PC_ERROR)" >&2; exit 2
else
	@rc=0; $(foreach t,$(PORT_CHECK_TARGETS),$(call pc_check_one,$(t))) exit $$rc
endif

port-check-all: ## the port conformance suite on every port we ship
	@rc=0; for p in $(PORT_CHECK_SHIPPED); do \
	  $(MAKE) --no-print-directory port-check PORT=$$p || rc=1; done; exit $$rc

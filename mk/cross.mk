# mk/cross.mk — the library and its tests on other architectures (issue 6).
#
#   make cross            every target of TARGETS: build, barrier check, run under qemu
#                         → build/evidence/cross.json (tools/cross/cross.py)
#   make cross-barrier    the objdump barrier check for every Linux target + Armv7-M
#   make cross-baremetal  build and run the bare-metal test on qemu-system-arm (mps2-an385)
#   TARGETS="aarch64-linux-gnu baremetal-armv7m"   a subset (triples, or the short names
#                         aarch64 armhf riscv64 ppc64le armv7m)
#
# Everything lands in $(BUILD)/cross/<target>/. The library is built from the same sources
# (src/core/*.c + src/port/<PORT>/*.c) with the same warning set ($(ALL_CFLAGS)) as the host
# build; only CC, the target flags and PORT change. CROSS_LIB_RULES mirrors mk/lib.mk's
# IRQSYNC_LIB_RULES: this fragment is read before mk/lib.mk (the Makefile includes mk/*.mk in
# name order), so it cannot $(call) that template at parse time.
CROSS_DIR     := $(BUILD)/cross
CROSS_LINUX   := aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu powerpc64le-linux-gnu
CROSS_BM      := baremetal-armv7m
TARGETS       ?= $(CROSS_LINUX) $(CROSS_BM)
# Linux test binaries are linked statically: qemu-user then needs no target sysroot.
CROSS_LDFLAGS := -static
# Architecture names of tools/cross/barrier_check.py.
cross_arch = $(patsubst aarch64-%,aarch64,$(patsubst arm-%,armv7,$(patsubst riscv64-%,riscv64,$(patsubst powerpc64le-%,ppc64le,$(1)))))

# Deliberately weakened builds whose disassembly must FAIL the barrier check (that is what
# shows the check can fail). The C11 memory orders are downgraded by redefining the
# compiler's __ATOMIC_* constants, from which stdatomic.h defines memory_order_*:
#   relaxed    every order is relaxed: acquire, release and the fence all vanish;
#   norelease  only release is relaxed: the unlock loses its barrier, the rest stays.
CROSS_FLAGS_relaxed   := -U__ATOMIC_ACQUIRE -D__ATOMIC_ACQUIRE=0 -U__ATOMIC_RELEASE -D__ATOMIC_RELEASE=0 \
                         -U__ATOMIC_ACQ_REL -D__ATOMIC_ACQ_REL=0 -U__ATOMIC_SEQ_CST -D__ATOMIC_SEQ_CST=0 \
                         -U__ATOMIC_CONSUME -D__ATOMIC_CONSUME=0
CROSS_FLAGS_norelease := -U__ATOMIC_RELEASE -D__ATOMIC_RELEASE=0
CROSS_WEAK            := relaxed norelease

# What the barrier check looks for, per symbol (roles of tools/cross/barrier_check.py).
CROSS_BARRIER_FNS := --fn spin_lock=rmw,acquire_rmw,acquire_load --fn spin_unlock=release \
                     --fn xprobe_smp_mb=full --fn synchronize_irq=acquire_load,release \
                     --fn handle_irq=acquire_load,release

CROSS_CPPFLAGS := -Isrc/include
cross_lib_srcs = $(sort $(wildcard src/core/*.c)) $(sort $(wildcard src/port/$(1)/*.c))
cross_lib_objs = $(patsubst src/%.c,$(1)/obj/%.o,$(call cross_lib_srcs,$(2)))
CROSS_HDRS     = $(wildcard src/include/irqsync/*.h src/core/*.h src/port/*.h src/port/*/*.h)

# $(call CROSS_LIB_RULES,<outdir>,<CC>,<CFLAGS>,<PORT>,<AR>) → <outdir>/libirqsync.a
define CROSS_LIB_RULES
$(1)/obj/%.o: src/%.c $$(CROSS_HDRS)
	@mkdir -p $$(@D)
	$(2) $(3) $$(CROSS_CPPFLAGS) -c $$< -o $$@
$(1)/libirqsync.a: $$(call cross_lib_objs,$(1),$(4))
	@rm -f $$@
	$(5) rcs $$@ $$^
endef

# ---- Linux targets: library, barrier probe, weakened variants ----
# $(call CROSS_PROBE_RULES,<target>,<dir>,<CC>,<CFLAGS>,<LDFLAGS+LIBS>,<arch>,<objdump>)
# <dir>/barrier-probe and the make targets cross-barrier-<target> (must pass) and
# cross-barrier-<weak>-<target> for each weakened build (expected to exit 1 with "MISSING").
define CROSS_PROBE_RULES
$(2)/barrier-probe: tests/cross/barrier_probe.c $(2)/libirqsync.a
	$(3) $(4) $(CROSS_CPPFLAGS) $$< $(2)/libirqsync.a $(5) -o $$@
.PHONY: cross-barrier-$(1)
cross-barrier-$(1): $(2)/barrier-probe
	$(PYTHON) tools/cross/barrier_check.py --arch $(6) --objdump $(7) \
	  --lib $(2)/libirqsync.a --json $(2)/barrier.json $$< $(CROSS_BARRIER_FNS)
endef

define CROSS_LINUX_RULES
$(eval $(call CROSS_LIB_RULES,$(CROSS_DIR)/$(1),$(1)-gcc,$(ALL_CFLAGS),hosted,$(1)-ar))
$(eval $(call CROSS_PROBE_RULES,$(1),$(CROSS_DIR)/$(1),$(1)-gcc,$(ALL_CFLAGS) $(CROSS_LDFLAGS),-lpthread,$(call cross_arch,$(1)),$(1)-objdump))
$(foreach w,$(CROSS_WEAK),\
  $(eval $(call CROSS_LIB_RULES,$(CROSS_DIR)/$(1)/$(w),$(1)-gcc,$(ALL_CFLAGS) $(CROSS_FLAGS_$(w)),hosted,$(1)-ar))\
  $(eval $(call CROSS_PROBE_RULES,$(w)-$(1),$(CROSS_DIR)/$(1)/$(w),$(1)-gcc,$(ALL_CFLAGS) $(CROSS_FLAGS_$(w)) $(CROSS_LDFLAGS),-lpthread,$(call cross_arch,$(1)),$(1)-objdump)))
.PHONY: cross-lib-$(1)
cross-lib-$(1): $(CROSS_DIR)/$(1)/libirqsync.a
endef
$(foreach t,$(CROSS_LINUX),$(eval $(call CROSS_LINUX_RULES,$(t))))

# ---- Linux targets: the test suite (what tests/suites/20-unit.sh and the stress suite run on
# the host, minus the sanitizer builds, which qemu-user cannot host) ----
# Test libraries: <flavour>:<extra CFLAGS, @ for space>. "default" is the shipping library.
CROSS_TEST_LIBS := debug:-DIRQSYNC_TESTING@-DIRQSYNC_DEBUG \
                   hooks:-DIRQSYNC_TESTING@-DIRQSYNC_STEP_HOOKS \
                   mutant-nowait:-DIRQSYNC_TESTING@-DIRQSYNC_TEST_VARIANT=4
# Test programs, as mk/test.mk builds them on the host:
#   <binary>:<source>:<library flavour>:<extra CFLAGS, @ for space>
CROSS_TEST_PROGS := unit:tests/unit/unit.c:default: \
                    unit-debug:tests/unit/debug.c:debug:-DIRQSYNC_TESTING@-DIRQSYNC_DEBUG \
                    unit-steps:tests/unit/steps.c:hooks:-DIRQSYNC_TESTING@-DIRQSYNC_STEP_HOOKS \
                    stress:tests/stress/stress.c:default: \
                    stress-mutant-nowait:tests/stress/stress.c:mutant-nowait:-DIRQSYNC_TESTING@-DIRQSYNC_TEST_VARIANT=4 \
                    race-v2:tests/race/race.c:default:-Isrc/core
# How tools/cross/cross.py runs them under qemu-user, ";"-separated:
#   <case name>=<kind>:<binary> <args>     kind: tap (TAP cases), exit (one case, exit 0),
#   xfail/<regex> (one case: must exit non-zero with output matching the regex)
# The stress runs are reduced from the host's 10^6 (make test) to CROSS_STRESS_N interrupts.
# The race rounds' v0/v1 (known-bad) builds are not run here: under qemu-user they did not
# show the race within 10 s (spec/targets.md), so they could not serve as expected failures;
# race-v2 runs as a plain "no violation" test.
CROSS_STRESS_N ?= 100000
CROSS_SREQ := REQ-SYNC-1 REQ-SYNC-2 REQ-SYNC-3 REQ-SYNC-4 REQ-DEPTH-1 REQ-LIFECYCLE-5 REQ-DISPATCH-2 REQ-DISPATCH-3 REQ-DISPATCH-8 REQ-LOCK-1
CROSS_TESTS := unit=tap:unit; unit-debug=tap:unit-debug; unit-steps=tap:unit-steps; \
  stress/v2-$(CROSS_STRESS_N)-interrupts-zero-violations [$(CROSS_SREQ)]=exit:stress $(CROSS_STRESS_N) 300; \
  stress/mutant-nowait-detected [REQ-SYNC-1]=xfail/sync_running \[REQ-SYNC-1\] +[1-9]:stress-mutant-nowait $(CROSS_STRESS_N) 300; \
  race/v2-no-violation [REQ-SYNC-3 REQ-SYNC-4]=exit:race-v2 --cap 5
CROSS_TEST_CPPFLAGS := $(CROSS_CPPFLAGS) -Isrc/port/hosted -Itests/harness -Itests/unit
CROSS_TEST_HDRS = $(wildcard tests/unit/*.h tests/harness/*.h tests/stress/*.h tests/race/*.h)

cross_w = $(word $(2),$(subst :, ,$(subst ::,:-:,$(1))))
cross_sp = $(subst @, ,$(filter-out -,$(1)))
cross_libdir = $(if $(filter default,$(2)),$(CROSS_DIR)/$(1),$(CROSS_DIR)/$(1)/$(2))

# $(call CROSS_TEST_RULES,<triple>,<prog spec>)
define CROSS_TEST_RULES
$(CROSS_DIR)/$(1)/tests/$(call cross_w,$(2),1): $(call cross_w,$(2),2) $(call cross_libdir,$(1),$(call cross_w,$(2),3))/libirqsync.a $$(CROSS_TEST_HDRS)
	@mkdir -p $$(@D)
	$(1)-gcc $(ALL_CFLAGS) $(call cross_sp,$(call cross_w,$(2),4)) $(CROSS_TEST_CPPFLAGS) $(CROSS_LDFLAGS) $$< $(call cross_libdir,$(1),$(call cross_w,$(2),3))/libirqsync.a -lpthread -o $$@
CROSS_TEST_BINS_$(1) += $(CROSS_DIR)/$(1)/tests/$(call cross_w,$(2),1)
endef
$(foreach t,$(CROSS_LINUX),\
  $(foreach l,$(CROSS_TEST_LIBS),$(eval $(call CROSS_LIB_RULES,$(CROSS_DIR)/$(t)/$(firstword $(subst :, ,$(l))),$(t)-gcc,$(ALL_CFLAGS) $(call cross_sp,$(lastword $(subst :, ,$(l)))),hosted,$(t)-ar)))\
  $(foreach p,$(CROSS_TEST_PROGS),$(eval $(call CROSS_TEST_RULES,$(t),$(p))))\
  $(eval .PHONY: cross-build-$(t))\
  $(eval cross-build-$(t): $(CROSS_DIR)/$(t)/libirqsync.a $(CROSS_DIR)/$(t)/barrier-probe $$(CROSS_TEST_BINS_$(t))))

.PHONY: print-cross-tests
print-cross-tests:
	@echo '$(CROSS_TESTS)'

# ---- bare metal: Armv7-M (Cortex-M3) on qemu's mps2-an385 ----
BM_DIR      := $(CROSS_DIR)/baremetal-armv7m
BM_CC       := arm-none-eabi-gcc
BM_ARCH     := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
# One CPU (the board has one); the library is freestanding and needs no C library at all.
BM_CFLAGS   := $(ALL_CFLAGS) $(BM_ARCH) -ffreestanding -DIRQSYNC_NR_CPUS=1
BM_LDFLAGS  := $(BM_ARCH) -T tests/baremetal/mps2-an385/link.ld -nostartfiles -nostdlib
BM_TEST_SRC := tests/baremetal/main.c tests/baremetal/semihost.c \
               tests/baremetal/mps2-an385/startup.c tests/baremetal/mps2-an385/board.c
BM_TEST_HDR := $(wildcard tests/baremetal/*.h tests/baremetal/mps2-an385/*.h)
BM_QEMU     := qemu-system-arm -M mps2-an385 -nographic -monitor none -serial none \
               -semihosting-config enable=on,target=native
BM_CORE_OBJS = $(filter-out $(BM_DIR)/obj/port/%,$(call cross_lib_objs,$(BM_DIR),baremetal-armv7m))

$(eval $(call CROSS_LIB_RULES,$(BM_DIR),$(BM_CC),$(BM_CFLAGS),baremetal-armv7m,arm-none-eabi-ar))
$(eval $(call CROSS_PROBE_RULES,baremetal-armv7m,$(BM_DIR),$(BM_CC),$(BM_CFLAGS) $(BM_ARCH) -nostartfiles -nostdlib -e main,-lgcc,armv7m,arm-none-eabi-objdump))
$(foreach w,$(CROSS_WEAK),\
  $(eval $(call CROSS_LIB_RULES,$(BM_DIR)/$(w),$(BM_CC),$(BM_CFLAGS) $(CROSS_FLAGS_$(w)),baremetal-armv7m,arm-none-eabi-ar))\
  $(eval $(call CROSS_PROBE_RULES,$(w)-baremetal-armv7m,$(BM_DIR)/$(w),$(BM_CC),$(BM_CFLAGS) $(CROSS_FLAGS_$(w)) $(BM_ARCH) -nostartfiles -nostdlib -e main,-lgcc,armv7m,arm-none-eabi-objdump)))

$(BM_DIR)/irqsync-test.elf: $(BM_TEST_SRC) $(BM_TEST_HDR) tests/baremetal/mps2-an385/link.ld $(BM_DIR)/libirqsync.a
	$(BM_CC) $(BM_CFLAGS) $(CROSS_CPPFLAGS) -Itests/baremetal $(BM_LDFLAGS) $(BM_TEST_SRC) $(BM_DIR)/libirqsync.a -lgcc -o $@
# The expected-failure image: the real core with the known-bad restore port.
$(BM_DIR)/irqsync-test-mutant.elf: $(BM_TEST_SRC) $(BM_TEST_HDR) tests/baremetal/mutants/port-restore-enables.c $(BM_CORE_OBJS)
	$(BM_CC) $(BM_CFLAGS) $(CROSS_CPPFLAGS) -Itests/baremetal $(BM_LDFLAGS) $(BM_TEST_SRC) tests/baremetal/mutants/port-restore-enables.c $(BM_CORE_OBJS) -lgcc -o $@

.PHONY: cross-lib-baremetal-armv7m cross-baremetal cross-baremetal-mutant cross-build-baremetal-armv7m
cross-lib-baremetal-armv7m: $(BM_DIR)/libirqsync.a
cross-build-baremetal-armv7m: $(BM_DIR)/irqsync-test.elf $(BM_DIR)/barrier-probe
# TAP on stdout; exit status = number of failed cases (semihosting), 101 on a fault.
cross-baremetal: $(BM_DIR)/irqsync-test.elf
	timeout 120 $(BM_QEMU) -kernel $<
cross-baremetal-mutant: $(BM_DIR)/irqsync-test-mutant.elf
	timeout 120 $(BM_QEMU) -kernel $<

.PHONY: cross-barrier
cross-barrier: $(foreach t,$(CROSS_LINUX) baremetal-armv7m,cross-barrier-$(t))

.PHONY: cross
cross: ## cross builds, barrier check, tests under qemu → build/evidence/cross.json
	@$(PYTHON) tools/cross/cross.py all --targets "$(TARGETS)"

# mk/test.mk — host tests of the C library: unit, compile-fail, stress, race, sanitizers.
#
#   make test            unit tests + the full stress run (>= 10^6 interrupts) on the host
#   make unit-tests      build every test program (used by tests/suites/20-unit.sh, 40-stress.sh)
#
# Test libraries are the same sources as build/lib, built by mk/lib.mk's template with test
# flags: a debug build, a step-hook build, the synchronize_irq variants (v0, v1 known-bad;
# naive = lock on every spin, for the benchmark; the no-wait mutant: twins/variants/, each linked
# in place of src/core/sync.c) and the sanitizer builds.
TLIB        := $(BUILD)/libs
TBIN        := $(BUILD)/tests
# -Isrc/core: the step marks (steps.h) are internal to the core and its tests.
TEST_CPPFLAGS = $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) -Isrc/core -Itests/harness -Itests/unit
TESTING     := -DIRQSYNC_TESTING
ASAN_FLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# TSan does not model fences (-Wtsan): the driver-side smp_mb() is invisible to it, which can only
# make it report more, never hide a race of the lock-based protocol.
TSAN_FLAGS  := -O1 -g -fsanitize=thread -Wno-tsan
CFLAGS_NOOPT = $(CSTD) $(WARN)

$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/debug,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_DEBUG,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/hooks,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_STEP_HOOKS,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/v0,$(CC),$(ALL_CFLAGS) $(TESTING),hosted,,$(SYNC_V0)))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/v1,$(CC),$(ALL_CFLAGS) $(TESTING),hosted,,$(SYNC_V1)))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/naive,$(CC),$(ALL_CFLAGS) $(TESTING),hosted,,$(SYNC_NAIVE)))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/asan,$(CC),$(CFLAGS_NOOPT) $(ASAN_FLAGS),hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/tsan,$(CC),$(CFLAGS_NOOPT) $(TSAN_FLAGS),hosted))

UNIT_HDRS := $(wildcard tests/unit/*.h tests/harness/*.h tests/stress/*.h tests/race/*.h) $(IRQSYNC_HDRS)

# $(call TEST_PROG,<binary>,<source>,<library dir>,<extra CFLAGS>)
define TEST_PROG
$(TBIN)/$(1): $(2) $(3)/libirqsync.a $$(UNIT_HDRS)
	@mkdir -p $$(@D)
	$$(CC) $(if $(4),$$(CFLAGS_NOOPT) $(4),$$(ALL_CFLAGS)) $$(TEST_CPPFLAGS) $(2) $(3)/libirqsync.a $$(IRQSYNC_HOST_LIBS) -o $$@
TEST_PROGS += $(TBIN)/$(1)
endef

TEST_PROGS :=
$(eval $(call TEST_PROG,unit,tests/unit/unit.c,$(IRQSYNC_LIB_DIR)))
$(eval $(call TEST_PROG,unit-debug,tests/unit/debug.c,$(TLIB)/debug,-O2 -g $(TESTING) -DIRQSYNC_DEBUG))
$(eval $(call TEST_PROG,unit-steps,tests/unit/steps.c,$(TLIB)/hooks,-O2 -g $(TESTING) -DIRQSYNC_STEP_HOOKS))
$(eval $(call TEST_PROG,unit-asan,tests/unit/unit.c,$(TLIB)/asan,$(ASAN_FLAGS)))
$(eval $(call TEST_PROG,unit-tsan,tests/unit/unit.c,$(TLIB)/tsan,$(TSAN_FLAGS)))
# The threaded handlers' unit tests (tests/unit/thread.c): the same three builds.
$(eval $(call TEST_PROG,unit-thread,tests/unit/thread.c,$(IRQSYNC_LIB_DIR)))
$(eval $(call TEST_PROG,unit-thread-asan,tests/unit/thread.c,$(TLIB)/asan,$(ASAN_FLAGS)))
$(eval $(call TEST_PROG,unit-thread-tsan,tests/unit/thread.c,$(TLIB)/tsan,$(TSAN_FLAGS)))

.PHONY: test-unit
test-unit: $(TBIN)/unit
	$(TBIN)/unit

# The compiler and flags the compile-fail tests use (printed for tests/suites/20-unit.sh).
.PHONY: print-irqsync-cc
print-irqsync-cc:
	@echo '$(CC) $(ALL_CFLAGS) $(IRQSYNC_CPPFLAGS)'

# ---- stress (tests/stress) ----
# The no-wait twin on a port that cannot tell the in-flight state (docs/porting.md): else that
# wait would stand in for the hard wait the twin removes.
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/mutant-nowait,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_PORT_NO_ACTIVE_STATE,hosted,,$(SYNC_NOWAIT)))
$(eval $(call TEST_PROG,stress,tests/stress/stress.c,$(IRQSYNC_LIB_DIR)))
$(eval $(call TEST_PROG,stress-v0,tests/stress/stress.c,$(TLIB)/v0,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=0))
$(eval $(call TEST_PROG,stress-v1,tests/stress/stress.c,$(TLIB)/v1,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=1))
$(eval $(call TEST_PROG,stress-mutant-nowait,tests/stress/stress.c,$(TLIB)/mutant-nowait,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=4))
$(eval $(call TEST_PROG,stress-asan,tests/stress/stress.c,$(TLIB)/asan,$(ASAN_FLAGS)))
$(eval $(call TEST_PROG,stress-tsan,tests/stress/stress.c,$(TLIB)/tsan,$(TSAN_FLAGS)))
$(eval $(call TEST_PROG,stress-naive,tests/stress/stress.c,$(TLIB)/naive,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=3))

# The threaded stress harness (tests/stress/threaded.c): the port's line mask is observed by
# wrapping irqsync_port_line_mask/_unmask at the link (the core calls them across objects).
THREADED_WRAP := -Wl,--wrap=irqsync_port_line_mask -Wl,--wrap=irqsync_port_line_unmask
$(eval $(call TEST_PROG,threaded,tests/stress/threaded.c,$(IRQSYNC_LIB_DIR),$(CFLAGS) $(THREADED_WRAP)))
$(eval $(call TEST_PROG,threaded-asan,tests/stress/threaded.c,$(TLIB)/asan,$(ASAN_FLAGS) $(THREADED_WRAP)))
$(eval $(call TEST_PROG,threaded-tsan,tests/stress/threaded.c,$(TLIB)/tsan,$(TSAN_FLAGS) $(THREADED_WRAP)))
# Its known-bad twins (twins/catalog.yml, edits of src/core/thread.c): the shipped library's
# objects with the twin's thread.c in place of src/core/thread.c (python3 -m tools.twins edit).
THREADED_TWINS := c-thread-wait-nowait
define THREADED_TWIN
$(TLIB)/twin-$(1)/thread.c: src/core/thread.c twins/catalog.yml tools/twins.py
	@mkdir -p $$(@D)
	$$(PYTHON) -m tools.twins edit $(1) $$@ >/dev/null
$(TLIB)/twin-$(1)/libirqsync.a: $(TLIB)/twin-$(1)/thread.c \
    $$(filter-out %/core/thread.o,$$(call irqsync_lib_objs,$(IRQSYNC_LIB_DIR),hosted)) $$(IRQSYNC_HDRS)
	$$(CC) $$(ALL_CFLAGS) $$(IRQSYNC_CPPFLAGS) -Isrc/core -c $$< -o $$(@D)/thread.o
	@rm -f $$@
	$$(AR) rcs $$@ $$(filter %.o,$$^) $$(@D)/thread.o
$$(eval $$(call TEST_PROG,threaded-twin-$(1),tests/stress/threaded.c,$(TLIB)/twin-$(1),$$(CFLAGS) $$(THREADED_WRAP)))
endef
$(foreach t,$(THREADED_TWINS),$(eval $(call THREADED_TWIN,$(t))))

STRESS_INTERRUPTS ?= 1000000
.PHONY: test test-stress
test-stress: $(TBIN)/stress
	$(TBIN)/stress $(STRESS_INTERRUPTS) 600

# make test: the host unit tests and the full stress run (>= 10^6 interrupts).
test: test-unit test-stress

# ---- hardware race demonstration (tests/race) ----
# (race.c reads the descriptor of src/core/internal.h: TEST_CPPFLAGS has -Isrc/core)
$(eval $(call TEST_PROG,race-v0,tests/race/race.c,$(TLIB)/v0,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=0))
$(eval $(call TEST_PROG,race-v1,tests/race/race.c,$(TLIB)/v1,-O2 -g $(TESTING) -DIRQSYNC_TEST_VARIANT=1))
$(eval $(call TEST_PROG,race-v2,tests/race/race.c,$(IRQSYNC_LIB_DIR),-O2 -g))
$(eval $(call TEST_PROG,stress-tsan-mutant,tests/stress/stress.c,$(TLIB)/tsan-mutant,$(TSAN_FLAGS) $(TESTING) -DIRQSYNC_TEST_VARIANT=4))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/tsan-mutant,$(CC),$(CFLAGS_NOOPT) $(TSAN_FLAGS) $(TESTING) -DIRQSYNC_PORT_NO_ACTIVE_STATE,hosted,,$(SYNC_NOWAIT)))

# ---- valgrind DRD run (documented, not in check: ~30 s) ----
# The ticket lock is annotated for DRD in this build only (-DIRQSYNC_VALGRIND, src/core/spinlock.c).
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/valgrind,$(CC),$(CFLAGS_NOOPT) -O1 -g $(TESTING) -DIRQSYNC_VALGRIND,hosted))
$(eval $(call TEST_PROG,stress-valgrind,tests/stress/stress.c,$(TLIB)/valgrind,-O1 -g))
$(TBIN)/desc-layout: tools/bench/desc_layout.c $(IRQSYNC_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(IRQSYNC_CPPFLAGS) -Isrc/core $< -o $@
.PHONY: test-drd
test-drd: $(TBIN)/stress-valgrind $(TBIN)/desc-layout
	@mkdir -p $(EVIDENCE)
	$(TBIN)/desc-layout > $(BUILD)/logs/desc-layout.txt
	valgrind --tool=drd --error-limit=no $(TBIN)/stress-valgrind 20000 300 > $(BUILD)/logs/drd.out 2> $(BUILD)/logs/drd.err; \
	  grep -E 'violations:|interrupts:' $(BUILD)/logs/drd.out; grep 'ERROR SUMMARY' $(BUILD)/logs/drd.err
	$(PYTHON) -m tools.bench.drd_classify $(BUILD)/logs/drd.err $(TBIN)/stress-valgrind $(BUILD)/logs/desc-layout.txt | tee $(EVIDENCE)/drd.txt

# The programs each suite needs (keep this after the last TEST_PROG).
UNIT_PROGS   := $(addprefix $(TBIN)/,unit unit-debug unit-steps unit-asan unit-tsan \
                  unit-thread unit-thread-asan unit-thread-tsan)
STRESS_PROGS := $(addprefix $(TBIN)/,stress stress-mutant-nowait stress-asan stress-tsan \
                  stress-tsan-mutant race-v0 race-v1 race-v2 \
                  threaded threaded-asan threaded-tsan $(addprefix threaded-twin-,$(THREADED_TWINS)))
.PHONY: unit-tests stress-tests all-tests
unit-tests: $(UNIT_PROGS) $(IRQSYNC_LIB) $(TLIB)/v0/libirqsync.a $(TLIB)/hooks/libirqsync.a
stress-tests: $(STRESS_PROGS)
all-tests: $(TEST_PROGS)

# ---- the Linux compatibility suite (tests/compat/, tests/suites/22-compat.sh) ----
$(eval $(call TEST_PROG,compat,tests/compat/genirq.c,$(IRQSYNC_LIB_DIR)))
.PHONY: compat-tests
compat-tests: $(TBIN)/compat

# mk/test.mk — host tests of the C library: unit, compile-fail, stress, race, sanitizers.
#
#   make test            unit tests + the full stress run (>= 10^6 interrupts) on the host
#   make unit-tests      build every test program (used by tests/suites/20-unit.sh, 40-stress.sh)
#
# Test libraries are the same sources as build/lib, built by mk/lib.mk's template with test
# flags: a debug build, a step-hook build, the synchronize_irq variants (v0, v1 known-bad;
# naive = lock on every spin, for the benchmark) and the sanitizer builds.
TLIB        := $(BUILD)/libs
TBIN        := $(BUILD)/tests
TEST_CPPFLAGS = $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) -Itests/harness -Itests/unit
TESTING     := -DIRQSYNC_TESTING
ASAN_FLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
TSAN_FLAGS  := -O1 -g -fsanitize=thread
CFLAGS_NOOPT = $(CSTD) $(WARN)

$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/debug,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_DEBUG,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/hooks,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_STEP_HOOKS,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/v0,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_TEST_VARIANT=0,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/v1,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_TEST_VARIANT=1,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/v2,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_TEST_VARIANT=2,hosted))
$(eval $(call IRQSYNC_LIB_RULES,$(TLIB)/naive,$(CC),$(ALL_CFLAGS) $(TESTING) -DIRQSYNC_TEST_VARIANT=3,hosted))
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

-include mk/test-stress.inc

.PHONY: unit-tests test test-unit
unit-tests: $(TEST_PROGS) $(IRQSYNC_LIB) $(TLIB)/v0/libirqsync.a $(TLIB)/v1/libirqsync.a

test-unit: $(TBIN)/unit
	$(TBIN)/unit

# The compiler and flags the compile-fail tests use (printed for tests/suites/20-unit.sh).
.PHONY: print-irqsync-cc
print-irqsync-cc:
	@echo '$(CC) $(ALL_CFLAGS) $(IRQSYNC_CPPFLAGS)'

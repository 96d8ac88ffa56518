# mk/lib.mk — the library: src/core/*.c + src/port/$(PORT)/*.c → <outdir>/libirqsync.a
#
# One template builds the same sources for any compiler, flags and port, so other fragments
# (cross, bare metal, sanitizers, test variants) build exactly what ships:
#
#   $(eval $(call IRQSYNC_LIB_RULES,<outdir>,<CC>,<CFLAGS>,<PORT>[,<AR>][,<sync source>]))
#       defines the rule for <outdir>/libirqsync.a (objects under <outdir>/obj/);
#       <CFLAGS> replaces $(ALL_CFLAGS) entirely — pass $(ALL_CFLAGS) plus extras yourself.
#       <sync source>, for test libraries only: a file of twins/variants/ linked in place of
#       src/core/sync.c (a known-bad synchronize_irq, REQ-SYNC-6); the shipped tree has none.
#   $(call irqsync_lib_objs,<outdir>,<PORT>[,<sync source>])   the object list, e.g. for a custom link
#
# Include paths every user of the headers needs: $(IRQSYNC_CPPFLAGS) (public headers) and, for
# code that talks to the hosted port itself (tests), $(IRQSYNC_HOSTED_CPPFLAGS).
IRQSYNC_CPPFLAGS        := -Isrc/include
IRQSYNC_HOSTED_CPPFLAGS := -Isrc/port/hosted
IRQSYNC_CORE_SRCS       := $(sort $(wildcard src/core/*.c))
IRQSYNC_HDRS            := $(wildcard src/include/irqsync/*.h src/core/*.h src/port/*.h src/port/*/*.h)
AR                      ?= ar
IRQSYNC_LIB_DIR         := $(BUILD)/lib
IRQSYNC_LIB             := $(IRQSYNC_LIB_DIR)/libirqsync.a
IRQSYNC_HOST_LIBS       := -lpthread

# The shipped wait of synchronize_irq, and the test-only variants that replace it in test
# libraries (<sync source>; here, since fragments read before mk/test.mk use them).
IRQSYNC_SYNC_SRC        := src/core/sync.c
IRQSYNC_VARIANT_HDRS    := $(wildcard twins/variants/*.h)
SYNC_V0                 := twins/variants/sync-v0.c
SYNC_V1                 := twins/variants/sync-v1.c
SYNC_NAIVE              := twins/variants/sync-naive.c
SYNC_NOWAIT             := twins/variants/sync-nowait.c

# $(call irqsync_lib_srcs,<PORT>[,<sync source>])
irqsync_lib_srcs = $(if $(2),$(filter-out $(IRQSYNC_SYNC_SRC),$(IRQSYNC_CORE_SRCS)) $(2),$(IRQSYNC_CORE_SRCS)) \
                   $(sort $(wildcard src/port/$(1)/*.c))
irqsync_lib_objs = $(patsubst twins/%.c,$(1)/obj/twins/%.o,$(patsubst src/%.c,$(1)/obj/%.o,$(call irqsync_lib_srcs,$(2),$(3))))

define IRQSYNC_LIB_RULES
$(1)/obj/%.o: src/%.c $$(IRQSYNC_HDRS)
	@mkdir -p $$(@D)
	$(2) $(3) $$(IRQSYNC_CPPFLAGS) -c $$< -o $$@
$(1)/obj/twins/%.o: twins/%.c $$(IRQSYNC_HDRS) $$(IRQSYNC_VARIANT_HDRS)
	@mkdir -p $$(@D)
	$(2) $(3) $$(IRQSYNC_CPPFLAGS) -c $$< -o $$@
$(1)/libirqsync.a: $$(call irqsync_lib_objs,$(1),$(4),$(6))
	@rm -f $$@
	$(if $(5),$(5),$$(AR)) rcs $$@ $$^
endef

# The host library that ships: default flags, hosted port, the locked re-check (v2).
$(eval $(call IRQSYNC_LIB_RULES,$(IRQSYNC_LIB_DIR),$(CC),$(ALL_CFLAGS),hosted))

.PHONY: lib
lib: $(IRQSYNC_LIB) ## build build/lib/libirqsync.a (host, hosted port)
ALL_TARGETS += lib

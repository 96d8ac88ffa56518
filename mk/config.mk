# Shared configuration: every mk/*.mk fragment includes this first (through the top Makefile).
BUILD      ?= build
EVIDENCE   := $(BUILD)/evidence
PYTHON     ?= python3
JOBS       ?= 2
# CC: make's built-in default is cc, so `CC ?= gcc` would never apply; an explicit CC (command
# line or environment) wins.
ifeq ($(origin CC),default)
CC         := gcc
endif

# One set of warnings for every C build in the project (REQ-IMPL-2).
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wundef -Wpointer-arith -Wcast-align -Wvla -Wformat=2 -Wswitch-enum \
        -Wnull-dereference -Wdouble-promotion
CSTD := -std=c11
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS)

# Fragments append to these: `make` builds ALL_TARGETS, the summary reads EVIDENCE files.
ALL_TARGETS :=

# A make variable computed by a command once, not at every parse: a rule whose target is a
# generated makefile under $(BUILD)/mk/ runs $(call write_mk_var,VAR,command) and the fragment
# -includes it; make remakes it when its prerequisites change, then rereads everything.
write_mk_var = mkdir -p $(@D) && words=$$($(2)) && \
	printf '$(1) := %s\n' "$$(echo $$words)" > $@.tmp && mv $@.tmp $@

# mk/install.mk — install the library for use by other software, and the examples (issue 17).
#
#   make install [PREFIX=/usr/local] [DESTDIR=…]
#        the hosted (Linux, POSIX threads) library: the public headers (irqsync/irqsync.h and the
#        <irqsync/…> headers it includes) and the hosted port's <irqsync_hosted.h> under
#        PREFIX/include, PREFIX/lib/libirqsync.a, PREFIX/lib/pkgconfig/irqsync.pc
#   make install PORT=baremetal-aarch64|baremetal-armv7m [NR_CPUS=1] [CROSS=<prefix>]
#        a bare-metal library, built as `make cross` builds it (compiler prefix, target flags,
#        -ffreestanding, IRQSYNC_NR_CPUS=NR_CPUS), into a libdir of its own:
#        PREFIX/lib/<port>/libirqsync.a and PREFIX/lib/<port>/pkgconfig/irqsync.pc, plus the same
#        file as PREFIX/lib/pkgconfig/irqsync-<port>.pc; the headers are the same as the host's.
#        Its .pc carries cross_compile= and target_cflags= variables (the toolchain prefix and the
#        flags the library was built with), and -DIRQSYNC_NR_CPUS in Cflags. The bare-metal
#        ports' own API, <irqsync_baremetal.h> (the idle loop's irqsync_baremetal_run_threads(),
#        the line-to-controller map), goes to PREFIX/include, shared by every bare-metal port.
#   make uninstall [PORT=…]   remove what `make install` with the same variables installed
#   make examples             stage both installs in build/examples/sysroot, then build and run
#                             the examples against them: on the host (examples/Makefile, flags
#                             from pkg-config only) and on qemu-system-aarch64 (virt, 2 CPUs)
#   make examples-host | examples-baremetal | example-<name> | example-bm-<name>
#
# The examples are built against an installed copy, never the source tree: EX_SYSROOT (default
# build/examples/sysroot) is the DESTDIR they find irqsync in, through PKG_CONFIG_LIBDIR and
# PKG_CONFIG_SYSROOT_DIR. tests/suites/26-examples.sh points it at its own fresh install.
PREFIX     ?= /usr/local
DESTDIR    ?=
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR     ?= $(PREFIX)/lib
PORT       ?= hosted
PKG_CONFIG ?= pkg-config
# No release has been tagged yet; the version the .pc files declare.
IRQSYNC_VERSION ?= 0.1.0

# ---- what gets installed ----
# The public headers: irqsync.h and every <irqsync/…> header it includes, transitively (computed
# when used: a header that irqsync.h stops including stops being installed).
install_incs = $(patsubst <irqsync/%>,%,$(filter <irqsync/%>,$(shell sed -n \
  's|^[[:space:]]*.[[:space:]]*include[[:space:]]*\(<irqsync/[^>]*>\).*|\1|p' \
  $(addprefix src/include/irqsync/,$(1)))))
install_closure = $(if $(filter-out $(2),$(1)),$(call install_closure,$(sort $(1) $(call install_incs,$(1))),$(1)),$(1))
IRQSYNC_PUBLIC_HDRS = $(call install_closure,irqsync.h,)

# Bad variables stop `make install` / `make uninstall` only (PORT is also read by other
# targets, so nothing here may stop a parse).
INSTALL_ERROR :=
ifneq ($(filter /%,$(PREFIX)),$(PREFIX))
INSTALL_ERROR += (PREFIX must be an absolute path, not '$(PREFIX)')
endif
ifeq ($(PORT),hosted)
ifneq ($(origin NR_CPUS),undefined)
INSTALL_ERROR += (NR_CPUS is for the bare-metal ports: the hosted library keeps config.h's IRQSYNC_NR_CPUS)
endif
INSTALL_LIB     := $(IRQSYNC_LIB)
INSTALL_LIBDIR  := $(LIBDIR)
INSTALL_PCNAME  := irqsync
INSTALL_CFLAGS  :=
INSTALL_LIBS    := $(IRQSYNC_HOST_LIBS)
INSTALL_CROSS   :=
INSTALL_TARGET_CFLAGS :=
INSTALL_DESC    := hosted port: CPUs are POSIX threads, interrupts real-time signals
else ifneq ($(and $(filter baremetal-%,$(PORT)),$(BM_$(patsubst baremetal-%,%,$(PORT))_ARCH)),)
# A bare-metal port of mk/cross.mk (BM_<arch>_PFX, BM_<arch>_ARCH), built by mk/lib.mk's
# template with the flags of cross.mk's bare-metal libraries but IRQSYNC_NR_CPUS=$(NR_CPUS).
INSTALL_ARCH    := $(patsubst baremetal-%,%,$(PORT))
NR_CPUS         ?= 1
CROSS           ?= $(BM_$(INSTALL_ARCH)_PFX)
INSTALL_TARGET_CFLAGS := $(strip $(BM_$(INSTALL_ARCH)_ARCH)) -ffreestanding
INSTALL_LIBDIR_BUILD  := $(BUILD)/install/$(PORT)-cpus$(NR_CPUS)-$(patsubst %-,%,$(notdir $(CROSS)))
$(eval $(call IRQSYNC_LIB_RULES,$(INSTALL_LIBDIR_BUILD),$(CROSS)gcc,$(ALL_CFLAGS) $(INSTALL_TARGET_CFLAGS) -DIRQSYNC_NR_CPUS=$(NR_CPUS),$(PORT),$(CROSS)ar))
INSTALL_LIB     := $(INSTALL_LIBDIR_BUILD)/libirqsync.a
INSTALL_LIBDIR  := $(LIBDIR)/$(PORT)
INSTALL_PCNAME  := irqsync-$(PORT)
INSTALL_CFLAGS  := -DIRQSYNC_NR_CPUS=$(NR_CPUS)
INSTALL_LIBS    :=
INSTALL_CROSS   := $(CROSS)
INSTALL_DESC    := $(PORT) port, $(NR_CPUS) CPU(s), freestanding
else
INSTALL_ERROR += (unknown PORT '$(PORT)': hosted $(addprefix baremetal-,$(CROSS_BM_ALL)))
endif
install_check = $(if $(strip $(INSTALL_ERROR)),$(error install: $(strip $(INSTALL_ERROR))))

# The pkg-config template. Paths under PREFIX are written relative to ${prefix}.
install_empty :=
install_sp    := $(install_empty) $(install_empty)
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(patsubst $(PREFIX),$${prefix},$(1)))
define IRQSYNC_PC_TEMPLATE
prefix=@PREFIX@
libdir=@LIBDIR@
includedir=@INCLUDEDIR@
port=@PORT@
cross_compile=@CROSS@
target_cflags=@TARGET_CFLAGS@

Name: irqsync
Description: Linux-style interrupt descriptor layer with synchronize_irq (@DESC@)
Version: @VERSION@
Cflags: -I$${includedir}@CFLAGS@
Libs: -L$${libdir} -lirqsync@LIBS@
endef
export IRQSYNC_PC_TEMPLATE

# DESTDIR-prefixed destinations.
I_INC := $(DESTDIR)$(INCLUDEDIR)
I_LIB := $(DESTDIR)$(INSTALL_LIBDIR)
I_PC  := $(I_LIB)/pkgconfig

.PHONY: install uninstall print-install-headers
install: $(INSTALL_LIB) ## install headers, library and irqsync.pc (PREFIX=, DESTDIR=, PORT=)
	$(install_check)install -d '$(I_INC)/irqsync' '$(I_PC)'
	install -m 644 $(addprefix src/include/irqsync/,$(IRQSYNC_PUBLIC_HDRS)) '$(I_INC)/irqsync/'
	$(if $(filter hosted,$(PORT)),install -m 644 src/port/hosted/irqsync_hosted.h '$(I_INC)/',install -m 644 src/port/shared/irqsync_baremetal.h '$(I_INC)/')
	install -m 644 $(INSTALL_LIB) '$(I_LIB)/libirqsync.a'
	printf '%s\n' "$$IRQSYNC_PC_TEMPLATE" | sed \
	  -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(INSTALL_LIBDIR))|' \
	  -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' -e 's|@PORT@|$(PORT)|' \
	  -e 's|@CROSS@|$(INSTALL_CROSS)|' -e 's|@TARGET_CFLAGS@|$(INSTALL_TARGET_CFLAGS)|' \
	  -e 's|@DESC@|$(INSTALL_DESC)|' -e 's|@VERSION@|$(IRQSYNC_VERSION)|' \
	  -e 's|@CFLAGS@|$(addprefix $(install_sp),$(INSTALL_CFLAGS))|' \
	  -e 's|@LIBS@|$(addprefix $(install_sp),$(INSTALL_LIBS))|' > '$(I_PC)/irqsync.pc'
	$(if $(filter hosted,$(PORT)),,install -d '$(DESTDIR)$(LIBDIR)/pkgconfig' && \
	  install -m 644 '$(I_PC)/irqsync.pc' '$(DESTDIR)$(LIBDIR)/pkgconfig/$(INSTALL_PCNAME).pc')

uninstall: ## remove what `make install` installed (same PREFIX, DESTDIR, PORT)
	$(install_check)rm -f '$(I_LIB)/libirqsync.a' '$(I_PC)/irqsync.pc'
	$(if $(filter hosted,$(PORT)),rm -f '$(I_INC)/irqsync_hosted.h')
	$(if $(filter hosted,$(PORT)),,rm -f '$(DESTDIR)$(LIBDIR)/pkgconfig/$(INSTALL_PCNAME).pc')
	$(if $(filter hosted,$(PORT)),,rmdir '$(I_PC)' '$(I_LIB)' 2>/dev/null || true)
	@# <irqsync_baremetal.h> goes with the last bare-metal library of the prefix
	$(if $(filter hosted,$(PORT)),,if ! ls -d '$(DESTDIR)$(LIBDIR)'/baremetal-*/libirqsync.a 2>/dev/null | grep -q .; then \
	  rm -f '$(I_INC)/irqsync_baremetal.h'; fi)
	@# the headers are shared by every port: they go with the last library of the prefix
	if ! ls -d '$(DESTDIR)$(LIBDIR)'/libirqsync.a '$(DESTDIR)$(LIBDIR)'/*/libirqsync.a 2>/dev/null | grep -q .; then \
	  rm -f $(addprefix '$(I_INC)/irqsync'/,$(IRQSYNC_PUBLIC_HDRS)); rmdir '$(I_INC)/irqsync' 2>/dev/null || true; fi

print-install-headers:
	@echo $(IRQSYNC_PUBLIC_HDRS)

# ---- the examples ----
EX_NAMES    := $(basename $(notdir $(wildcard examples/*.c)))
EX_SYSROOT  ?= $(BUILD)/examples/sysroot
EX_OUT      ?= $(BUILD)/examples
EX_DEFS     ?=
EX_ROOT      = $(abspath $(EX_SYSROOT))
EX_LIB_SRCS  = $(IRQSYNC_HDRS) $(IRQSYNC_CORE_SRCS) mk/install.mk
# pkg-config restricted to the staged install (PKG_CONFIG_LIBDIR replaces the default path, so
# an irqsync installed on this machine cannot be picked up instead).
ex_pkgconfig = env PKG_CONFIG_LIBDIR=$(EX_ROOT)$(1)/pkgconfig PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR=$(EX_ROOT)

# Staging: the two installs the examples use, redone when a library source changes.
EX_BM_PORT  := baremetal-aarch64
EX_BM_CPUS  := 2
$(EX_SYSROOT)$(LIBDIR)/libirqsync.a: $(EX_LIB_SRCS) $(wildcard src/port/hosted/*)
	$(MAKE) --no-print-directory install DESTDIR='$(EX_ROOT)' PORT=hosted
$(EX_SYSROOT)$(LIBDIR)/$(EX_BM_PORT)/libirqsync.a: $(EX_LIB_SRCS) $(wildcard src/port/$(EX_BM_PORT)/* src/port/shared/*)
	$(MAKE) --no-print-directory install DESTDIR='$(EX_ROOT)' PORT=$(EX_BM_PORT) NR_CPUS=$(EX_BM_CPUS)

# Host: examples/Makefile, as a user would run it, with this build's compiler and warnings.
.PHONY: examples examples-host examples-baremetal $(addprefix example-,$(EX_NAMES)) $(addprefix example-bm-,$(EX_NAMES))
$(addprefix example-,$(EX_NAMES)): example-%: $(EX_SYSROOT)$(LIBDIR)/libirqsync.a
	$(call ex_pkgconfig,$(LIBDIR)) $(MAKE) --no-print-directory -C examples run-$* \
	  O='$(abspath $(EX_OUT))/host' CC='$(CC)' CFLAGS='$(ALL_CFLAGS)' EXTRA_CFLAGS='$(EX_DEFS)'

# Bare metal: qemu's virt with two Cortex-A53 (the SMP board of mk/cross.mk), the board code of
# tests/baremetal/, irqsync from the staged baremetal-aarch64 install: compiler, target flags,
# -I, -D and -l all from its irqsync.pc.
EX_BM_BOARD = examples/platform/baremetal.c tests/baremetal/semihost.c $(BM_aarch64_BOOT) $(BM_aarch64_BOARD)/board.c
EX_BM_PC    = $(call ex_pkgconfig,$(LIBDIR)/$(EX_BM_PORT)) $(PKG_CONFIG)
$(EX_OUT)/$(EX_BM_PORT)/%.elf: examples/%.c examples/example.h examples/platform/devices.h $(EX_BM_BOARD) $(wildcard tests/baremetal/*.h) \
                               $(BM_aarch64_BOARD)/link.ld $(EX_SYSROOT)$(LIBDIR)/$(EX_BM_PORT)/libirqsync.a
	@mkdir -p $(@D)
	@pc='$(EX_BM_PC)'; set -- $$($$pc --variable=cross_compile irqsync)gcc $(ALL_CFLAGS) $(EX_DEFS) \
	  $$($$pc --variable=target_cflags irqsync) $$($$pc --cflags irqsync) -Itests/baremetal \
	  $(BM_aarch64_LD) -nostartfiles -nostdlib $< $(EX_BM_BOARD) $$($$pc --libs irqsync) -lgcc -o $@; \
	  echo "$$*"; "$$@"
$(addprefix example-bm-,$(EX_NAMES)): example-bm-%: $(EX_OUT)/$(EX_BM_PORT)/%.elf
	timeout 120 $(SMP_QEMU) $(BM_QEMU_OPTS) -kernel $<

examples-host: $(addprefix example-,$(EX_NAMES))
examples-baremetal: $(addprefix example-bm-,$(EX_NAMES))
examples: ## build and run the examples against a staged install: host, then qemu (aarch64, 2 CPUs)
	$(MAKE) --no-print-directory examples-host
	$(MAKE) --no-print-directory examples-baremetal

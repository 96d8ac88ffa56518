#!/usr/bin/env bash
# 26-examples — irqsync used as a product uses it (issue 17): `make install` into a scratch
# DESTDIR (hosted, and the bare-metal ports), a program built from the install alone through
# pkg-config, and the examples of examples/ built the same way and run on the host and on
# qemu-system-aarch64 (virt, two Cortex-A53). Expected failures: a broken install must break
# the build (nothing comes from the source tree); the quiesce example without its
# synchronize_irq() call, and the threaded example quiescing with synchronize_hardirq(), must
# fail their own checks, on both machines; and the checks of the examples with hard handlers
# must catch the test-only library that does not wait for a running handler.
# Scratch space: $BUILD/install-test/ (BUILD: the build directory, default build; removed first).  Budget: < 1 min (about 30 s).
# check-uses: lib machine   (tools/runtests.py: builds the library under $BUILD; its examples'
# device and CPU threads must race on both cores: beside another group, a wait for a passing
# moment of the race timed out in CI's run of 6ce93a6)
source tests/lib.sh
MAKE="make --no-print-directory"
BD=${BUILD:-build}   # the build directory (make and tools/runtests.py pass BUILD)
T=$BD/install-test
rm -rf "$T"
mkdir -p "$T"
TA=$(cd "$T" && pwd)         # $T as an absolute path (BUILD may be either)
ROOT=$TA/root                # the DESTDIR every case below builds against
PREFIX=/usr/local
INC=$ROOT$PREFIX/include
LIB=$ROOT$PREFIX/lib

# pkg-config that sees only an install under $1 (DESTDIR) / $2 (pkgconfig dir inside it).
pc() { local root=$1 dir=$2; shift 2
  env PKG_CONFIG_LIBDIR="$root$dir" PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR="$root" pkg-config "$@"; }

# ---- the hosted install ----
t_run "install/hosted: make install PREFIX=/usr/local DESTDIR=<scratch>" \
  $MAKE install PREFIX=$PREFIX DESTDIR="$ROOT"

# The headers irqsync.h needs, followed here independently of mk/install.mk.
public_headers() {
  local todo=(irqsync.h) seen=" " h
  while ((${#todo[@]})); do
    h=${todo[0]}; todo=("${todo[@]:1}")
    [[ $seen == *" $h "* ]] && continue
    seen+="$h "; echo "$h"
    todo+=($(sed -n 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*<irqsync/\([^>]*\)>.*|\1|p' "src/include/irqsync/$h"))
  done | sort
}
layout_hosted() {
  local want got
  want=$( { public_headers | sed "s|^|$PREFIX/include/irqsync/|"
            echo "$PREFIX/include/irqsync_hosted.h"; echo "$PREFIX/lib/libirqsync.a"
            echo "$PREFIX/lib/pkgconfig/irqsync.pc"; } | sort)
  got=$(cd "$ROOT" && find . -type f | sed 's|^\.||' | sort)
  echo "installed:"; echo "$got"
  diff <(echo "$want") <(echo "$got") || { echo "layout differs (< expected, > installed)"; return 1; }
  [[ $(echo "$got" | grep -c '/include/irqsync/') -ge 9 ]] || { echo "too few headers"; return 1; }
  local pcf=$LIB/pkgconfig/irqsync.pc
  cat "$pcf"
  grep -qx "prefix=$PREFIX" "$pcf" || { echo "prefix is not the real PREFIX"; return 1; }
  ! grep -qF -e "$ROOT" -e "$PWD" "$pcf" || { echo "the .pc names the DESTDIR or the tree"; return 1; }
  grep -q '^Libs:.* -lirqsync -lpthread' "$pcf" || { echo "Libs lacks -lirqsync -lpthread"; return 1; }
  cmp -s src/include/irqsync/interrupt.h "$INC/irqsync/interrupt.h"
}
t_run "install/hosted: public headers (irqsync.h's include closure), irqsync_hosted.h, libirqsync.a, irqsync.pc with the real PREFIX and -lpthread" \
  layout_hosted

# Each installed header compiles on its own, from the install, in a directory outside the tree.
headers_standalone() {
  local d=$T/hdr h; mkdir -p "$d"
  for h in "$INC"/irqsync/*.h "$INC"/irqsync_hosted.h; do
    h=${h#"$INC"/}
    printf '#define _POSIX_C_SOURCE 200809L\n#include <%s>\n' "$h" >"$d/one.c"
    (cd "$d" && gcc -std=c11 -Wall -Wextra -Werror -I"$INC" -c one.c -o one.o) || { echo "$h"; return 1; }
    echo "compiles alone: $h"
  done
}
t_run "install/hosted: every installed header compiles on its own" headers_standalone

# The consumer program, built from a scratch directory with pkg-config's flags only; every
# -I/-L must point into the DESTDIR, and every irqsync header the compiler read must be the
# installed one (gcc -MD lists them).
consumer_build() { # <DESTDIR> <builddir>
  local root=$1 d=$2 flags f
  rm -rf "$d"; mkdir -p "$d"; cp tests/install/consumer.c "$d/"
  flags=$(pc "$root" "$PREFIX/lib/pkgconfig" --cflags --libs irqsync) || return 1
  echo "pkg-config: $flags"
  for f in $flags; do
    case $f in
      -I*|-L*) [[ ${f:2} == "$root"/* ]] || { echo "flag outside the DESTDIR: $f"; return 1; } ;;
    esac
  done
  (cd "$d" && echo "+ gcc -std=c11 -O2 -Wall -Wextra -Werror -MD consumer.c $flags -o consumer" &&
   gcc -std=c11 -O2 -Wall -Wextra -Werror -MD consumer.c $flags -o consumer) || return 1
  local deps; deps=$(tr ' \\' '\n\n' <"$d/consumer.d" | grep -E 'irqsync' | grep -v '^consumer' || true)
  echo "irqsync headers read:"; echo "$deps"
  [[ -n $deps ]] || { echo "no irqsync header in the dependency list"; return 1; }
  if grep -v "^$root/" <<<"$deps"; then echo "^ read from outside the DESTDIR"; return 1; fi
}
consumer_run() { consumer_build "$ROOT" "$T/consumer" && "$T/consumer/consumer"; }
t_run "install/hosted: pkg-config --cflags --libs irqsync builds a program from the install only, and it runs" \
  consumer_run

# Expected failure: the same build against an install missing one header must fail — if the
# build could reach the source tree, it would still succeed.
broken_install() {
  rm -rf "$T/broken"; cp -a "$ROOT" "$T/broken"
  rm "$TA/broken$PREFIX/include/irqsync/interrupt.h"
  consumer_build "$TA/broken" "$T/consumer-broken"
}
t_run_fail "install/hosted: an install without irqsync/interrupt.h fails the build (the tree is never used)" \
  'irqsync/interrupt\.h: No such file or directory' broken_install

uninstall_all() {
  local r=$TA/uninstall
  $MAKE -s install PREFIX=$PREFIX DESTDIR="$r" >/dev/null &&
  $MAKE -s install PREFIX=$PREFIX DESTDIR="$r" PORT=baremetal-armv7m >/dev/null || return 1
  [[ $(find "$r" -type f | wc -l) -ge 14 ]] || { echo "install put too few files"; return 1; }
  $MAKE uninstall PREFIX=$PREFIX DESTDIR="$r" || return 1
  [[ -f $r$PREFIX/include/irqsync/irqsync.h ]] || { echo "headers went while a library still uses them"; return 1; }
  $MAKE uninstall PREFIX=$PREFIX DESTDIR="$r" PORT=baremetal-armv7m || return 1
  local left; left=$(find "$r" -type f)
  [[ -z $left ]] || { echo "left behind:"; echo "$left"; return 1; }
  [[ ! -d $r$PREFIX/include/irqsync ]] || { echo "include/irqsync left behind"; return 1; }
}
t_run "install/make uninstall removes the hosted and the armv7m install, headers with the last library" uninstall_all

# ---- bare-metal installs: the AArch64 port for two CPUs (the examples' target), Armv7-M ----
t_run "install/baremetal-aarch64: make install PORT=baremetal-aarch64 NR_CPUS=2 into the same DESTDIR" \
  $MAKE install PREFIX=$PREFIX DESTDIR="$ROOT" PORT=baremetal-aarch64 NR_CPUS=2
bm_layout() { # <port> <objdump format> <cpus> <DESTDIR>
  local port=$1 fmt=$2 cpus=$3 root=$4 a b cross
  [[ -f $root$PREFIX/lib/$port/libirqsync.a ]] || { echo "no lib/$port/libirqsync.a"; return 1; }
  cross=$(pc "$root" "$PREFIX/lib/$port/pkgconfig" --variable=cross_compile irqsync)
  [[ -n $cross ]] || { echo "no cross_compile variable"; return 1; }
  a=$("${cross}objdump" -f "$root$PREFIX/lib/$port/libirqsync.a" | grep -m1 'file format')
  echo "$a"
  grep -q "$fmt" <<<"$a" || { echo "not a $fmt library"; return 1; }
  a=$(pc "$root" "$PREFIX/lib/$port/pkgconfig" --cflags --libs irqsync) || return 1
  b=$(pc "$root" "$PREFIX/lib/pkgconfig" --cflags --libs "irqsync-$port") || return 1
  echo "irqsync.pc: $a"; echo "irqsync-$port.pc: $b"
  [[ $a == "$b" ]] || { echo "the two .pc files differ"; return 1; }
  [[ $a == *"-I$root$PREFIX/include "* && $a == *"-L$root$PREFIX/lib/$port "* ]] || { echo "paths"; return 1; }
  [[ $a == *"-DIRQSYNC_NR_CPUS=$cpus"* ]] || { echo "Cflags lack IRQSYNC_NR_CPUS=$cpus"; return 1; }
  [[ $a != *pthread* ]] || { echo "a bare-metal Libs with -lpthread"; return 1; }
  [[ -n $(pc "$root" "$PREFIX/lib/$port/pkgconfig" --variable=target_cflags irqsync) ]] || return 1
  cmp src/port/shared/irqsync_baremetal.h "$root$PREFIX/include/irqsync_baremetal.h" || { echo "no irqsync_baremetal.h"; return 1; }
  command -v "${cross}gcc"
}
t_run "install/baremetal-aarch64: AArch64 library in lib/baremetal-aarch64, irqsync_baremetal.h, irqsync.pc there = irqsync-baremetal-aarch64.pc, IRQSYNC_NR_CPUS=2, its compiler" \
  bm_layout baremetal-aarch64 elf64-littleaarch64 2 "$ROOT"
armv7m_install() {
  local r=$TA/armv7m
  $MAKE install PREFIX=$PREFIX DESTDIR="$r" PORT=baremetal-armv7m && bm_layout baremetal-armv7m elf32-littlearm 1 "$r"
}
t_run "install/baremetal-armv7m: make install PORT=baremetal-armv7m: Arm library, irqsync_baremetal.h, IRQSYNC_NR_CPUS=1" armv7m_install

# ---- the examples: built by examples/Makefile (host) and mk/install.mk (bare metal) from the
# install above, then run; the compile lines must not reach into the tree ----
EX=(EX_SYSROOT=$T/root EX_OUT=$T/examples PREFIX=$PREFIX)
from_install() { # <make target> [make args]: run it; its compile line took irqsync from the install
  local out rc=0
  out=$($MAKE --no-silent "$@" 2>&1) || rc=$?   # the compile lines are read below, even under make -s
  echo "$out"
  ((rc == 0)) || return $rc
  grep -qF -- "-I$ROOT$PREFIX/include" <<<"$out" || { echo "no compile line with the installed headers"; return 1; }
  if grep -E -e '(-I ?|/)(src/include|src/port|tests/harness)|build/lib/' <<<"$out" ||
     grep -F -e "$BD/lib/" -e "$(cd "$BD" && pwd)/lib/" <<<"$out"; then
    echo "^ a compile line reaches into the source tree"; return 1
  fi
  grep -q '^PASS: ' <<<"$out" || { echo "no PASS line"; return 1; }
}
declare -A REQS=(
  [quiesce]="REQ-SYNC-1 REQ-SYNC-3 REQ-SYNC-4"
  [shared_free]="REQ-LIFECYCLE-4 REQ-LIFECYCLE-5 REQ-DISPATCH-4"
  [reconfigure]="REQ-DEPTH-1 REQ-DEPTH-3 REQ-DISPATCH-7"
  [threaded]="REQ-THREAD-1 REQ-THREAD-4 REQ-SYNC-4"
)
for e in quiesce shared_free reconfigure threaded; do
  n="examples/host/$e: built with pkg-config from the install, runs, its check holds [${REQS[$e]}]"
  t_run "$n" from_install "example-$e" "${EX[@]}"
done
for e in quiesce shared_free reconfigure threaded; do
  n="examples/baremetal-aarch64/$e: built from the install's irqsync.pc, runs on qemu-system-aarch64 with 2 CPUs [${REQS[$e]}]"
  t_run "$n" from_install "example-bm-$e" "${EX[@]}"
done

# Expected failures: quiesce without step 2 (synchronize_irq) must catch the running handler.
t_run_fail "examples/host/quiesce without synchronize_irq fails its check [REQ-SYNC-1]" \
  '^FAIL: a handler serviced the chip after the quiesce: [1-9][0-9]* times' \
  $MAKE example-quiesce EX_SYSROOT=$T/root EX_OUT=$T/broken PREFIX=$PREFIX EX_DEFS=-DEXAMPLE_BROKEN_SKIP_SYNC
t_run_fail "examples/baremetal-aarch64/quiesce without synchronize_irq fails its check [REQ-SYNC-1]" \
  '^FAIL: a handler serviced the chip after the quiesce: [1-9][0-9]* times' \
  $MAKE example-bm-quiesce EX_SYSROOT=$T/root EX_OUT=$T/broken PREFIX=$PREFIX EX_DEFS=-DEXAMPLE_BROKEN_SKIP_SYNC

# Expected failures: threaded quiescing its handler thread with synchronize_hardirq(), which
# waits for the hard half only, must catch the thread run still at the chip.
t_run_fail "examples/host/threaded quiesced with synchronize_hardirq fails its check [REQ-THREAD-1 REQ-THREAD-9]" \
  '^FAIL: a thread run serviced the chip after the quiesce: [1-9][0-9]* times' \
  $MAKE example-threaded EX_SYSROOT=$T/root EX_OUT=$T/broken-hardirq PREFIX=$PREFIX EX_DEFS=-DEXAMPLE_BROKEN_HARDIRQ
t_run_fail "examples/baremetal-aarch64/threaded quiesced with synchronize_hardirq fails its check [REQ-THREAD-1 REQ-THREAD-9]" \
  '^FAIL: a thread run serviced the chip after the quiesce: [1-9][0-9]* times' \
  $MAKE example-bm-threaded EX_SYSROOT=$T/root EX_OUT=$T/broken-hardirq PREFIX=$PREFIX EX_DEFS=-DEXAMPLE_BROKEN_HARDIRQ

# Each example's check against the test-only library that does not wait for a running handler
# (twins/variants/sync-nowait.c linked in place of src/core/sync.c by mk/test.mk: the wait behind
# synchronize_irq, disable_irq and free_irq returns at once), built from the tree since that
# library is never installed. Every check must catch it.
nowait() { # <example>
  local d=$T/nowait; mkdir -p "$d"
  $MAKE -s "$BD/libs/mutant-nowait/libirqsync.a" || return 1
  gcc -std=c11 -O2 -g -Wall -Wextra -Werror -Isrc/include -Isrc/port/hosted \
    "examples/$1.c" examples/platform/hosted.c \
    "$BD/libs/mutant-nowait/libirqsync.a" -lpthread -o "$d/$1" || return 1
  timeout 60 "$d/$1"
}
# (The twin variant-sync-nowait of twins/catalog.yml: one killer per example with hard handlers.
# Not threaded: that library keeps the thread wait of synchronize_irq, which alone covers the
# run at the chip, and threaded passes against it.)
for e in quiesce shared_free reconfigure; do
  T_TWIN_ONLY="examples/host/$e " t_twin variant-sync-nowait nowait "$e"
done

# `make examples-host`: the user-facing target stages its own install ($BUILD/examples/sysroot).
t_run "examples/make examples-host stages an install and runs every example on the host" \
  bash -c "$MAKE -s examples-host EX_SYSROOT=$T/staged EX_OUT=$T/staged-out && [[ -f $T/staged$PREFIX/lib/pkgconfig/irqsync.pc ]]"

/* SB+unlock-lock -- an unlock followed by a lock (of another lock) on one CPU.
 * P0: lock s; x=1; unlock s; lock z; r0=y; unlock z    P1: y=1; smp_mb; r1=x
 * exists r0=0 /\ r1=0
 * x86: forbidden (the lock is a locked RMW: it drains the store buffer).  Armv8: forbidden
 * (STLR followed by LDAXR is ordered -- Armv8 release/acquire are RCsc; Pulte et al. 2018
 * "[L]; po; [A]" in ob).  The Linux kernel memory model is weaker here (PowerPC) and calls for
 * smp_mb__after_unlock_lock(); our targets are x86 and Armv8.
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_TSO sb+unlock-lock.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_lock(0, S, LIT); mm_store(0, X, 1, LIT); mm_unlock(0, S, LIT);
	mm_lock(0, Z, LIT); mm_load(0, Y, r[0], LIT); mm_unlock(0, Z, LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_mb(1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

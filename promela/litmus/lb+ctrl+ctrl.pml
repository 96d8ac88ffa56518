/* LB+ctrl+ctrl -- load buffering where each store depends on the load by a branch.
 * exists r0=1 /\ r1=1.  x86: forbidden.  Armv8: forbidden (control dependencies order a load
 * before later stores; Linux litmus-tests/LB+fencembonceonce+ctrlonceonce.litmus family: Never).
 * This is the argument that lets the protocol use bound-at-once loads: every protocol load is
 * followed by a branch on its value before the CPU's next store (spec/memory-models.md).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK lb+ctrl+ctrl.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_load_late(0, X); mm_resolve(0);
	if :: lreg[0] == 1 -> mm_store(0, Y, 1, LIT) :: else fi; DONE(0) }
proctype P1() { mm_load_late(1, Y); mm_resolve(1);
	if :: lreg[1] == 1 -> mm_store(1, X, 1, LIT) :: else fi; DONE(1) }
init { START(run P0(); run P1()); FINAL(lreg[0] == 1 && lreg[1] == 1) }

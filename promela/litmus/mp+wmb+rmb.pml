/* MP+wmb+rmb -- message passing with smp_wmb / smp_rmb.  exists r0=1 /\ r1=0
 * x86: forbidden.  Armv8: forbidden (DMB ISHST / DMB ISHLD; Linux litmus-tests/
 * MP+fencewmbonceonce+fencermbonceonce.litmus: Never).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+wmb+rmb.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_wmb(0); mm_store(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load(1, Y, r[0], LIT); mm_rmb(1); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

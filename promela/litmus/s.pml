/* S -- P0: x=2; y=1   P1: r0=y; x=1   exists r0=1 /\ x=2 (P1's store to x ordered first)
 * x86: forbidden.  Armv8: allowed (P0's stores may reorder; Pulte et al. 2018; Linux
 * litmus-tests/S+poonceonces.litmus: Sometimes).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK s.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 2, LIT); mm_store(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load(1, Y, r[0], LIT); mm_store(1, X, 1, LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && mem[X] == 2) }

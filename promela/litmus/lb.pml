/* LB -- load buffering.  P0: r0=x; y=1   P1: r1=y; x=1   exists r0=1 /\ r1=1
 * x86: forbidden (x86-TSO: loads are not reordered with later stores).  Armv8: allowed
 * (architecturally; Pulte et al. 2018; Linux litmus-tests/LB+poonceonces.litmus: Sometimes).
 * Uses WEAK's late loads (mm_load_late: the value is bound after the later store has gone).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK lb.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_load_late(0, X); mm_store(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load_late(1, Y); mm_store(1, X, 1, LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(lreg[0] == 1 && lreg[1] == 1) }

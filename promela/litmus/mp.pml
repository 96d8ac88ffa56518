/* MP -- message passing.  P0: x=1; y=1   P1: r0=y; r1=x   exists r0=1 /\ r1=0
 * x86: forbidden (stores and loads each stay in order; x86-TSO "MP").  Armv8: allowed (Pulte
 * et al. 2018; Linux litmus-tests/MP+poonceonces.litmus: Sometimes).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load(1, Y, r[0], LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

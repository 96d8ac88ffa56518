/* 2+2W -- P0: x=1; y=2   P1: y=1; x=2   exists x=1 /\ y=1 (each CPU's first store last)
 * x86: forbidden (stores leave the buffer in order).  Armv8: allowed (Pulte et al. 2018;
 * Linux litmus-tests/2+2W+poonceonces.litmus: Sometimes).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK 2+2w.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store(0, Y, 2, LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_store(1, X, 2, LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(mem[X] == 1 && mem[Y] == 1) }

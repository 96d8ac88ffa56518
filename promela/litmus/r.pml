/* R -- P0: x=1; y=1   P1: y=2; r0=x   exists y=2 /\ r0=0
 * x86: allowed (P1's store to y waits in its buffer while it reads x; x86-TSO "R").  Armv8:
 * allowed (Pulte et al. 2018; Linux litmus-tests/R+poonceonces.litmus: Sometimes).
 * VERDICT sc=forbidden tso=allowed weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_TSO r.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 2, LIT); mm_load(1, X, r[0], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(mem[Y] == 2 && r[0] == 0) }

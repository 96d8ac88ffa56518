/* IRIW -- independent reads of independent writes.
 * P0: x=1   P1: y=1   P2: r0=x; r1=y   P3: r2=y; r3=x   exists r0=1 /\ r1=0 /\ r2=1 /\ r3=0
 * x86: forbidden (TSO is multi-copy atomic, loads in order).  Armv8: allowed with plain loads
 * (the loads of each reader may be satisfied out of order; Pulte et al. 2018 "IRIW";
 * Linux litmus-tests/IRIW+poonceonces+OnceOnce.litmus: Sometimes).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK iriw.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 4
#include "lib.pml"
byte q2, q3;
proctype P0() { mm_store(0, X, 1, LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); DONE(1) }
proctype P2() { mm_load(2, X, r[2], LIT); mm_load(2, Y, q2, LIT); DONE(2) }
proctype P3() { mm_load(3, Y, r[3], LIT); mm_load(3, X, q3, LIT); DONE(3) }
init { START(run P0(); run P1(); run P2(); run P3());
       FINAL(r[2] == 1 && q2 == 0 && r[3] == 1 && q3 == 0) }

/* MP+rel+acq -- message passing with store-release / load-acquire.  exists r0=1 /\ r1=0
 * x86: forbidden.  Armv8: forbidden (STLR/LDAR; Linux litmus-tests/
 * MP+pooncerelease+poacquireonce.litmus: Never).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+rel+acq.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store_rel(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load_acq(1, Y, r[0], LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

/* MP+rel+po -- release on the writer, plain loads on the reader.  exists r0=1 /\ r1=0
 * x86: forbidden.  Armv8: allowed (the reader's loads may be satisfied out of order; Pulte et
 * al. 2018; Linux litmus-tests/MP+pooncerelease+poonceonce style: Sometimes).
 * This test needs WEAK's early loads: with HIST=1 the model wrongly forbids it.
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+rel+po.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store_rel(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_load(1, Y, r[0], LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

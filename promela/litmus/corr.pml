/* CoRR -- coherence of two reads.  P0: x=1   P1: r0=x; r1=x   exists r0=1 /\ r1=0
 * x86: forbidden.  Armv8: forbidden (coherence; Linux litmus-tests/CoRR+poonceonce+Once.litmus:
 * Never).  Pins WEAK's early loads: they may not go back past what the CPU already read.
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK corr.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
byte q1;
proctype P0() { mm_store(0, X, 1, LIT); DONE(0) }
proctype P1() { mm_load(1, X, r[1], LIT); mm_load(1, X, q1, LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[1] == 1 && q1 == 0) }

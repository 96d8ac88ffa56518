/* SB+mb+mb -- store buffering with smp_mb on both sides.  exists r0=0 /\ r1=0
 * x86: forbidden (mfence; x86-TSO "SB+mfences").  Armv8: forbidden (DMB ISH; Linux
 * tools/memory-model/litmus-tests/SB+fencembonceonces.litmus: Never).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK sb+mb+mb.pml && gcc -o pan pan.c && ./pan   (forbidden: errors: 0)
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_mb(0, LIT); mm_load(0, Y, r[0], LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_mb(1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

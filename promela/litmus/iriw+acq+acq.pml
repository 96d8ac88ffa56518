/* IRIW+acq+acq -- IRIW with acquire loads first on both readers.  Same outcome as IRIW.
 * x86: forbidden.  Armv8: forbidden (Armv8 is multi-copy atomic since 2017: the two writes
 * are seen in one order; Pulte et al. POPL 2018; Linux IRIW+fencembonceonces+OnceOnce: Never).
 * POWER allows it (non-MCA): out of scope, spec/memory-models.md.
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK iriw+acq+acq.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 4
#include "lib.pml"
byte q2, q3;
proctype P0() { mm_store(0, X, 1, LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); DONE(1) }
proctype P2() { mm_load_acq(2, X, r[2], LIT); mm_load(2, Y, q2, LIT); DONE(2) }
proctype P3() { mm_load_acq(3, Y, r[3], LIT); mm_load(3, X, q3, LIT); DONE(3) }
init { START(run P0(); run P1(); run P2(); run P3());
       FINAL(r[2] == 1 && q2 == 0 && r[3] == 1 && q3 == 0) }

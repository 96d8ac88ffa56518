/* SB+mb+po -- store buffering with smp_mb on one side only.  exists r0=0 /\ r1=0
 * x86: allowed (P1's store may still sit in its buffer; x86-TSO).  Armv8: allowed (Pulte et
 * al. 2018; barriers pair -- one fence orders nothing for the other CPU).  This is the shape of
 * the 2007 bug: the driver's smp_mb had no partner on the interrupt path.
 * VERDICT sc=forbidden tso=allowed weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_TSO sb+mb+po.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_mb(0, LIT); mm_load(0, Y, r[0], LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

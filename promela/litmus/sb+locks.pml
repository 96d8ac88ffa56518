/* SB+locks -- store buffering with both sides inside the same spinlock.
 * P0: lock s; x=1; r0=y; unlock s    P1: lock s; y=1; r1=x; unlock s    exists r0=0 /\ r1=0
 * x86: forbidden.  Armv8: forbidden (critical sections of one lock are ordered: the second
 * holder's acquire sees the first holder's release and every store before it; Linux
 * memory-barriers.txt "ACQUIRING FUNCTIONS"; litmus-tests/MP+polocks.litmus: Never).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5 REQ-LOCK-1
 * Run: spin -a -DMM_WEAK sb+locks.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_lock(0, S, LIT); mm_store(0, X, 1, LIT); mm_load(0, Y, r[0], LIT); mm_unlock(0, S, LIT); DONE(0) }
proctype P1() { mm_lock(1, S, LIT); mm_store(1, Y, 1, LIT); mm_load(1, X, r[1], LIT); mm_unlock(1, S, LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

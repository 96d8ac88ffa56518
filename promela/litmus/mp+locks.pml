/* MP+locks -- message passing through a lock.
 * P0: x=1; lock s; y=1; unlock s    P1: lock s; r0=y; unlock s; r1=x    exists r0=1 /\ r1=0
 * x86: forbidden.  Armv8: forbidden (x=1 is before P0's release; P1's x load is after its
 * acquire; Linux litmus-tests/MP+polocks.litmus: Never).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+locks.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_lock(0, S, LIT); mm_store(0, Y, 1, LIT); mm_unlock(0, S, LIT); DONE(0) }
proctype P1() { mm_lock(1, S, LIT); mm_load(1, Y, r[0], LIT); mm_unlock(1, S, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

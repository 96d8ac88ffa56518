/* MP+wlock -- only the writer is locked; the reader uses plain loads.
 * P0: lock s; x=1; y=1; unlock s    P1: r0=y; r1=x    exists r0=1 /\ r1=0
 * x86: forbidden (MP is forbidden on x86 anyway).  Armv8: allowed (the stores inside the
 * critical section may reorder with each other; the reader has no acquire; Linux
 * litmus-tests/MP+porevlocks-style reasoning, Pulte et al. 2018).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+wlock.pml && gcc -o pan pan.c && ./pan
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_lock(0, S, LIT); mm_store(0, X, 1, LIT); mm_store(0, Y, 1, LIT); mm_unlock(0, S, LIT); DONE(0) }
proctype P1() { mm_load(1, Y, r[0], LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

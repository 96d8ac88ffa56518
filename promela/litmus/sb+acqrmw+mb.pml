/* SB+acqrmw+mb -- store buffering where one side has an acquire RMW (atomic_fetch_add_acquire,
 * the ticket of spin_lock) between its store and its load instead of a fence.
 * P0: x=1; t=fetch_add_acquire(z, 1); r0=y    P1: y=1; smp_mb; r1=x      exists r0=0 /\ r1=0
 * x86: forbidden (lock xadd is a full fence, whatever order C asked for).  Armv8: allowed
 * (LDADDA / LDAXR+STXR: an acquire orders only later accesses, "[A]; po" in ob, Pulte et al.
 * 2018; the store to x is not ordered before it).  The partner test with the fully ordered
 * atomic_fetch_add, sb+rmw+mb.pml, is forbidden on both: the two tell mm_fetch_add_acq from
 * mm_fetch_add (spec/refinement.yml, LOCK_TICKET).
 * VERDICT sc=forbidden tso=forbidden weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK sb+acqrmw+mb.pml && gcc -o pan pan.c && ./pan   (allowed: assertion violated)
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { byte t; mm_store(0, X, 1, LIT); mm_fetch_add_acq(0, Z, 1, t, LIT);
	mm_load(0, Y, r[0], LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_mb(1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

/* SB+rmw+mb -- store buffering where one side has a fully ordered RMW (atomic_fetch_add, value
 * returned: Linux's full-barrier semantics) between its store and its load.
 * P0: x=1; t=fetch_add(z, 1); r0=y    P1: y=1; smp_mb; r1=x      exists r0=0 /\ r1=0
 * x86: forbidden (lock xadd drains the store buffer).  Armv8: forbidden (LDADDAL, or the
 * LL/SC loop followed by DMB ISH; Linux tools/memory-model: a value-returning atomic is a
 * full barrier, like SB+fencembonceonces).  Partner of sb+acqrmw+mb.pml (allowed on Armv8).
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK sb+rmw+mb.pml && gcc -o pan pan.c && ./pan   (forbidden: errors: 0)
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { byte t; mm_store(0, X, 1, LIT); mm_fetch_add(0, Z, 1, t, LIT);
	mm_load(0, Y, r[0], LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_mb(1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

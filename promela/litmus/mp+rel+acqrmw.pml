/* MP+rel+acqrmw -- message passing where the reader's acquire is an acquire RMW
 * (atomic_fetch_add_acquire, as the ticket of spin_lock) instead of a load-acquire.
 * P0: x=1; store_release(y, 1)    P1: r0=fetch_add_acquire(y, 0); r1=x    exists r0=1 /\ r1=0
 * x86: forbidden (lock xadd; loads stay in order).  Armv8: forbidden (STLR; LDADDA or LDAXR:
 * the acquire orders the later load, "[A]; po" in ob -- Linux MP+pooncerelease+poacquireonce
 * with the acquire made an RMW).  The half of the acquire RMW that sb+acqrmw+mb.pml does not
 * test: later accesses are ordered after it.
 * VERDICT sc=forbidden tso=forbidden weak=forbidden
 * REQ-MM-5
 * Run: spin -a -DMM_WEAK mp+rel+acqrmw.pml && gcc -o pan pan.c && ./pan   (forbidden: errors: 0)
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_store_rel(0, Y, 1, LIT); DONE(0) }
proctype P1() { mm_fetch_add_acq(1, Y, 0, r[0], LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 1 && r[1] == 0) }

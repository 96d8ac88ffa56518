/* SB -- store buffering.  P0: x=1; r0=y   P1: y=1; r1=x   exists r0=0 /\ r1=0
 * x86: allowed (Owens/Sarkar/Sewell, x86-TSO, TPHOLs 2009, test "SB"; Intel SDM 8.2.3.4).
 * Armv8: allowed (Pulte et al., POPL 2018; Linux tools/memory-model/litmus-tests/
 * SB+poonceonces.litmus: Sometimes).
 * VERDICT sc=forbidden tso=allowed weak=allowed
 * REQ-MM-5
 * Run: spin -a -DMM_TSO sb.pml && gcc -o pan pan.c && ./pan   (allowed: "assertion violated")
 */
#define NCPU 2
#include "lib.pml"
proctype P0() { mm_store(0, X, 1, LIT); mm_load(0, Y, r[0], LIT); DONE(0) }
proctype P1() { mm_store(1, Y, 1, LIT); mm_load(1, X, r[1], LIT); DONE(1) }
init { START(run P0(); run P1()); FINAL(r[0] == 0 && r[1] == 0) }

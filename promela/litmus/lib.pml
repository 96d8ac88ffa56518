/*
 * promela/litmus/lib.pml -- common harness of the litmus tests (REQ-MM-5).
 * A test defines NCPU, includes this file, writes proctypes P0..P<NCPU-1> that end with
 * DONE(me), and an init:  init { START(run P0(); run P1()); FINAL(<relaxed outcome>) }.
 * FINAL waits until every CPU has finished and every buffer has drained, then asserts that the
 * relaxed outcome was NOT observed:  "assertion violated" = the outcome is reachable (allowed),
 * no error = it is unreachable (forbidden).  The header line "VERDICT sc=.. tso=.. weak=.."
 * states what the real machines give; tools/model/matrix.py fails the check on a disagreement.
 */
#define NADDR 4
#define NH 4
#define X 0
#define Y 1
#define Z 2
#define S 3        /* a lock */
mtype = { LIT };
#include "../mm/mm.pml"

byte r[4];         /* registers of plain and acquire loads, one per CPU (r[me]) */
bit done[NCPU];

#define DONE(me) done[me] = 1
#define DR(c) (NCPU <= c || (done[c] && MM_DRAINED(c)))
#define START(runs) atomic { mm_start(); runs }
#define FINAL(outcome) (DR(0) && DR(1) && DR(2) && DR(3)); assert(!(outcome))

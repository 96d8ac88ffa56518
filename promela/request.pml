/*
 * promela/request.pml -- concurrent request_irq on one line (REQ-LIFECYCLE-2): exclusive and
 * shared actions, -EBUSY, under each memory model of promela/mm/.
 *
 * One run:  spin -a -DMM_TSO request.pml && gcc -DSAFETY -o pan pan.c && ./pan
 *     or:   python3 tools/model/run1.py --model promela/request.pml MM_TSO
 * Parameters (-D):
 *   MM_SC | MM_TSO | MM_WEAK    memory model
 *   NCPU=2..3                   CPUs, each calling request_irq once (default 3)
 *   REQ_BUG=1                   known-bad: the compatibility check reads the chain before taking
 *                               the descriptor lock (check-then-act race)
 *   REQ_BUG=2                   known-bad: the check looks at the new action's flag only
 *
 * The line may start empty or with one action (exclusive or shared: chosen by SPIN).  Each CPU
 * requests one action of its own, exclusive or IRQF_SHARED (chosen by SPIN).  The chain is one
 * word (R6 of spec/memory-models.md): bit c = action c installed (c = CPU, 3 = the initial
 * action), bit 4 + c = action c carries IRQF_SHARED.  As in src/core/manage.c, the check and
 * the install run under the descriptor lock (REQ_LOCK, REQ_INSTALL, REQ_UNLOCK).
 */
#ifndef NCPU
#define NCPU 3
#endif
#ifndef REQ_BUG
#define REQ_BUG 0
#endif
#define CHAIN   0
#define DLOCK   1
#define NADDR   2
#define NH      1
#define EBUSY   16
mtype = { REQ_LOCK, REQ_INSTALL, REQ_UNLOCK, BUG_UNLOCKED_CHECK };
#include "mm/mm.pml"

#define ACTS(x)     ((x) & 15)
#define SHARED(x)   ((x) >> 4)
#define NACT(x)     (((x) & 1) + (((x) >> 1) & 1) + (((x) >> 2) & 1) + (((x) >> 3) & 1))
/* may an action (sh = carries IRQF_SHARED) join a line whose chain is x? */
#if REQ_BUG == 2
#define MAY_JOIN(x, sh) (ACTS(x) == 0 || (sh))          /* seeded bug: the new flag only */
#else
#define MAY_JOIN(x, sh) (ACTS(x) == 0 || ((sh) && SHARED(x) == ACTS(x)))
#endif
/* the property: more than one action only if all of them are shared */
#define LINE_OK(x)  (NACT(ACTS(x)) <= 1 || SHARED(x) == ACTS(x))
#define RIGHT(x, sh) (ACTS(x) == 0 || ((sh) && SHARED(x) == ACTS(x)))  /* the rule, never seeded */

/* ghost state */
bit  excl_broken;          /* an install made a line with an exclusive action and another */
byte ret[NCPU];            /* request_irq's result per CPU: 0, EBUSY; 1 = not returned yet */
bit  want_sh[NCPU];        /* the CPU's request carries IRQF_SHARED */
bit  done[NCPU];

inline request_irq(me, sh, c, r) {
#if REQ_BUG == 1
	mm_load(me, CHAIN, c, BUG_UNLOCKED_CHECK);                /* seeded bug: checked without the lock */
	r = (MAY_JOIN(c, sh) -> 0 : EBUSY);
	atomic { mm_lock(me, DLOCK, REQ_LOCK); mm_load_locked(me, CHAIN, c, REQ_LOCK) }
#else
	/* lock + the load right after it, one step (exact: R1 of spec/memory-models.md) */
	atomic { mm_lock(me, DLOCK, REQ_LOCK); mm_load_locked(me, CHAIN, c, REQ_LOCK);
		r = (MAY_JOIN(c, sh) -> 0 : EBUSY) }
#endif
	if
	:: r == 0 ->
		atomic { mm_store(me, CHAIN, c | (1 << me) | (sh << (4 + me)), REQ_INSTALL);
			/* REQ-LIFECYCLE-2: an exclusive action is alone on its line */
			excl_broken = !LINE_OK(c | (1 << me) | (sh << (4 + me)));
			assert(!excl_broken) }
	:: else                                          /* -EBUSY: the chain is not touched */
	fi;
	atomic { mm_unlock(me, DLOCK, REQ_UNLOCK); ret[me] = r; r = 0; c = 0; sh = 0 }
}

proctype cpu(byte me) {
	byte c, r;
	bit sh;
	atomic { sh = want_sh[me] }
	request_irq(me, sh, c, r);
	done[me] = 1
}

#define DR(k) (NCPU <= k || (done[k] && MM_DRAINED(k)))
/* the end: every request has returned and every store has drained */
#define FINAL_OK(k) (NCPU <= k || \
	(ret[k] == 0 && ((mem[CHAIN] >> k) & 1)) || \
	(ret[k] == EBUSY && !((mem[CHAIN] >> k) & 1) && \
	 !RIGHT(mem[CHAIN] & ~((1 << k) | (1 << (4 + k))), want_sh[k])))

init {
	atomic {
		/* the line: empty, one exclusive action, or one shared action (action 3) */
		if
		:: mem[CHAIN] = 0
		:: mem[CHAIN] = 8
		:: mem[CHAIN] = 8 | 128
		fi;
		/* each CPU's request: exclusive or IRQF_SHARED */
		mm_k = 0;
		do
		:: mm_k < NCPU ->
			if :: want_sh[mm_k] = 0 :: want_sh[mm_k] = 1 fi;
			ret[mm_k] = 1; mm_k++
		:: else -> break
		od;
		mm_k = 0;
		mm_start();
		do
		:: mm_k < NCPU -> run cpu(mm_k); mm_k++
		:: else -> break
		od;
		mm_k = 0
	}
	(DR(0) && DR(1) && DR(2));
	/* REQ-LIFECYCLE-2: the line is consistent; a request succeeded iff its action is on the
	 * line, and returned -EBUSY only if the line (as it ended: chains only grow here) was
	 * incompatible with it -- an exclusive action on it, or the request itself exclusive */
	assert(LINE_OK(mem[CHAIN]));
	assert(FINAL_OK(0) && FINAL_OK(1) && FINAL_OK(2))
}

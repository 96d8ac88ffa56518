/*
 * promela/irqsync.pml -- N CPUs, L interrupt lines, the descriptor layer of irq.pml, and the
 * driver scenarios whose guarantees spec/requirements.md states.
 *
 * What is checked, for which requirements, and where it must fail: promela/properties.yml
 * (the matrix of tools/model/matrix.py reads it).
 * One run (what tools/model/matrix.py does for each row of the matrix):
 *   spin -a -DMM_TSO -DVARIANT=1 -DSCEN=SCEN_SYNC -DCALLER_MB=1 -DNCPU=2 irqsync.pml
 *   gcc -O2 -DSAFETY -DBFS -o pan pan.c && ./pan -m100000
 * or simply:  make model CPUS=2 MM=tso VARIANT=v1
 *
 * Parameters (-D):
 *   MM_SC | MM_TSO | MM_WEAK       memory model (promela/mm/)
 *   VARIANT=0|1|2                  synchronize_irq v0 (original), v1 (smp_mb patch), v2 (locked)
 *   SCEN=SCEN_SYNC|SCEN_FREE|SCEN_DEPTH|SCEN_HAZARD
 *   CALLER_MB=0|1                  SYNC: smp_mb between the flag store and the call
 *   HAZARD_FIX=0|1                 HAZARD: 1 uses spin_lock_irqsave/restore for the inner lock
 *   NCPU=2..8  NLINES=1..2  ARRIVALS=1..4 (per line)  SHARERS=1..2 (handlers on line 0)
 *                                  (the matrix uses 2..5; model-scale and model-swarm up to 8)
 *   PROBE=n                        non-vacuity probe n (see PROBE_IF in irq.pml)
 *   CHECK_SYNC2=1                  SYNC: REQ-SYNC-2, each handler CPU c's n-th completion stores n
 *                                  in WORK(c); the driver checks every WORK(c) (NCPU <= 5)
 *   SYNC2_AFTER_FIRST=1            SYNC-2: the driver starts after reading CPU 1's first completion
 *   SYNC2_CONST=1                  SYNC-2: every completion stores 1 (the old, weak check)
 * CPU 0 runs the scenario (the driver); CPUs 1.. take interrupts.  In the HAZARD scenario CPU 0
 * also takes interrupts whenever its interrupts are enabled.
 */
#define SCEN_SYNC   1
#define SCEN_FREE   2
#define SCEN_DEPTH  3
#define SCEN_HAZARD 4
#ifndef SCEN
#define SCEN SCEN_SYNC
#endif
#ifndef VARIANT
#define VARIANT 2
#endif
#ifndef NCPU
#define NCPU 2
#endif
#if NCPU < 2 || NCPU > 8
#error "NCPU must be 2..8"
#endif
#ifndef NLINES
#define NLINES 1
#endif
#ifndef ARRIVALS
#define ARRIVALS 1
#endif
#ifndef SHARERS
#define SHARERS 1
#endif
#ifndef CALLER_MB
#define CALLER_MB 1
#endif
#ifndef HAZARD_FIX
#define HAZARD_FIX 0
#endif
#ifndef SYNC2_AFTER_FIRST
#define SYNC2_AFTER_FIRST 0     /* CHECK_SYNC2: the driver starts after reading a completion */
#endif
#if SCEN == SCEN_FREE
#define FREE_DEV 0      /* the handler being freed: line 0, handler 0 */
#else
#define FREE_DEV 1      /* none */
#endif

bit irq_en[NCPU];       /* local interrupt-enable state (REQ-LOCK-6) */
#ifndef SYMM
#define SYMM 0          /* -DSYMM=1: the symmetry reduction R14 (below) */
#endif

/* the end of a dispatch, in the step of its last unlock: interrupts on again, and (idle CPUs)
 * the promise that the next access is the next D_LOCK, an acquire (mm_viewdead) */
#if SYMM
/* (R14: the same updates in another order inside the one step, ending on a plain assignment, so
 * that the CPU is at the top of its loop right after this step: the if-fi last leaves SPIN a
 * jump state between the two; and the locals the next dispatch starts from are zero) */
#define DISPATCH_END(me, l) \
	if :: me != 0 -> mm_viewdead(me) :: else fi; \
	assert(acts == 0 && fl == 0); irq_en[me] = 1; busy--; st = 0; l = 0
#else
#define DISPATCH_END(me, l) \
	irq_en[me] = 1; busy--; st = 0; l = 0; \
	if :: me != 0 -> mm_viewdead(me) :: else fi
#endif

/* Known-bad twin of R2 (tests/suites/30-model.sh only): -DVIEWDEAD_EARLY=1 makes the promise one
 * access too early, before the dispatch's last unlock (a release store), which the promise's
 * monitor (MM_VIEWS_LIVE, promela/mm/weak.pml) must report. */
#if VIEWDEAD_EARLY
#define VIEWDEAD_BUG(me) if :: me != 0 -> mm_viewdead(me) :: else fi;
#else
#define VIEWDEAD_BUG(me)
#endif

#include "irq.pml"

/*
 * -DSYMM=1: symmetry reduction over the interrupt CPUs 1..NCPU-1 (spec/memory-models.md, R14;
 * model-scale and a few 30-model checks only, never the matrix).  Those CPUs run the same code, and
 * nothing in the model or its properties tells them apart but their index.  A CPU is CLEAN when
 * every part of the state that belongs to it is as at the start: it runs no dispatch (interrupts
 * on, at the top of its loop), holds no lock, its store buffer is empty and its views are dead
 * (MM_CLEAN), and all its ghost state is zero.  Two clean CPUs are interchangeable, so an
 * arrival taken by the higher one leads to the mirror image (the two indices swapped) of the
 * state reached when the lower one takes it: only the lowest clean CPU may take an arrival (any
 * CPU that is not clean still may).  The guard holds for CPU 0 always (it is the driver).
 */
#if SYMM
#define CLEAN(c) (NCPU > (c) && irq_en[c] && MM_CLEAN(c) && inst[c] == 0 && !old[c] && \
	!wrote[c] && wcnt[c] == 0 && !hr[c] && ch_snap[c] == 0 && ch_called[c] == 0 && \
	!((before >> (c)) & 1) && \
	lk_owner[DLOCK(0)] != (c) + 1 && lk_owner[DLOCK(1)] != (c) + 1 && \
	lk_owner[DRVLOCK] != (c) + 1 && lk_owner[OTHLOCK] != (c) + 1)
#define CLEAN_BELOW(me, c) ((me) > (c) && CLEAN(c))
#define SYMM_GUARD(me) && ((me) == 0 || !CLEAN(me) || !(CLEAN_BELOW(me, 1) || \
	CLEAN_BELOW(me, 2) || CLEAN_BELOW(me, 3) || CLEAN_BELOW(me, 4) || CLEAN_BELOW(me, 5) || \
	CLEAN_BELOW(me, 6)))
/* the CPU's own locals are zero whenever it takes an arrival (part of "as at the start") */
#define SYMM_IDLE assert(me == 0 || (l == 0 && st == 0 && acts == 0 && fl == 0));
#else
#define SYMM_GUARD(me)
#define SYMM_IDLE
#endif

/* an interrupt arrives on CPU me (interrupts enabled) and is dispatched there; busy counts
 * the arrivals taken and not yet dispatched to the end */
inline take_irq(me, l, st, acts, fl) {
	if
	/* REQ-DISPATCH-8: the handler runs with the CPU's interrupts off (on again: DISPATCH_END) */
	:: atomic { arr[0] > 0 && irq_en[me] SYMM_GUARD(me) -> SYMM_IDLE STEP(me, IRQ_ARRIVE);
		arr[0]--; unserved[0] = 1; busy++; irq_en[me] = 0; l = 0 }
	:: atomic { NLINES > 1 && arr[1] > 0 && irq_en[me] SYMM_GUARD(me) -> SYMM_IDLE
		STEP(me, IRQ_ARRIVE); arr[1]--; unserved[1] = 1; busy++; irq_en[me] = 0; l = 1 }
	fi;
	handle_irq(me, l, st, acts, fl)
}

/* CPUs 1..NCPU-1: take interrupts until none is left */
proctype cpu(byte me) {
	byte l, st, acts, fl;
end:	do
	:: take_irq(me, l, st, acts, fl)
	od
}

/* everything has settled: no arrival left, no dispatch running, every buffer drained */
#define DRAINED_IF(c) (NCPU <= (c) || MM_DRAINED(c))
#define QUIET (arr[0] == 0 && arr[1] == 0 && busy == 0 && MM_DRAINED(0) && MM_DRAINED(1) && \
	DRAINED_IF(2) && DRAINED_IF(3) && DRAINED_IF(4) && DRAINED_IF(5) && DRAINED_IF(6) && \
	DRAINED_IF(7))

#if SCEN == SCEN_HAZARD
/* an interrupt point of CPU 0: one may be taken here if its interrupts are enabled */
#define IRQ_POINT  if :: take_irq(0, l, st, acts, fl) :: skip fi
#endif

/* CPU 0: the driver */
proctype driver() {
	byte l, st, acts, fl;
	bit flags;
#if SCEN == SCEN_SYNC
	/* the tg3 quiesce pattern (REQ-SYNC-3 with CALLER_MB, REQ-SYNC-4 without) */
#if CHECK_SYNC2 && SYNC2_AFTER_FIRST
	/* the driver starts once it has read CPU 1's first completion: from here on that
	 * (earlier, visible) write is what a stale read of WORK(1) returns, never 0 */
	do
	:: atomic { mm_load(0, WORK(1), fl, DRV_READ_DONE); if :: fl > 0 -> fl = 0; break :: else fi }
	od;
#endif
	mm_store(0, FLAG, 1, DRV_STORE_FLAG);
#if CALLER_MB
	mm_mb(0, DRV_MB);
#endif
	synchronize_irq(0, 0, st);
#if CHECK_SYNC2
	/* REQ-SYNC-2: for every handler CPU l, the write of the last instance the call covered
	 * (begun before it, ended before the return) is visible: WORK(l) reads that value or a
	 * later one of the same CPU (l is free here: the driver's line is the constant 0) */
	l = 1;
	do
	:: atomic { l < NCPU -> mm_load(0, WORK(l), fl, DRV_READ_DONE); assert(fl >= wmust[l]);
		fl = 0; l++ }
	:: else -> l = 0; break
	od;
#endif
#elif SCEN == SCEN_FREE
	free_irq(0, 0, st);                      /* REQ-LIFECYCLE-5 */
#elif SCEN == SCEN_DEPTH
	/* nested disable/enable (REQ-DEPTH-1..3, REQ-DISPATCH-7) */
	disable_irq(0, 0, st);
	disable_irq_nosync(0, 0, st);
	enable_irq(0, 0, st);
	enable_irq(0, 0, st);
#elif SCEN == SCEN_HAZARD
	/* spin_lock_irqsave(&a, flags) */
	IRQ_POINT;
	d_step { STEP(0, IRQ_SAVE); flags = irq_en[0]; irq_en[0] = 0 }
	lock(0, DRVLOCK, LOCK_WAIT);
	/* spin_lock_irq(&b) ... spin_unlock_irq(&b)  (fixed: irqsave/irqrestore) */
	d_step { STEP(0, IRQ_DISABLE); irq_en[0] = 0 }
	lock(0, OTHLOCK, LOCK_WAIT);
	unlock(0, OTHLOCK, UNLOCK);
#if HAZARD_FIX
	d_step { STEP(0, IRQ_RESTORE); irq_en[0] = 0 }  /* restores the state saved: disabled */
#else
	d_step { STEP(0, IRQ_ENABLE); irq_en[0] = 1 }   /* REQ-LOCK-4: too early */
#endif
	IRQ_POINT;
	/* spin_unlock_irqrestore(&a, flags) */
	unlock(0, DRVLOCK, UNLOCK);
	d_step { STEP(0, IRQ_RESTORE); irq_en[0] = flags; flags = 0 }
	IRQ_POINT;
	d_step { PROBE_IF(7, arr[0] == 0) }      /* an interrupt ran on CPU 0 (after the restore) */
#endif
	/* REQ-DISPATCH-2 / REQ-DISPATCH-7: once everything settles, no arrival went unserved */
	QUIET;
	assert(!unserved[0] && !unserved[1]);
#ifdef PROBE
	assert(!probe_hit)
#endif
}

#if SYMM && defined(SYMM_CHECK)
/* R14's premise, checked in every reachable state by a monitor (check runs, -DNOREDUCE): a CPU
 * 1.. with interrupts on is at the top of its loop (its `end` label), and a clean one has its
 * locals at zero -- so two clean CPUs differ in nothing but their index.  pids: init 0, the
 * flushers 1..MM_NFLUSH, the driver, CPUs 1.., this monitor. */
#define CPU_PID(c) (MM_NFLUSH + 1 + (c))
#define PREMISE(c) (NCPU <= (c) || ((!irq_en[c] || cpu[CPU_PID(c)]@end) && \
	(!CLEAN(c) || (cpu[CPU_PID(c)]:l == 0 && cpu[CPU_PID(c)]:st == 0 && \
	cpu[CPU_PID(c)]:acts == 0 && cpu[CPU_PID(c)]:fl == 0 && cpu[CPU_PID(c)]:me == (c)))))
proctype symm_check() {
	assert(PREMISE(1) && PREMISE(2) && PREMISE(3) && PREMISE(4) && PREMISE(5) && PREMISE(6) &&
		PREMISE(7))
}
#endif

/* the SYNC guarantee as a temporal claim (REQ-SYNC-3 / REQ-SYNC-4); checked without -A */
#if defined(LTL_SYNC)
ltl sync { [] !(returned && stale > 0) }
#elif defined(LTL_TERM)
/* REQ-SYNC-5: synchronize_irq returns (under weak fairness, finite arrivals) */
ltl term { <> returned }
#endif

init {
	atomic {
		irq_en[0] = 1; irq_en[1] = 1;
		if :: NCPU > 2 -> irq_en[2] = 1 :: else fi;
		if :: NCPU > 3 -> irq_en[3] = 1 :: else fi;
		if :: NCPU > 4 -> irq_en[4] = 1 :: else fi;
#if NCPU > 5
		/* (CPUs 5..7 by the preprocessor: up to 5 CPUs the set-up steps, and so pan's depth and
		 * its -DBFS state counts, are those of the matrix) */
		irq_en[5] = 1;
#endif
#if NCPU > 6
		irq_en[6] = 1;
#endif
#if NCPU > 7
		irq_en[7] = 1;
#endif
#if SCEN != SCEN_HAZARD
		irq_en[0] = 0;                       /* the driver in the SYNC/FREE/DEPTH scenarios */
#endif
		arr[0] = ARRIVALS;
		if :: NLINES > 1 -> arr[1] = ARRIVALS :: else fi;
		mem[ACT(0)] = (1 << SHARERS) - 1;
		mem[ACT(1)] = 1;
		mm_start();
		/* CPUs 1..: their first access is a D_LOCK (an acquire) */
		mm_i = 1;
		do
		:: mm_i < NCPU -> mm_viewdead(mm_i); mm_i++
		:: else -> break
		od;
		mm_i = 0;
		run driver();
		mm_k = 1;
		do
		:: mm_k < NCPU -> run cpu(mm_k); mm_k++
		:: else -> break
		od;
		mm_k = 0;
#if SYMM && defined(SYMM_CHECK)
		run symm_check();
#endif
	}
}

/*
 * promela/irq.pml -- the interrupt descriptor layer: descriptor lock, dispatch (handle_irq),
 * synchronize_irq v0/v1/v2, disable_irq / disable_irq_nosync / enable_irq, free_irq.
 * Included by promela/irqsync.pml, which defines the CPUs, the scenarios and the properties.
 * Every shared access goes through promela/mm/ (mm_*); every step carries its spec/steps.md name.
 * Ghost state (never read by the protocol) records what the properties talk about.
 */

/* ---- shared memory layout (addresses of mm/): plain-loaded ones first (below NH) ---- */
#define STATUS(l)  (l)          /* status byte of line l: bits below, depth << 3 */
#define FLAG       2            /* the tg3 driver's irq_sync flag (line 0's first handler) */
#define ACT(l)     (3 + (l))    /* action chain of line l: bit s = handler s installed */
#define WORK(c)    (4 + (c))    /* handler CPU c's last write (c = 1..4), read by the driver (REQ-SYNC-2) */
#define NH         9
#define DLOCK(l)   (9 + (l))    /* descriptor lock of line l (only lock/unlock touch it) */
#define DRVLOCK    11           /* a driver lock, taken by line 0's handler (hazard scenario) */
#define OTHLOCK    12           /* another lock (hazard scenario) */
#define NADDR      13

/* who plain-loads what outside a lock_load (R8 of spec/memory-models.md): the status word only
 * the driver's synchronize_irq spin; the flag and the chain only CPUs running handlers (CPU 0
 * too in the hazard scenario, where it takes interrupts) */
#define MM_TRACK(c, a) (((a) < 2 && (c) == 0) || ((a) >= WORK(1) && (a) < NH && (c) == 0) || \
	((a) >= 2 && (a) < WORK(1) && ((c) != 0 || SCEN == SCEN_HAZARD)))

#define INPROGRESS 1
#define PENDING    2
#define DISABLED   4
#define DEPTH1     8            /* depth counts in units of 8 */

mtype = { D_LOCK, D_CHECK, D_SET_PENDING, D_SET_INPROGRESS, D_UNLOCK, D_HANDLER, H_READ_FLAG,
	H_WORK, H_DONE, D_RELOCK, D_CHECK_PENDING, D_CLEAR_PENDING, D_CLEAR_INPROGRESS, D_UNLOCK_END,
	S_MB, S_SPIN_READ, S_LOCK, S_RECHECK, S_UNLOCK, S_RETURN, DRV_STORE_FLAG, DRV_MB, DRV_READ_DONE,
	DIS_LOCK, DIS_DEPTH_INC, DIS_UNLOCK, EN_LOCK, EN_DEPTH_DEC, EN_REPLAY, EN_UNLOCK,
	FREE_LOCK, FREE_UNLINK, FREE_UNLOCK, LOCK_WAIT, UNLOCK,
	IRQ_SAVE, IRQ_RESTORE, IRQ_DISABLE, IRQ_ENABLE, IRQ_ARRIVE };

#include "mm/mm.pml"

/* which SYNC assertions are compiled in (the matrix checks each on its own, so that an expected
 * violation is known to be the one expected) */
#ifndef CHECK_SYNC1
#define CHECK_SYNC1 1
#endif
#ifndef CHECK_FLAG
#define CHECK_FLAG 1
#endif
#ifndef CHECK_SYNC2
#define CHECK_SYNC2 0      /* the handler writes WORK(me); the driver reads them after the return */
#endif
#if CHECK_SYNC2 && NCPU > 5
#error "CHECK_SYNC2: one WORK word per handler CPU, for NCPU <= 5"
#endif
/* -DSYNC2_CONST=1: the old, weak form of the check -- every write stores 1, so an earlier
 * visible write hides a later invisible one (a known-weak twin, spec/memory-models.md) */
#ifndef SYNC2_CONST
#define SYNC2_CONST 0
#endif

/* ---- ghost state ---- */
byte lk_owner[NADDR];       /* REQ-LOCK-1: CPU+1 holding the lock at that address, 0 if free */
byte inst[NCPU];            /* line+1 of the handler instance CPU c runs, 0 if none */
/* CPU c (if there is one) runs an instance of line l; some CPU does; the CPUs that do (bits) */
#define INST_ON(c, l) (NCPU > (c) && inst[c] == (l) + 1)
#define ANY_INST(l) (INST_ON(0, l) || INST_ON(1, l) || INST_ON(2, l) || INST_ON(3, l) || \
	INST_ON(4, l) || INST_ON(5, l) || INST_ON(6, l) || INST_ON(7, l))
#define INST_MASK(l) (INST_ON(0, l) | (INST_ON(1, l) << 1) | (INST_ON(2, l) << 2) | \
	(INST_ON(3, l) << 3) | (INST_ON(4, l) << 4) | (INST_ON(5, l) << 5) | (INST_ON(6, l) << 6) | \
	(INST_ON(7, l) << 7))
bit  old[NCPU];             /* that instance read the driver flag still 0 */
byte stale;                 /* running instances that read the old flag (for the LTL claim) */
byte before;                /* REQ-SYNC-1: CPUs whose instance began before the call began */
bit  insync;                /* synchronize_irq (or the waiting part of disable/free) runs */
bit  returned;              /* ... and has returned */
bit  unserved[2];           /* REQ-DISPATCH-2/7: an arrival no chain pass has served yet */
byte arr[2];                /* arrivals left per line */
byte busy;                  /* CPUs inside handle_irq */
bit  dis_window;            /* REQ-DEPTH-1: between disable_irq's return and the last enable */
byte frun;                  /* REQ-LIFECYCLE-5: CPUs running the handler being freed */
bit  hr[NCPU];              /* ... this CPU is one of them */
/* REQ-SYNC-2 with distinct values: the n-th H_DONE of CPU c stores n in WORK(c), its own word
 * (one writer per word, so coherence order is c's program order and a larger value is later) */
bit  wrote[NCPU];           /* this CPU's running instance has stored WORK(me) */
byte wcnt[NCPU];            /* the H_DONE stores CPU c has made (the last value it wrote) */
byte wneed[NCPU];           /* the last value a covered instance of c wrote and ended with */
byte wmust[NCPU];           /* wneed at the return: the driver must read WORK(c) >= this */
#if SYNC2_CONST
#define WVAL(c) 1
#else
#define WVAL(c) wcnt[c]
#endif
bit  freed;                 /* free_irq has returned */
#ifdef PROBE
bit  probe_hit;             /* non-vacuity probes: assert(!probe_hit) must be violated */
#define PROBE_IF(n, c) if :: PROBE == n && (c) -> probe_hit = 1 :: else fi
#else
#define PROBE_IF(n, c) skip
#endif

/* ---- locks: the mm lock plus the REQ-LOCK-1 ghost owner ---- */
inline lock(lme, llk, lst) {
	atomic { mm_lock(lme, llk, lst);
		assert(lk_owner[llk] == 0);          /* REQ-LOCK-1: mutual exclusion */
		lk_owner[llk] = lme + 1 }
}
inline unlock(lme, llk, lst) {
	atomic { mm_unlock(lme, llk, lst); lk_owner[llk] = 0 }
}
/*
 * lock, then the load right after it, as one step.  Exact (spec/memory-models.md, R1): every
 * store to the loaded address is made under this lock, so nobody can change it between the
 * two, and the acquire already forbids an older value; the two steps only differ in where
 * other CPUs' unrelated steps interleave, which commute with a load of a lock-protected word.
 */
inline lock_load(lme, llk, lst, la, lr, lst2) {
	atomic { lock(lme, llk, lst); mm_load_locked(lme, la, lr, lst2) }
}

/* REQ-DISPATCH-1: the status byte is written only by the holder of the descriptor lock */
inline status_store(sme, sl, sv, sst) {
	atomic { mm_store(sme, STATUS(sl), sv, sst); assert(lk_owner[DLOCK(sl)] == sme + 1) }
}

/* ---- the handlers ---- */
/* handler 0 of line 0: the tg3 pattern -- act (schedule work) only while irq_sync == 0.
 * tg3_first is its first access, run in the step that calls it (run_chain); tg3_rest the rest. */
inline tg3_first(me, fl) {
#if FREE_DEV == 0
	frun++; hr[me] = 1;                  /* the handler free_irq removes runs ... */
#endif
	mm_load(me, FLAG, fl, H_READ_FLAG);
	if
	:: fl == 0 ->
		/* REQ-SYNC-3 / REQ-SYNC-4: no instance reads the old flag after the return */
#if CHECK_FLAG && SCEN == SCEN_SYNC
		assert(!returned);
#endif
		stale = stale + 1 - old[me]; old[me] = 1;  /* count each instance once */
		STEP(me, H_WORK)                 /* it acts on the old flag: the harm */
	:: else
	fi;
	fl = 0
}
inline tg3_rest(me, fl, l, acts) {   /* (called only when it has a step) */
#if CHECK_SYNC2
	/* REQ-SYNC-2: the handler's last write (a completion the driver reads after the return) */
	atomic { wcnt[me]++; mm_store(me, WORK(me), WVAL(me), H_DONE); wrote[me] = 1
#if SCEN != SCEN_HAZARD
		; chain_ghosts(me, l, acts)          /* the next actions' calls ride on it (R13) */
#endif
	}
#endif
#if SCEN == SCEN_HAZARD
	/* the driver's handler takes the driver lock, as the interrupted code may hold it */
	d_step { assert(lk_owner[DRVLOCK] != me + 1) }  /* REQ-LOCK-4: never wait on a lock we hold */
	lock(me, DRVLOCK, LOCK_WAIT);
	atomic { unlock(me, DRVLOCK, UNLOCK); chain_ghosts(me, l, acts) }
#endif
}

/*
 * R9 (spec/memory-models.md): under TSO and WEAK a store only appends to the CPU's own buffer,
 * which no other CPU can see, so a store and the CPU's next access may form one step: any step
 * of another CPU between them commutes with the append and can be moved before it.  Under SC a
 * store writes memory, so there the steps stay apart (SPLIT_SC closes one atomic, opens the next).
 */
#ifdef MM_SC
#define SPLIT_SC } atomic {
#else
#define SPLIT_SC
#endif

/*
 * ---- one pass of the action chain (REQ-DISPATCH-4) ----
 * The chain of line l is a bitmask (R6): bit s = action s, registered s-th (line 0 has SHARERS
 * actions, line 1 one).  A pass takes a snapshot of it (chain_begin, the C core's chain copy in
 * handle.c) and calls every action of the snapshot, lowest bit first, with its own dev_id
 * DEVID(l, s).  Action 0 of line 0 is the tg3 handler (shared accesses); every other action
 * touches no shared data, so calling it is a ghost step.
 * Ghost: ch_snap[c] = the snapshot of the pass CPU c runs, ch_called[c] = the actions it has called.
 * Seeded bugs (known-bad variants, -DCHAIN_BUG=n): 1 stops after the first action (as if the
 * first IRQ_HANDLED ended the pass), 2 walks newest first, 3 passes the first action's dev_id.
 */
#ifndef CHAIN_BUG
#define CHAIN_BUG 0
#endif
#define DEVID(l, s) (2 * (l) + (s) + 1)     /* the dev_id action s of line l registered with */
#if CHAIN_BUG == 2
#define NEXTACT(a) (((a) & 2) -> 1 : 0)     /* seeded bug: newest first */
#else
#define NEXTACT(a) (((a) & 1) -> 0 : 1)     /* registration order: lowest bit first */
#endif
byte ch_snap[NCPU];
byte ch_called[NCPU];
byte ch_s, ch_dev;          /* scratch of chain_call (zeroed before its step ends) */

/* the start of a pass of line l's action chain: read the chain (the snapshot).  Only free_irq
 * writes the chain; elsewhere it is a constant (exact, R10). */
inline chain_begin(me, l, acts) {
#if SCEN == SCEN_FREE
	mm_load(me, ACT(l), acts, D_HANDLER);
#else
	acts = mem[ACT(l)]; STEPV(me, D_HANDLER, ACT(l), acts);
#endif
	ch_snap[me] = acts; ch_called[me] = 0;
	chain_ghosts(me, l, acts);           /* actions before the first with shared accesses */
	unserved[l] = 0;                     /* this pass serves every earlier arrival */
	assert(!(l == 0 && dis_window));     /* REQ-DEPTH-1: no handler while disabled */
	assert(!(l == 0 && freed && (acts & 1))); /* REQ-LIFECYCLE-5: not called again */
	PROBE_IF(3, returned && l == 0)
}
/* call the next action of the pass: acts holds the actions of the snapshot not called yet */
inline chain_call(me, l, acts) {
	ch_s = NEXTACT(acts);
#if CHAIN_BUG == 3
	ch_dev = DEVID(l, NEXTACT(ch_snap[me]));   /* seeded bug: the first action's dev_id */
#else
	ch_dev = DEVID(l, ch_s);
#endif
	/* REQ-DISPATCH-4: the action was registered at the start of the pass ... */
	assert((ch_snap[me] >> ch_s) & 1);
	/* ... is called once, after every action registered before it and before the later ones */
	assert((ch_called[me] >> ch_s) == 0);
	/* ... with its own dev_id */
	assert(ch_dev == DEVID(l, ch_s));
	ch_called[me] = ch_called[me] | (1 << ch_s);
#if CHAIN_BUG == 1
	acts = 0;                            /* seeded bug: the pass ends after one action */
#else
	acts = acts & ~(1 << ch_s);
#endif
	ch_s = 0; ch_dev = 0
}
/* the calls of the actions without shared accesses that come next in the walk: ghost steps,
 * which ride on the CPU's step before them (R13) */
inline chain_ghosts(me, l, acts) {
	do
	:: acts != 0 && !(l == 0 && NEXTACT(acts) == 0) -> chain_call(me, l, acts)
	:: else -> break
	od
}
inline run_chain(me, l, acts, fl) {
	/* chain_begin has called the actions before the first with shared accesses, so the next
	 * one, if any, is the tg3 handler; the calls after it ride on its last step.  (Anything
	 * else left uncalled is caught by chain_end.)  The guard reads locals only (R13). */
	if
	:: acts != 0 && l == 0 && NEXTACT(acts) == 0 ->
#if CHECK_SYNC2 || SCEN == SCEN_HAZARD
		atomic { chain_call(me, l, acts); tg3_first(me, fl) }  /* the call is its first access */
		tg3_rest(me, fl, l, acts)                                /* ends with chain_ghosts */
#else
		atomic { chain_call(me, l, acts); tg3_first(me, fl); chain_ghosts(me, l, acts) }
#endif
	:: else
	fi
}
/* the pass has ended (in the step of the D_RELOCK after it; a ghost step) */
inline chain_end(me) {
	/* REQ-DISPATCH-4: every action of the snapshot was called */
	assert(ch_called[me] == ch_snap[me]);
	ch_called[me] = 0; ch_snap[me] = 0
}

/*
 * handle_irq(me, l): the kernel's flow (__do_IRQ, 2.6.23).  Runs with the CPU's interrupts
 * disabled (REQ-DISPATCH-8: the caller does not deliver another interrupt meanwhile).
 * DISPATCH_END(me, l), defined by the includer, runs in the step of the last unlock (it
 * re-enables the CPU's interrupts and resets st, l; only ghost and CPU-local state).
 */
inline handle_irq(me, l, st, acts, fl) {
	lock_load(me, DLOCK(l), D_LOCK, STATUS(l), st, D_CHECK);
	if
	:: st & (INPROGRESS | DISABLED) ->
		/* busy elsewhere or disabled: leave it to the running instance / enable_irq */
		atomic { status_store(me, l, st | PENDING, D_SET_PENDING);
			SPLIT_SC
			unlock(me, DLOCK(l), D_UNLOCK); DISPATCH_END(me, l) }
	:: else ->
		atomic { status_store(me, l, (st & ~PENDING) | INPROGRESS, D_SET_INPROGRESS);
			/* REQ-DISPATCH-3: one instance per line */
			assert(!ANY_INST(l));
			inst[me] = l + 1;
			SPLIT_SC
			unlock(me, DLOCK(l), D_UNLOCK);
			SPLIT_SC
			chain_begin(me, l, acts) }
		do
		:: run_chain(me, l, acts, fl);
			atomic {
#if FREE_DEV == 0
				frun = frun - hr[me]; hr[me] = 0;   /* ... until the chain pass ends */
#endif
				lock_load(me, DLOCK(l), D_RELOCK, STATUS(l), st, D_CHECK_PENDING);
				chain_end(me) }     /* after the lock: the step must not split at it */
			if
			/* REQ-DISPATCH-2: replay, unless the line was disabled meanwhile: then PENDING
			 * stays for the enable_irq that re-enables it (REQ-DISPATCH-7), as in the C */
			:: (st & (PENDING | DISABLED)) == PENDING ->
				atomic { status_store(me, l, st & ~PENDING, D_CLEAR_PENDING);
					PROBE_IF(2, l == 0);
					SPLIT_SC
					unlock(me, DLOCK(l), D_UNLOCK);
					SPLIT_SC
					chain_begin(me, l, acts) }
			:: else -> break
			fi
		od;
		atomic { status_store(me, l, st & ~INPROGRESS, D_CLEAR_INPROGRESS);
			/* the instance ends here (spec/requirements.md, Terms) */
			inst[me] = 0; stale = stale - old[me]; old[me] = 0;
			/* REQ-SYNC-2 covers the instances of REQ-SYNC-1: begun before the call began */
			if
			:: wrote[me] && (!(insync || returned) || ((before >> me) & 1)) ->
				wneed[me] = WVAL(me)
			:: else
			fi;
			wrote[me] = 0;
			before = before & ~(1 << me);
			SPLIT_SC
			VIEWDEAD_BUG(me) unlock(me, DLOCK(l), D_UNLOCK_END); DISPATCH_END(me, l) }
	fi
}

/* ---- synchronize_irq: v0 original, v1 barrier-only patch, v2 locked re-check ---- */
#ifndef SPIN_HAVOC
#define SPIN_HAVOC 0
#endif
inline sync_spin(me, l, st) {
#if SPIN_HAVOC
	/* spec/memory-models.md, B2: the spin's value only decides WHEN the driver leaves for its
	 * lock and locked re-check, and a process may be delayed at any point: leaving at once
	 * over-approximates every value the spin could read, under any load history (safety runs
	 * of v2 only: the spin then no longer waits, so no liveness claim holds) */
	skip
#else
	do
	:: mm_load(me, STATUS(l), st, S_SPIN_READ);
		if
		:: st & INPROGRESS -> mm_relax(me)   /* cpu_relax() */
		:: else -> break
		fi
	od
#endif
}

inline synchronize_irq(me, l, st) {
	d_step { insync = 1;
		PROBE_IF(1, stale > 0);     /* an instance that read the old flag is still running */
		/* REQ-SYNC-1: the instances that began before the call */
		before = INST_MASK(l) }
#if VARIANT == 1
	mm_mb(me, S_MB);
#endif
#if VARIANT == 2
	do
	:: sync_spin(me, l, st);
		lock_load(me, DLOCK(l), S_LOCK, STATUS(l), st, S_RECHECK);
		unlock(me, DLOCK(l), S_UNLOCK);
		if
		:: st & INPROGRESS -> d_step { PROBE_IF(4, true) }  /* the re-check caught one */
		:: else -> break
		fi
	od;
#else
	sync_spin(me, l, st);
#endif
	st = 0;
	d_step { STEP(me, S_RETURN);
		/* REQ-SYNC-1: every instance that began before the call has ended */
#if CHECK_SYNC1
		assert(before == 0);
#endif
		/* REQ-SYNC-3 / REQ-SYNC-4: no running instance has read the old flag */
#if CHECK_FLAG && SCEN == SCEN_SYNC
		assert(stale == 0);
#endif
		/* REQ-SYNC-2: for every CPU, the write of the last covered instance that ended */
		wmust[1] = wneed[1];
		if :: NCPU > 2 -> wmust[2] = wneed[2] :: else fi;
		if :: NCPU > 3 -> wmust[3] = wneed[3] :: else fi;
		if :: NCPU > 4 -> wmust[4] = wneed[4] :: else fi;
		insync = 0; returned = 1 }
}

/* ---- disable_irq / disable_irq_nosync / enable_irq (REQ-DEPTH-*) ---- */
inline disable_irq_nosync(me, l, st) {
	lock_load(me, DLOCK(l), DIS_LOCK, STATUS(l), st, DIS_DEPTH_INC);
	status_store(me, l, (st + DEPTH1) | DISABLED, DIS_DEPTH_INC);
	unlock(me, DLOCK(l), DIS_UNLOCK);
	st = 0
}
inline disable_irq(me, l, st) {
	disable_irq_nosync(me, l, st);
	synchronize_irq(me, l, st);
	/* REQ-DEPTH-1: from here until the enable, no handler instance of l runs */
	d_step { assert(!ANY_INST(l));
		dis_window = 1 }
}
inline enable_irq(me, l, st) {
	lock_load(me, DLOCK(l), EN_LOCK, STATUS(l), st, EN_DEPTH_DEC);
	assert(st >= DEPTH1);                   /* the scenario keeps it balanced (REQ-DEPTH-4) */
	if
	:: st >= 2 * DEPTH1 -> status_store(me, l, st - DEPTH1, EN_DEPTH_DEC)
	:: else ->
		atomic { status_store(me, l, (st - DEPTH1) & ~(DISABLED | PENDING), EN_DEPTH_DEC);
			dis_window = 0 }
		if
		:: st & PENDING ->
			/* REQ-DISPATCH-7: the held interrupt is raised again (hw_resend_irq) */
			d_step { STEP(me, EN_REPLAY); arr[l]++; PROBE_IF(5, true) }
		:: else
		fi
	fi;
	unlock(me, DLOCK(l), EN_UNLOCK);
	st = 0
}

/* ---- free_irq of handler 0 of line l (REQ-LIFECYCLE-5) ---- */
inline free_irq(me, l, st) {
	lock_load(me, DLOCK(l), FREE_LOCK, ACT(l), st, FREE_UNLINK);
	atomic { mm_store(me, ACT(l), st & ~1, FREE_UNLINK); PROBE_IF(6, frun > 0) }
	unlock(me, DLOCK(l), FREE_UNLOCK);
	synchronize_irq(me, l, st);
	/* the removed handler runs nowhere and will not be called again */
	d_step { assert(frun == 0); freed = 1 }
}

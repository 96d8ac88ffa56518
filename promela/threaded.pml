/*
 * promela/threaded.pml -- threaded interrupt handlers (issue 25, spec/threaded.md): the waker
 * counting a thread episode inside the INPROGRESS window, the handler thread, ONESHOT mask and
 * unmask, synchronize_irq (hard wait, the port's in-flight report, then an acquire read of
 * threads_active with sleep and wake-up), synchronize_hardirq, free_irq of a threaded action,
 * free_irq from the line's own thread.  Every shared access goes through promela/mm/ (SC, TSO,
 * WEAK); every step carries its spec/threaded.md name (T_*, S_*, D_* as spec/refinement.yml).
 *
 * The requirement IDs (REQ-THREAD-n, REQ-ONESHOT-n) are spec/requirements.md's.
 * Cases, figures and the one-command runs: docs/threaded-model.md and
 * tests/suites/31-model-threaded.sh; one run:
 *   python3 -m tools.model.run1 --model promela/threaded.pml MM_WEAK TH_SCEN=1
 *
 * Agents of the memory model (NCPU = 3): CPU 0 the driver (the caller of synchronize_irq /
 * free_irq; in the ONESHOT scenario a second interrupt CPU), CPU 1 takes interrupts, agent 2 is
 * the action's handler thread (it may run on any CPU: its own agent is the weakest placement).
 * One line.  Action 0 is threaded (its thread: agent 2); on the shared line (ONESHOT=0) action 1
 * is a plain action (no thread, no shared access: a ghost call).  The ONESHOT line (ONESHOT=1)
 * has the threaded action alone (sharers must agree on ONESHOT, and ONESHOT needs a thread).
 *
 * Parameters (-D):
 *   MM_SC | MM_TSO | MM_WEAK   memory model
 *   TH_SCEN=1 SYNC      driver: flag = 1; synchronize_irq (SYNC_HARD=1: synchronize_hardirq);
 *                       then reads the thread's last write
 *   TH_SCEN=2 ONESHOT   CPUs 0 and 1 take interrupts on the ONESHOT line (no driver)
 *   TH_SCEN=3 FREE      driver: free_irq(action 0) on the shared line (FREE_WAIT=0: the whole
 *                       line, REQ-THREAD-6; FREE_WAIT=1: the hard half only, Linux 2018-2022)
 *   TH_SCEN=4 SELF      the thread's first run calls free_irq(action 1) of its own line
 *   ONESHOT=0|1  ARRIVALS=1..3  PRIMARY_ND=1 (the primary may return IRQ_HANDLED, not waking)
 *   ONLY_<name>         compile one assertion group alone (below; a failing run names it)
 *   SPIN_HAVOC=1        safety runs: the waiter skips its unlocked spin (an over-approximation)
 *   LTL_TERM | LTL_PEND the liveness claims (run1 --fair; MM_EVENTUAL under WEAK); they make
 *                       the lock FIFO (ghost tickets, FAIR_LOCK), as the C's ticket lock is
 * Known-bad variants: the switches BUG_SELF_COUNT, BUG_FIN_NOWAIT, BUG_NO_UNMASK, BUG_STRAY_BIT,
 * BUG_COUNT_AFTER, BUG_FOLD_NOWAKE, BUG_SELF_FREE, BUG_STOP, BUG_EARLY, BUG_INFLIGHT,
 * BUG_WAIT_RELAXED, BUG_DEC_NOREL, BUG_DEC_EARLY (and SYNC_HARD=1 used where the thread half is
 * needed), each =1.  What each breaks, its Linux commit and the assertion that must catch it are
 * its twin's entry in twins/catalog.yml (python3 -m tools twins list --kind model-switch); the
 * code of each is marked by its switch below.
 */
#ifndef TH_SCEN
#define TH_SCEN 1
#endif
#define SC_SYNC    1
#define SC_ONESHOT 2
#define SC_FREE    3
#define SC_SELF    4
#ifndef ONESHOT
#if TH_SCEN == SC_ONESHOT
#define ONESHOT 1
#else
#define ONESHOT 0
#endif
#endif
#if TH_SCEN == SC_ONESHOT && !ONESHOT
#error "the ONESHOT scenario needs ONESHOT=1"
#endif
#if (TH_SCEN == SC_FREE || TH_SCEN == SC_SELF) && ONESHOT
#error "FREE and SELF run on the shared line (ONESHOT=0)"
#endif
#ifndef ARRIVALS
#define ARRIVALS 2
#endif
#ifndef PRIMARY_ND
#if TH_SCEN == SC_ONESHOT
#define PRIMARY_ND 1      /* the ONESHOT scenario: the primary may handle it without its thread */
#else
#define PRIMARY_ND 0
#endif
#endif
#ifndef SYNC_HARD
#define SYNC_HARD 0
#endif
#ifndef FREE_WAIT
#define FREE_WAIT 0
#endif
/* -DSPIN_HAVOC=1 (safety runs only, as in promela/irq.pml; spec/memory-models.md, B2): the unlocked
 * spin only decides when the waiter goes on to its locked re-check, and a process may be delayed
 * anywhere, so going on at once over-approximates every value the spin could read */
#ifndef SPIN_HAVOC
#define SPIN_HAVOC 0
#endif
#ifndef BUG_SELF_COUNT
#define BUG_SELF_COUNT 0
#endif
#ifndef BUG_FIN_NOWAIT
#define BUG_FIN_NOWAIT 0
#endif
#ifndef BUG_NO_UNMASK
#define BUG_NO_UNMASK 0
#endif
#ifndef BUG_STRAY_BIT
#define BUG_STRAY_BIT 0
#endif
#ifndef BUG_COUNT_AFTER
#define BUG_COUNT_AFTER 0
#endif
#ifndef BUG_FOLD_NOWAKE
#define BUG_FOLD_NOWAKE 0
#endif
#ifndef BUG_SELF_FREE
#define BUG_SELF_FREE 0
#endif
#ifndef BUG_STOP
#define BUG_STOP 0
#endif
#ifndef BUG_EARLY
#define BUG_EARLY 0
#endif
#ifndef BUG_INFLIGHT
#define BUG_INFLIGHT 0
#endif
#ifndef BUG_WAIT_RELAXED
#define BUG_WAIT_RELAXED 0
#endif
#ifndef BUG_DEC_NOREL
#define BUG_DEC_NOREL 0
#endif
#ifndef BUG_DEC_EARLY
#define BUG_DEC_EARLY 0
#endif
/* Which assertions are compiled in: all, or with -DONLY_<name> that one alone (-DONLY_NONE: none,
 * for the LTL runs).  A known-bad run keeps only the property it must break, so that pan reports
 * that one and no other (the way promela/irqsync.pml's CHECK_* do). */
#if defined(ONLY_T1) || defined(ONLY_FLAG) || defined(ONLY_T4) || defined(ONLY_HARD) || \
	defined(ONLY_T9) || defined(ONLY_OS1) || defined(ONLY_OS_RUN) || defined(ONLY_OS_BIT) || \
	defined(ONLY_OS_ONCE) || defined(ONLY_QUIET) || defined(ONLY_T6) || defined(ONLY_NONE)
#define CHK_ALL 0
#else
#define CHK_ALL 1
#endif
#if CHK_ALL || defined(ONLY_T1)
#define CHECK_T1 1      /* REQ-THREAD-1: covered episodes have ended at the return */
#else
#define CHECK_T1 0
#endif
#if CHK_ALL || defined(ONLY_FLAG)
#define CHECK_FLAG 1      /* REQ-THREAD-1, flag form: no run that read the old flag outlives
                             the return, none reads it after it */
#else
#define CHECK_FLAG 0
#endif
#if CHK_ALL || defined(ONLY_T4)
#define CHECK_T4 1      /* REQ-THREAD-4: the covered runs' writes are visible after the return */
#else
#define CHECK_T4 0
#endif
#if CHK_ALL || defined(ONLY_HARD)
#define CHECK_HARD 1      /* REQ-SYNC-1's hard half; REQ-THREAD-10 (in flight) for synchronize_irq */
#else
#define CHECK_HARD 0
#endif
#if CHK_ALL || defined(ONLY_T9)
#define CHECK_T9 1      /* REQ-THREAD-9: synchronize_hardirq's result */
#else
#define CHECK_T9 0
#endif
#if CHK_ALL || defined(ONLY_OS1)
#define CHECK_OS1 1      /* REQ-ONESHOT-1: masked before the primaries run */
#else
#define CHECK_OS1 0
#endif
#if CHK_ALL || defined(ONLY_OS_RUN)
#define CHECK_OS_RUN 1      /* REQ-ONESHOT-3: masked while its thread runs */
#else
#define CHECK_OS_RUN 0
#endif
#if CHK_ALL || defined(ONLY_OS_BIT)
#define CHECK_OS_BIT 1      /* REQ-ONESHOT-3: never unmasked while a bit is set */
#else
#define CHECK_OS_BIT 0
#endif
#if CHK_ALL || defined(ONLY_OS_ONCE)
#define CHECK_OS_ONCE 1      /* REQ-ONESHOT-3: one unmask per masking */
#else
#define CHECK_OS_ONCE 0
#endif
#if CHK_ALL || defined(ONLY_QUIET)
#define CHECK_QUIET 1      /* at quiescence: REQ-THREAD-5, -7, -8, REQ-ONESHOT-3/-4 */
#else
#define CHECK_QUIET 0
#endif
#if CHK_ALL || defined(ONLY_T6)
#define CHECK_T6 1      /* REQ-THREAD-6: free_irq */
#else
#define CHECK_T6 0
#endif

/* synchronize_hardirq, and free_irq's hard-only wait (FREE_WAIT=1), do not claim the thread half:
 * their holding runs leave it out; a run that shows it failing asks for it (-DONLY_T1, ...) */
#if CHK_ALL && (SYNC_HARD || FREE_WAIT)
#undef CHECK_T1
#define CHECK_T1 0
#undef CHECK_FLAG
#define CHECK_FLAG 0
#undef CHECK_T4
#define CHECK_T4 0
#endif

#define NCPU 3
#define DRV  0            /* the driver's CPU */
#define TH   2            /* the handler thread's agent */

/* ---- shared memory: plain-loaded words first (below NH) ---- */
#define STATUS 0          /* INPROGRESS | PENDING (written under DLOCK) */
#define FLAG   1          /* the driver's flag (the tg3 quiesce pattern), read by thread_fn */
#define WORK   2          /* thread_fn's write (run n stores n), read by the driver after the return */
#define TACT   3          /* threads_active (atomic counter) */
#define ACT    4          /* the action chain: bit 0 threaded action, bit 1 plain action */
#define NH     5
#define RUNP   5          /* action 0's run_pending (exchange only; locked read) */
#define MASKW  6          /* oneshot_mask (plain word, only under DLOCK) */
#define DLOCK  7          /* the descriptor lock */
#define NADDR  8

/* who plain-loads what (R8 of spec/memory-models.md; mm_load asserts it): the waiter (the driver,
 * or the thread in SELF) spins on STATUS and reads TACT, WORK; the thread reads FLAG; interrupt
 * CPUs read ACT */
#define MM_TRACK(c, a) ((a) == ACT || (((a) == STATUS || (a) == TACT || (a) == WORK) && \
	((c) == DRV || ((c) == TH && TH_SCEN == SC_SELF))) || ((a) == FLAG && (c) == TH))

#define INPROGRESS 1
#define PENDING    2
#define BIT0       1      /* action 0's thread_bit */
#if ONESHOT || BUG_STRAY_BIT
#define TBIT BIT0         /* (BUG_STRAY_BIT: a bit although the action is not ONESHOT) */
#else
#define TBIT 0
#endif

mtype = { IRQ_ARRIVE, D_LOCK, D_CHECK, D_SET_PENDING, D_SET_INPROGRESS, D_UNLOCK, D_HANDLER,
	D_RELOCK, D_CHECK_PENDING, D_CLEAR_PENDING, D_CLEAR_INPROGRESS, D_UNLOCK_END,
	T_MASK, T_COUNT, T_WAKE, T_FOLD, T_WAKEUP, T_UNMASK, T_READY, T_SLEEP, T_RUN,
	TH_READ_FLAG, TH_WORK,
	T_FIN_LOCK, T_FIN_CHECK, T_FIN_CLEAR, T_FIN_UNLOCK, T_DONE, T_STOP, T_EXIT,
	S_SPIN_READ, S_LOCK, S_RECHECK, S_CHIP, S_UNLOCK, S_THREADS, S_THREADS_SLEEP, S_RETURN,
	DRV_STORE_FLAG, DRV_READ_DONE, FREE_LOCK, FREE_UNLINK, FREE_UNLOCK, FREE_EDEADLK };

#include "mm/mm.pml"

/* ---- ghost state (never read by the protocol) ---- */
byte lk_owner;      /* REQ-LOCK-1: agent+1 holding DLOCK */
bit  irq_en[NCPU];  /* CPU takes interrupts */
byte arr;           /* arrivals left */
byte busy;          /* dispatches under way (arrival taken, not ended) */
byte inst;          /* CPU+1 running the instance (INPROGRESS), 0 if none */
byte infl;          /* CPUs (bits) with a delivered interrupt not yet EOIed */
/* the port's side: the line mask, the chip's in-flight state, the sleep/wake objects */
bit  hw_masked;     /* the line is masked at the controller */
byte chip_act;      /* interrupts delivered and not yet EOIed: what the port reports in flight */
bit  th_armed;      /* the thread announced that it sleeps and was not woken since */
bit  th_stop;       /* free_irq asked the thread to stop */
bit  th_exited;
bit  wq_armed;      /* a waiter announced that it sleeps on threads_active, not woken since */
/* the episode of REQ-THREAD-1/-7/-8: a 0->1 of run_pending, ended after the thread's T_DONE */
bit  gpend;         /* an episode is counted, its run has not begun */
bit  grun;          /* an episode's run is under way (T_RUN .. the end of the episode) */
bit  covpend, covrun;   /* ... and it is covered: counted at the call, or by an instance
                           that began before the call (REQ-THREAD-1) */
byte nep, nrun;     /* episodes counted, runs begun (REQ-THREAD-7) */
bit  stale;         /* the running run read the flag still 0 */
byte wcnt;          /* WORK stores made (run n stores n) */
byte wneed, wmust;  /* REQ-THREAD-4: the last covered run's value (at its end / at the return) */
bit  insync, returned;
byte ibefore;       /* CPUs whose instance had begun (INPROGRESS) at the call */
byte dbefore;       /* CPUs whose interrupt was delivered and not EOIed at the call */
bit  waiting;       /* a waiter sleeps in S_THREADS_SLEEP */
bit  self_wait;     /* the thread waits in its own line's synchronize (REQ-THREAD-5) */
bit  freed;         /* free_irq(action 0) has returned */
bit  self_done;     /* SELF: the thread's free_irq call has returned */
/* set only in the step of the assertion that reports them (0 in every other state) */
bit  os_unmask_twice, os_bit_unmasked, os_run_unmasked;

/* ---- the descriptor lock, with the REQ-LOCK-1 ghost owner ----
 * The test-and-set lock of mm/ is a safe over-approximation for safety (spec/memory-models.md,
 * O1) but lets one CPU take the lock again and again while another waits; the C lock is a ticket
 * lock, FIFO (REQ-LOCK-2, promela/ticket.pml).  The liveness runs (-DFAIR_LOCK, which the LTL
 * claims define) add its order as ghost tickets: the lock goes to the waiters in turn. */
#if defined(LTL_TERM) || defined(LTL_PEND)
#define FAIR_LOCK 1
#endif
#ifdef FAIR_LOCK
byte tk_next, tk_serve, tk[NCPU];
#define TK_TAKE(me) tk[me] = tk_next; tk_next = (tk_next + 1) % 4
#define TK_TURN(me) (tk[me] == tk_serve)
#define TK_DONE(me) tk_serve = (tk_serve + 1) % 4; tk[me] = 0
#else
#define TK_TURN(me) true
#define TK_DONE(me) skip
#endif
inline lock(l_me, l_st) {
#ifdef FAIR_LOCK
	d_step { TK_TAKE(l_me) }
#endif
	atomic { TK_TURN(l_me) -> mm_lock(l_me, DLOCK, l_st);
		assert(lk_owner == 0);                  /* REQ-LOCK-1: mutual exclusion */
		lk_owner = l_me + 1 }
}
inline unlock(u_me, u_st) {
	atomic { mm_unlock(u_me, DLOCK, u_st); lk_owner = 0; TK_DONE(u_me) }
}
/* the lock and the load right after it: one step (exact, R1 of spec/memory-models.md) */
inline lock_load(ll_me, ll_st, ll_a, ll_r, ll_st2) {
	atomic { lock(ll_me, ll_st); mm_load_locked(ll_me, ll_a, ll_r, ll_st2) }
}
/* a word the lock protects is written by its holder only: the status (REQ-DISPATCH-1), the
 * chain, and oneshot_mask (spec/threaded.md section 2, REQ-ONESHOT-2) */
inline locked_store(ls_me, ls_a, ls_v, ls_st) {
	atomic { assert(lk_owner == ls_me + 1); mm_store(ls_me, ls_a, ls_v, ls_st) }
}

/* R9 (as promela/irq.pml): under SC a store writes memory: not merged with the next step */
#ifdef MM_SC
#define SPLIT_SC } atomic {
#else
#define SPLIT_SC
#endif

/* ---- the port: line mask, in-flight report, thread and waiter wake-ups (SC objects, the port's
 * contract; docs/porting.md, checked by the port suite) ---- */
inline port_unmask(pu_me) {
	STEP(pu_me, T_UNMASK);
#if CHECK_OS_ONCE
	/* REQ-ONESHOT-3: unmasked exactly once per masking (never a line that is not masked) */
	os_unmask_twice = !hw_masked;
	assert(!os_unmask_twice);
#endif
	hw_masked = 0
}

/* ---- dispatch (handle_irq, the flow of spec/threaded.md section 3) ---- */
/* the interrupt is done at the controller (EOI): it is no longer in flight */
inline eoi(e_me) {
	chip_act--; infl = infl & ~(1 << e_me); dbefore = dbefore & ~(1 << e_me)
}
inline dispatch_end(de_me) {
	irq_en[de_me] = 1; busy--;
	/* R2: the CPU's next shared access is its next D_LOCK, an acquire */
	mm_viewdead(de_me)
}

/* one pass of the chain: the primaries.  w: action 0's primary returned IRQ_WAKE_THREAD */
inline chain_pass(cp_me, cp_acts, cp_w) {
#if TH_SCEN == SC_FREE
	mm_load(cp_me, ACT, cp_acts, D_HANDLER);           /* the chain snapshot (free_irq writes it) */
#else
	cp_acts = mem[ACT]; STEPV(cp_me, D_HANDLER, ACT, cp_acts);   /* a constant here (R10) */
#endif
	if
	:: cp_acts & 1 ->
#if CHECK_OS1 && ONESHOT
		assert(hw_masked);                   /* REQ-ONESHOT-1: masked before the primaries run */
#endif
#if CHECK_T6
		assert(!freed);                      /* REQ-THREAD-6: a freed action is not called again */
#endif
#if PRIMARY_ND
		if :: cp_w = 1 :: skip fi               /* IRQ_WAKE_THREAD, or IRQ_HANDLED by itself */
#else
		cp_w = 1
#endif
	:: else
	fi;
	cp_acts = 0                                     /* action 1 (plain): no shared access */
}

/* at D_RELOCK, under the lock, inside the instance: T_WAKE, T_COUNT, the mask bit */
inline wake_locked(wl_me, wl_w, wl_r, wl_v) {
	if
	:: wl_w ->
#if !BUG_SELF_COUNT && !BUG_COUNT_AFTER
		/* T_COUNT before T_WAKE: the thread takes the run as soon as run_pending is 1 (its T_RUN
		 * is not under the lock), so its T_DONE must find the episode counted.  Counted after
		 * the exchange (spec/threaded.md's draft order, BUG_COUNT_AFTER), the thread's decrement
		 * can come first: the counter dips below the live episodes, and the increment that
		 * brings it back to 0 wakes no waiter (a lost wake-up, REQ-THREAD-8) */
		mm_fetch_add(wl_me, TACT, 1, wl_v, T_COUNT);
#endif
		atomic { mm_xchg(wl_me, RUNP, 1, wl_r, T_WAKE);
			if
			:: wl_r == 0 ->                      /* a new episode */
#if CHECK_QUIET
				assert(!gpend);                  /* REQ-THREAD-7: one episode per pending run */
#endif
				gpend = 1; nep++;
				if :: insync && ((ibefore >> wl_me) & 1) -> covpend = 1 :: else fi
			:: else                              /* REQ-THREAD-7: folded into the pending run */
			fi }
		if
		:: wl_r == 0 ->
#if BUG_COUNT_AFTER
			mm_fetch_add(wl_me, TACT, 1, wl_v, T_COUNT);   /* known-bad: counted after */
#endif
			if
			:: TBIT != 0 ->
				atomic { mm_load_locked(wl_me, MASKW, wl_v, T_WAKE);
					locked_store(wl_me, MASKW, wl_v | TBIT, T_WAKE);
#if CHECK_OS_BIT && ONESHOT
					/* REQ-ONESHOT-3: never unmasked while a bit is set (a bit is set on a masked line) */
					os_bit_unmasked = !hw_masked;
					assert(!os_bit_unmasked)
#endif
				}
			:: else
			fi
		:: else ->
#if !BUG_SELF_COUNT && !BUG_COUNT_AFTER
			/* folded: our count goes.  The pending run may have been taken and finished since
			 * the exchange, so this decrement can be the one that reaches 0: it wakes the
			 * waiters then, as T_DONE does (without: BUG_FOLD_NOWAKE, a lost wake-up) */
			atomic { mm_fetch_add(wl_me, TACT, -1, wl_v, T_FOLD);
				if :: wl_v == 1 && !BUG_FOLD_NOWAKE -> wq_armed = 0 :: else fi }
#endif
			skip
		fi;
		wl_r = 0; wl_v = 0
	:: else
	fi
}

inline handle_irq(hi_me, hi_st, hi_acts, hi_w, hi_r, hi_v) {
	lock_load(hi_me, D_LOCK, STATUS, hi_st, D_CHECK);
	if
	:: hi_st & INPROGRESS ->
		/* busy elsewhere: the running instance replays it */
		atomic { locked_store(hi_me, STATUS, hi_st | PENDING, D_SET_PENDING); eoi(hi_me);
			SPLIT_SC
			unlock(hi_me, D_UNLOCK); dispatch_end(hi_me) }
	:: else ->
		atomic { locked_store(hi_me, STATUS, (hi_st & ~PENDING) | INPROGRESS, D_SET_INPROGRESS);
			assert(inst == 0);               /* REQ-DISPATCH-3: one instance per line */
			inst = hi_me + 1;
			SPLIT_SC
			unlock(hi_me, D_UNLOCK);
			/* REQ-ONESHOT-1: T_MASK before the chain (a port step; merged: it reads nothing) */
			if :: ONESHOT -> STEP(hi_me, T_MASK); hw_masked = 1 :: else fi }
		do
		:: chain_pass(hi_me, hi_acts, hi_w);
			lock_load(hi_me, D_RELOCK, STATUS, hi_st, D_CHECK_PENDING);
			wake_locked(hi_me, hi_w, hi_r, hi_v);
			if
			:: hi_st & PENDING ->
				atomic { locked_store(hi_me, STATUS, hi_st & ~PENDING, D_CLEAR_PENDING);
					SPLIT_SC
					unlock(hi_me, D_UNLOCK);
					if :: ONESHOT -> STEP(hi_me, T_MASK); hw_masked = 1 :: else fi }
				if
				:: hi_w -> d_step { STEP(hi_me, T_WAKEUP); th_armed = 0; hi_w = 0 }
				:: else
				fi
			:: else -> break
			fi
		od;
		/* the instance ends: unmask a ONESHOT line whose mask is 0 (no thread woken, or all done) */
		atomic { mm_load_locked(hi_me, MASKW, hi_v, D_CLEAR_INPROGRESS);
			locked_store(hi_me, STATUS, hi_st & ~INPROGRESS, D_CLEAR_INPROGRESS);
			inst = 0;
			ibefore = ibefore & ~(1 << hi_me);
#if !BUG_NO_UNMASK
			if :: ONESHOT && hi_v == 0 -> port_unmask(hi_me) :: else fi;
#endif
			eoi(hi_me); hi_v = 0;
			SPLIT_SC
			unlock(hi_me, D_UNLOCK_END) }
		atomic {
			if
			:: hi_w -> STEP(hi_me, T_WAKEUP); th_armed = 0; hi_w = 0
			:: else
			fi;
			dispatch_end(hi_me) }
	fi;
	hi_st = 0
}

/* an interrupt CPU: takes arrivals while the line is not masked (a masked line holds them) */
proctype cpu(byte me) {
	byte st, acts, r, v;
	bit w;
end:	do
	:: atomic { arr > 0 && irq_en[me] && !hw_masked -> STEP(me, IRQ_ARRIVE);
		arr--; busy++; irq_en[me] = 0; chip_act++; infl = infl | (1 << me) }
		handle_irq(me, st, acts, w, r, v)
	od
}

/* ---- the waiter ---- */
/* the hard wait: spin on INPROGRESS, then a locked re-check (and the port's in-flight report) */
inline hard_wait(hw_me, hw_st, hw_chip, hw_ask_chip) {
	do
	:: 
#if !SPIN_HAVOC
		do
		:: mm_load(hw_me, STATUS, hw_st, S_SPIN_READ);
			if
			:: hw_st & INPROGRESS -> mm_relax(hw_me)
			:: else -> break
			fi
		od;
#endif
		atomic { lock_load(hw_me, S_LOCK, STATUS, hw_st, S_RECHECK);
			/* REQ-THREAD-10 (62e0468650c3): synchronize_irq asks the port whether the line is in
			 * flight at the controller, under the lock; synchronize_hardirq does not */
			if :: hw_ask_chip && !BUG_INFLIGHT -> STEP(hw_me, S_CHIP); hw_chip = (chip_act > 0)
			   :: else -> hw_chip = 0 fi }
		unlock(hw_me, S_UNLOCK);
		if
		:: (hw_st & INPROGRESS) || hw_chip -> skip
		:: else -> break
		fi
	od;
	hw_st = 0; hw_chip = 0
}
#if BUG_WAIT_RELAXED
#define LOAD_TACT(me, v, st) mm_load(me, TACT, v, st)      /* known-bad: relaxed */
#else
#define LOAD_TACT(me, v, st) mm_load_acq(me, TACT, v, st)  /* the acquire of spec/threaded.md */
#endif
/* S_THREADS: read threads_active (acquire) until 0, sleeping on the port's wait queue */
inline wait_threads(wt_me, wt_v) {
	LOAD_TACT(wt_me, wt_v, S_THREADS);                   /* the fast path */
	do
	:: wt_v == 0 -> break
	:: else ->
		/* prepare to sleep: announce it, then a full barrier, then test again */
		atomic { wq_armed = 1; mm_mb(wt_me, S_THREADS_SLEEP) }
		LOAD_TACT(wt_me, wt_v, S_THREADS);
		if
		:: wt_v == 0 -> wq_armed = 0
		:: else -> atomic { waiting = 1; STEP(wt_me, S_THREADS_SLEEP) };
			atomic { wq_armed == 0 -> waiting = 0 }     /* woken by a T_DONE */
		fi
	od;
	wt_v = 0
}
/* the call's ghosts: what it must wait for */
inline sync_begin() {
	d_step { insync = 1;
		ibefore = (inst != 0 -> 1 << (inst - 1) : 0);
		dbefore = infl;
		covpend = gpend; covrun = grun }
}
inline sync_end(se_me, se_hard, se_res) {
	d_step { STEP(se_me, S_RETURN);
#if CHECK_HARD
		/* REQ-SYNC-1 (the hard half): every instance begun before the call has ended */
		assert(ibefore == 0);
		/* REQ-THREAD-10: and synchronize_irq, every interrupt in flight at the call */
		assert(se_hard || dbefore == 0);
#endif
#if CHECK_T9
		/* REQ-THREAD-9: synchronize_hardirq's 1 means the thread half holds too */
		assert(!se_hard || !se_res || (!covpend && !covrun));
#endif
#if CHECK_T1
		/* REQ-THREAD-1: every episode counted at the call or by an instance begun before it has
		 * ended (its run finished, finalised, uncounted) */
		assert(!covpend && !covrun);
#endif
#if CHECK_FLAG && TH_SCEN == SC_SYNC
		/* REQ-THREAD-1, flag form: no run that read the old flag is still under way */
		assert(!stale);
#endif
		wmust = wneed; covpend = 0; covrun = 0; ibefore = 0; dbefore = 0;
		insync = 0; returned = 1 }
}
inline synchronize_irq(si_me, si_st, si_v, si_chip) {
	sync_begin();
	hard_wait(si_me, si_st, si_chip, 1);
	wait_threads(si_me, si_v);
	sync_end(si_me, 0, 0)
}
/* returns in res whether no thread episode was active at its look; never sleeps */
inline synchronize_hardirq(sh_me, sh_st, sh_v, sh_chip, sh_res) {
	sync_begin();
	hard_wait(sh_me, sh_st, sh_chip, 0);
	LOAD_TACT(sh_me, sh_v, S_THREADS);
	sh_res = (sh_v == 0); sh_v = 0;
	sync_end(sh_me, 1, sh_res)
}

/* ---- the handler thread ---- */
inline thread_fn(tf_me, tf_fl) {
	atomic { mm_load(tf_me, FLAG, tf_fl, TH_READ_FLAG);
#if CHECK_OS_RUN && ONESHOT
		/* REQ-ONESHOT-3: masked while its thread runs */
		os_run_unmasked = !hw_masked;
		assert(!os_run_unmasked);
#endif
#if CHECK_T6
		assert(!freed);              /* REQ-THREAD-6: the freed action's thread_fn runs no more */
#endif
		if
		:: tf_fl == 0 ->
#if CHECK_FLAG && TH_SCEN == SC_SYNC
			/* REQ-THREAD-1, flag form: a run that begins after the return sees the caller's store */
			assert(!returned);
#endif
			stale = 1
		:: else
		fi; tf_fl = 0 }
	atomic { wcnt++; mm_store(tf_me, WORK, wcnt, TH_WORK) }
}

/* ONESHOT finalisation: wait for INPROGRESS clear; clear the bit unless a run is pending again */
inline finalize(f_me, f_st, f_r, f_v) {
	do
	:: atomic { lock_load(f_me, T_FIN_LOCK, STATUS, f_st, T_FIN_CHECK);
		mm_load_locked(f_me, RUNP, f_r, T_FIN_CHECK) }
		if
#if !BUG_FIN_NOWAIT
		:: f_st & INPROGRESS -> unlock(f_me, T_FIN_UNLOCK); mm_relax(f_me)
#endif
		:: else -> break
		fi
	od;
	if
	:: f_r == 0 ->
		atomic { mm_load_locked(f_me, MASKW, f_v, T_FIN_CLEAR);
			locked_store(f_me, MASKW, f_v & ~TBIT, T_FIN_CLEAR);
			/* unmask when the mask became 0 (the line is never disabled here) */
			if :: (f_v & ~TBIT) == 0 -> port_unmask(f_me) :: else fi }
	:: else                                   /* a new run pending: it keeps the bit */
	fi;
	unlock(f_me, T_FIN_UNLOCK);
	f_st = 0; f_r = 0; f_v = 0
}

/* the end of the episode (ghost) */
inline episode_end() {
	grun = 0; stale = 0;
	if :: covrun -> wneed = wcnt :: else fi;   /* REQ-THREAD-4: a covered run's value */
	covrun = 0
}
/* T_DONE: the decrement (release, fully ordered), then the port wakes the waiters */
inline t_done(td_me, td_v) {
	atomic {
#if BUG_DEC_NOREL
		/* known-bad: an RMW that does not order the thread's earlier stores before it */
		mm_fetch_add_acq(td_me, TACT, -1, td_v, T_DONE);
#else
		mm_fetch_add(td_me, TACT, -1, td_v, T_DONE);
#endif
#if !BUG_DEC_EARLY
		episode_end();
#endif
		/* the counter reached 0: the port wakes the waiters */
		if :: td_v == 1 -> wq_armed = 0 :: else fi }
	td_v = 0
}

/* free_irq(action a) by agent me: unlink under the lock, wait, (action 0) stop its thread */
inline free_irq(fi_me, fi_a, fi_st, fi_v, fi_chip) {
	lock_load(fi_me, FREE_LOCK, ACT, fi_st, FREE_UNLINK);
	atomic { locked_store(fi_me, ACT, fi_st & ~(1 << fi_a), FREE_UNLINK);
		SPLIT_SC unlock(fi_me, FREE_UNLOCK) }
#if FREE_WAIT
	/* the hard half only (Linux 2018-2022) */
	sync_begin(); hard_wait(fi_me, fi_st, fi_chip, 1); sync_end(fi_me, 1, 0);
#else
	synchronize_irq(fi_me, fi_st, fi_v, fi_chip);              /* REQ-THREAD-6: the whole line */
#endif
	if
	:: fi_a == 0 ->
		d_step { STEP(fi_me, T_STOP); th_stop = 1; th_armed = 0 }   /* kthread_stop: wake it ... */
		th_exited;                                               /* ... and wait for its exit */
	:: else
	fi
}

inline run_episode(re_me, re_st, re_r, re_v, re_fl) {
	thread_fn(re_me, re_fl);
#if TH_SCEN == SC_SELF
	/* the first run frees the line's other action from the line's own thread */
	if
	:: !self_done ->
#if BUG_SELF_FREE
		self_wait = 1;                           /* known-bad: it waits for itself */
		free_irq(re_me, 1, re_st, re_v, re_fl);
		self_wait = 0;
#else
		/* REQ-THREAD-5: refused with -EDEADLK, state unchanged (both actions still installed) */
		atomic { lock_load(re_me, FREE_LOCK, ACT, re_st, FREE_EDEADLK);
			assert(re_st == 3);
			unlock(re_me, FREE_UNLOCK) }
#endif
		self_done = 1; re_st = 0
	:: else
	fi;
#endif
#if BUG_DEC_EARLY
	t_done(re_me, re_v);                               /* known-bad: uncounted before finalising */
	if :: ONESHOT -> finalize(re_me, re_st, re_r, re_v) :: else fi;
	d_step { episode_end() }
#else
	if :: ONESHOT -> finalize(re_me, re_st, re_r, re_v) :: else fi;
	t_done(re_me, re_v);
#endif
	mm_viewdead(re_me)                              /* its next access: T_RUN, fully ordered */
}

proctype thread() {
	byte st, r, v, fl;
	bit stopped;
	d_step { STEP(TH, T_READY) }
#if BUG_EARLY
	/* known-bad: the early wake-up was consumed by the start-up, and the thread sleeps before
	 * it first tests run_pending */
	atomic { th_armed = 1; STEP(TH, T_SLEEP) }
	atomic { th_armed == 0 }
#endif
end:	do
	:: /* T_SLEEP: announce the sleep, look at the stop request, test run_pending (T_RUN
	    * exchanges it to 0): a stop seen before a test that finds no run ends the thread; a
	    * counted run is run first, even when stopped (the kernel's order, 519cc8652b3a) */
		atomic { th_armed = 1; stopped = th_stop;
#if BUG_STOP
			/* known-bad: a stopped thread exits at once, its counted run unrun (8707898e22fd) */
			if :: stopped -> goto exit :: else fi;
#endif
			mm_xchg(TH, RUNP, 0, r, T_RUN);
			if
			:: r == 1 -> th_armed = 0;
				/* the episode's run begins: REQ-THREAD-8, a run takes a counted episode */
				assert(gpend);
				gpend = 0; grun = 1; nrun++; covrun = covpend; covpend = 0
			:: else
			fi }
		if
		:: r == 1 ->
			r = 0;
#if BUG_SELF_COUNT
			mm_fetch_add(TH, TACT, 1, v, T_COUNT);  /* known-bad: the thread counts itself */
			v = 0;
#endif
			run_episode(TH, st, r, v, fl)
		:: else ->
			if
			:: stopped -> break                  /* stopped, no run pending: exit */
			:: else -> atomic { STEP(TH, T_SLEEP) };
end_sleep:			atomic { th_armed == 0 }            /* woken (T_WAKEUP, T_STOP) */
			fi
		fi;
		stopped = 0
	od;
exit:	atomic { STEP(TH, T_EXIT); th_exited = 1; stopped = 0 }
}

/* ---- the driver ---- */
proctype driver() {
	byte st, v;
	bit chip, res;
#if TH_SCEN == SC_SYNC
	mm_store(DRV, FLAG, 1, DRV_STORE_FLAG);
#if SYNC_HARD
	synchronize_hardirq(DRV, st, v, chip, res);
#else
	synchronize_irq(DRV, st, v, chip);
#endif
	/* REQ-THREAD-4: the caller sees the last write of every run it waited for */
	atomic { mm_load(DRV, WORK, v, DRV_READ_DONE);
#if CHECK_T4
		assert(v >= wmust);
#endif
		v = 0 }
#elif TH_SCEN == SC_FREE
	free_irq(DRV, 0, st, v, chip);
	d_step { freed = 1;
#if CHECK_T6
		/* REQ-THREAD-6: its thread ran every counted episode and exited */
		assert(th_exited && !gpend && !grun)
#endif
	}
#endif
	skip
}

/* ---- quiescence: no process can move (pan's timeout) ---- */
proctype quiet() {
	timeout;
	d_step {
#if CHECK_QUIET
		/* REQ-THREAD-5: no thread waits for its own line */
		assert(!self_wait);
		/* REQ-THREAD-8: the counter returned to 0: every counted episode ran and was uncounted ... */
		assert(mem[TACT] == 0);
		assert(!gpend && mem[RUNP] == 0);
		/* ... and no waiter is left asleep (a lost wake-up) */
		assert(!waiting);
		/* REQ-THREAD-7: one run per episode */
		assert(nep == nrun);
		/* REQ-ONESHOT-3 / REQ-ONESHOT-4: never left masked, no bit left set */
		assert(!hw_masked);
		assert(mem[MASKW] == 0);
#endif
		skip }
}

#if defined(LTL_TERM)
/* REQ-THREAD-1 / REQ-THREAD-8 liveness: the call returns (weak fairness, finite arrivals) */
ltl term { <> returned }
#elif defined(LTL_PEND)
/* REQ-THREAD-8: every pending run happens */
ltl pend { [] (gpend -> <> !gpend) }
#endif

init {
	atomic {
		arr = ARRIVALS;
#if ONESHOT
		mem[ACT] = 1;
#else
		mem[ACT] = 3;
#endif
		irq_en[1] = 1;
		mm_start();
		mm_viewdead(1);
#if TH_SCEN == SC_ONESHOT
		irq_en[0] = 1;
		mm_viewdead(0);
		run cpu(0);
#else
		run driver();
#endif
		run cpu(1);
		mm_viewdead(TH);
		run thread();
		run quiet()
	}
}

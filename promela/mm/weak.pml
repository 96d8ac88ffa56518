/*
 * promela/mm/weak.pml -- an Armv8-like model (REQ-MM-3): one multi-copy-atomic memory, with
 * every reordering of independent accesses that Armv8 allows:
 *
 *  store->store  each CPU's store buffer drains in any order except that stores to one address
 *                keep their order, a store after smp_wmb waits for every store before it, and a
 *                release store waits for every store before it (later stores may pass it);
 *  store->load   a load does not wait for the CPU's buffered stores (it forwards its own newest
 *                store to the same address);
 *  load->load    "early" loads: memory keeps the last HIST values of each plain-loaded address;
 *                a load may return any of them not older than what this CPU last read of that
 *                address and not older than the memory at this CPU's last acquire, fence or own
 *                store there (view[c*NH+a] = how many versions back CPU c may still read a);
 *  load->store   "late" loads (mm_load_late): the value is bound at any later time, while the
 *                CPU runs on, before the next fence, release or mm_resolve (a dependency);
 *                this produces LB.
 *  acquire       (load-acquire and spin_lock) waits for the CPU's release stores (Armv8 STLR ->
 *                LDAR is ordered) and then resets the CPU's views: later loads see memory no
 *                older than the acquire;
 *  smp_mb        drains the buffer, binds a late load, resets the views;
 *  smp_rmb       binds a late load, resets the views;  smp_wmb  orders stores (above);
 *  RMW (xchg, fetch-add) are fully ordered (Linux semantics): drain, act on memory, reset views;
 *  acquire RMW   (fetch-add-acquire: LDADDA, or LDAXR+STXR) acts on memory like spin_lock: it
 *                waits for the CPU's release stores and its own buffered stores to the same
 *                address only, so other earlier stores may drain after it; then resets views;
 *  spin_lock     test-and-set acquire on memory (LDAXR/STXR); it also waits until no store of its
 *                own to the lock is buffered (same-address order);
 *  spin_unlock   release store.
 * The memory is multi-copy atomic (Armv8 since 2017): a store reaches every CPU at once, when it
 * leaves the buffer.  Not modelled: POWER's non-MCA propagation (see spec/memory-models.md).
 */
#ifndef SBD
#define SBD 3
#endif
#ifndef HIST
#define HIST 3
#endif
#if HIST < 1 || HIST > 5
#error "HIST must be 1..5"
#endif
#if SBD > 6
#error "SBD must be at most 6"
#endif

byte mem[NADDR];
#if HIST > 1
byte hist[NH * (HIST - 1)];   /* hist[a*(HIST-1)+k-1]: value of a k writes ago (k = 1..HIST-1) */
byte view[NCPU * NH];         /* versions back CPU c may still read address a */
#define HI(ma, mkk)   ((ma) * (HIST - 1) + (mkk) - 1)
#define VW(c, ma)   ((c) * NH + (ma))
#endif
byte sb_a[NCPU * SBD];
byte sb_v[NCPU * SBD];
byte sb_b[NCPU * SBD];        /* 0 plain, 1 ordered after all older entries (smp_wmb), 2 release */
byte sb_n[NCPU];
byte sb_nrel[NCPU];           /* release entries in the buffer (acquire waits for 0) */
bit  wmb_pend[NCPU];          /* smp_wmb seen with stores buffered: mark the next store */
bit  lt_p[NCPU];              /* a late load is pending ... */
byte lt_a[NCPU];              /* ... of this address ... */
byte lreg[NCPU];              /* ... and lands here */
bit  vdead[NCPU];             /* the CPU's next access is an acquire: its views are dead */

/*
 * MM_TRACK(c, a): may CPU c plain-load address a other than right after taking the lock that
 * protects it?  Only then can c's view of a matter (spec/memory-models.md, R8).  The includer
 * may narrow it; mm_load asserts it, so a wrong narrowing is caught, not silently unsound.
 * Loads fused with a lock acquire (mm_load_locked) always read the current value (R1).
 */
#ifndef MM_TRACK
#define MM_TRACK(c, a) 1
#endif

#define MM_NAME "weak"
/* Monitor of the history bound (spec/memory-models.md, B2; the buffer's, MM_SB_CHECK, is in mm.pml).
 * -DMM_VIEW_CHECK: no plain load may choose among all kept versions (its view stays below
 *   HIST-1).  Holding exhaustively at HIST, no load could ever read HIST-1 versions back:
 *   history HIST-1 then removes no version a load could read, so it has exactly the behaviours
 *   of an unbounded history.  The protocol model passes it only with the unlocked spin
 *   over-approximated (-DSPIN_HAVOC, promela/irq.pml): that spin may, with an unbounded
 *   history, read a version of any age (B2). */
#if defined(MM_VIEW_CHECK) && HIST > 1
#define MM_VIEW_BOUND_CHECK(mc, ma) assert(ma >= NH || view[VW(mc, ma)] < HIST - 1)
#else
#define MM_VIEW_BOUND_CHECK(mc, ma) skip
#endif
#define SB(mc, i) ((mc) * SBD + (i))
#define MM_DRAINED(mc) (sb_n[mc] == 0 && !lt_p[mc])
/* everything of CPU mc in the memory model is as at the start (SYMM, spec R14): an empty
 * buffer (entries zeroed as they drain; no release entry, no wmb mark left), no late load, and
 * dead views (held at 0, as mm_viewdead leaves them for CPUs 1.. at the start) */
#define MM_CLEAN(mc) (sb_n[mc] == 0 && sb_nrel[mc] == 0 && !wmb_pend[mc] && !lt_p[mc] && \
	lt_a[mc] == 0 && lreg[mc] == 0 && vdead[mc] && SBZ(mc, 0) && SBZ(mc, 1) && SBZ(mc, 2) && \
	SBZ(mc, 3) && SBZ(mc, 4) && SBZ(mc, 5) && VWZ(mc, 0) && VWZ(mc, 1) && VWZ(mc, 2) && \
	VWZ(mc, 3) && VWZ(mc, 4) && VWZ(mc, 5))
#define SBZ(mc, j) (SBD <= j || (sb_a[SB(mc, j)] == 0 && sb_v[SB(mc, j)] == 0 && sb_b[SB(mc, j)] == 0))
#if HIST > 1
#define VWZ(mc, ma) (NH <= ma || view[VW(mc, ma)] == 0)
#else
#define VWZ(mc, ma) true
#endif
#define MM_NFLUSH NCPU     /* background processes: one flusher per CPU (pids 1..NCPU) */

/* does the CPU's buffer hold a store to a?  (entries past sb_n are zero; unrolled, SBD <= 6) */
#define SBHAS1(mc, ma, j) (SBD > j && sb_n[mc] > j && sb_a[SB(mc, j)] == (ma))
#define SB_HAS(mc, ma) (SBHAS1(mc,ma,0) || SBHAS1(mc,ma,1) || SBHAS1(mc,ma,2) || SBHAS1(mc,ma,3) \
                       || SBHAS1(mc,ma,4) || SBHAS1(mc,ma,5))
/* does an entry older than k store to the same address as entry k? */
#define CL1(mc, mkk, j) ((mkk) > j && sb_a[SB(mc, j)] == sb_a[SB(mc, mkk)])
#define CLASH(mc, mkk) (CL1(mc,mkk,0) || CL1(mc,mkk,1) || CL1(mc,mkk,2) || CL1(mc,mkk,3) || CL1(mc,mkk,4))

/* history bookkeeping: drop versions no CPU can read any more, so equal states merge (exact) */
inline mm_canon(ma) {
	d_step {
#if HIST > 1
	if
	:: ma < NH ->
		mm_m = 0; mm_j = 0;
		do
		:: mm_j < NCPU ->
			if
			:: !vdead[mm_j] && MM_TRACK(mm_j, ma) && view[VW(mm_j, ma)] > mm_m -> mm_m = view[VW(mm_j, ma)]
			:: else
			fi; mm_j++
		:: else -> break
		od;
		mm_j = mm_m + 1;
		do
		:: mm_j < HIST -> hist[HI(ma, mm_j)] = 0; mm_j++
		:: else -> break
		od;
		mm_j = 0; mm_m = 0
	:: else
	fi
#else
	skip
#endif
	}
}

/* after an acquire or a fence: CPU me reads nothing older than memory now */
inline mm_resetview(mc) {
	d_step {
	vdead[mc] = 0;
#if HIST > 1
	mm_k = 0;
	do
	:: mm_k < NH -> view[VW(mc, mm_k)] = 0; mm_canon(mm_k); mm_k++
	:: else -> break
	od;
	mm_k = 0
#else
	skip
#endif
	}
}

/*
 * Exact reduction (spec/memory-models.md, R2): the caller promises that CPU mc's next shared
 * access is an acquire (spin_lock), which resets its views before any load.  Until then its
 * views are never consulted, so they are kept at 0 and count for no history.
 */
inline mm_viewdead(mc) {
	d_step {
		assert(!lt_p[mc]);   /* R2: no late load left to bind against dead views */
		vdead[mc] = 1;
#if HIST > 1
		mm_k = 0;
		do
		:: mm_k < NH -> view[VW(mc, mm_k)] = 0; mm_canon(mm_k); mm_k++
		:: else -> break
		od;
		mm_k = 0
#endif
	}
}

/* CPU me writes v to memory at a: the old value becomes version 1, every other CPU may still
 * read it (its view grows, saturating at HIST-1); the writer itself no longer (coherence) */
inline mm_commit(mc, ma, mv) {
	d_step {
#if HIST > 1
	if
	:: ma < NH ->
		mm_j = HIST - 1;
		do
		:: mm_j > 1 -> hist[HI(ma, mm_j)] = hist[HI(ma, mm_j - 1)]; mm_j--
		:: else -> break
		od;
		hist[HI(ma, 1)] = mem[ma];
		mm_j = 0;
		do
		:: mm_j < NCPU ->
			if
			:: mm_j == mc -> view[VW(mm_j, ma)] = 0
			:: mm_j != mc && !vdead[mm_j] && MM_TRACK(mm_j, ma) && view[VW(mm_j, ma)] < HIST - 1 ->
				view[VW(mm_j, ma)]++
			:: else
			fi; mm_j++
		:: else -> break
		od;
		mm_j = 0;
		mem[ma] = mv;
		mm_canon(ma)
	:: else -> mem[ma] = mv
	fi
#else
	mem[ma] = mv
#endif
	}
}

/* own newest buffered store to a, if any: sets mm_f */
inline mm_forward(mc, ma, mr) {
	d_step {
	mm_i = sb_n[mc]; mm_f = 0;
	do
	:: mm_i > 0 && sb_a[SB(mc, mm_i - 1)] == ma -> mr = sb_v[SB(mc, mm_i - 1)]; mm_f = 1; break
	:: mm_i > 0 && sb_a[SB(mc, mm_i - 1)] != ma -> mm_i--
	:: mm_i == 0 -> break
	od;
	mm_i = 0
	}
}

/* R2's promise, asserted at every access that is not an acquire (as R8's MM_TRACK is): a CPU whose
 * views are dead (mm_viewdead) makes no plain load or store before its next acquire, which revives
 * them (mm_resetview).  A broken promise is a violation, never a silently unsound state space. */
#define MM_VIEWS_LIVE(mc) assert(!vdead[mc])

/* a plain load: forward, or any readable version (nondeterministic) */
inline mm_load(mc, ma, mr, mst) {
	atomic {
		MM_VIEWS_LIVE(mc);
		assert(ma >= NH || MM_TRACK(mc, ma));   /* R8: the narrowing must cover this load */
		mm_forward(mc, ma, mr);
		if
		:: mm_f == 1 -> mm_f = 0
		:: else ->
			MM_VIEW_BOUND_CHECK(mc, ma);
			if
			:: ma >= NH -> mr = mem[ma]
#if HIST > 1
			:: ma < NH -> mr = mem[ma]; view[VW(mc, ma)] = 0
			:: ma < NH && view[VW(mc, ma)] >= 1 -> mr = hist[HI(ma, 1)]; view[VW(mc, ma)] = 1
#endif
#if HIST > 2
			:: ma < NH && view[VW(mc, ma)] >= 2 -> mr = hist[HI(ma, 2)]; view[VW(mc, ma)] = 2
#endif
#if HIST > 3
			:: ma < NH && view[VW(mc, ma)] >= 3 -> mr = hist[HI(ma, 3)]; view[VW(mc, ma)] = 3
#endif
#if HIST > 4
			:: ma < NH && view[VW(mc, ma)] >= 4 -> mr = hist[HI(ma, 4)]; view[VW(mc, ma)] = 4
#endif
#if HIST == 1
			:: ma < NH -> mr = mem[ma]
#endif
			fi;
			mm_canon(ma)
		fi;
		STEPV(mc, mst, ma, mr)
	}
}

/* bind a pending late load now, to the current value */
inline mm_bind(mc) {
	d_step {
	mm_forward(mc, lt_a[mc], lreg[mc]);
	if
	:: mm_f == 0 -> lreg[mc] = mem[lt_a[mc]];
#if HIST > 1
		if :: lt_a[mc] < NH -> view[VW(mc, lt_a[mc])] = 0; mm_canon(lt_a[mc]) :: else fi
#endif
	:: else -> mm_f = 0
	fi;
	lt_p[mc] = 0; lt_a[mc] = 0
	}
}
inline mm_resolve(mc) { d_step { if :: lt_p[mc] -> mm_bind(mc) :: else fi } }
inline mm_load_late(mc, ma) { d_step { MM_VIEWS_LIVE(mc); assert(!lt_p[mc]); lt_p[mc] = 1; lt_a[mc] = ma } }

/* b: 0 plain, 2 release */
inline mm_buffer(mc, ma, mv, mbk, mst) {
	d_step {
		sb_n[mc] < SBD -> STEPV(mc, mst, ma, mv);
		MM_VIEWS_LIVE(mc);
		/* a later store to the address of a pending late load would need that load bound
		 * first (same-address order); the litmus tests never do it */
		assert(!(lt_p[mc] && lt_a[mc] == ma));
		sb_a[SB(mc, sb_n[mc])] = ma; sb_v[SB(mc, sb_n[mc])] = mv;
		if
		:: mbk == 2 -> sb_b[SB(mc, sb_n[mc])] = 2; sb_nrel[mc]++
		:: mbk != 2 && wmb_pend[mc] && sb_n[mc] > 0 -> sb_b[SB(mc, sb_n[mc])] = 1
		:: else
		fi;
		wmb_pend[mc] = 0;
		sb_n[mc]++;
		MM_SB_BOUND_CHECK(mc)
	}
}
inline mm_store(mc, ma, mv, mst) { mm_buffer(mc, ma, mv, 0, mst) }
/* a release also orders the CPU's earlier loads: bind a late one first */
inline mm_store_rel(mc, ma, mv, mst) { mm_resolve(mc); mm_buffer(mc, ma, mv, 2, mst) }

/* the load right after taking the lock that protects ma: current value (R1) */
inline mm_load_locked(mc, ma, mr, mst) {
	d_step {
		mm_forward(mc, ma, mr);
		if :: mm_f == 1 -> mm_f = 0 :: else -> mr = mem[ma] fi;
#if HIST > 1
		if :: ma < NH -> view[VW(mc, ma)] = 0; mm_canon(ma) :: else fi;
#endif
		STEPV(mc, mst, ma, mr)
	}
}

inline mm_load_acq(mc, ma, mr, mst) {
	atomic { sb_nrel[mc] == 0 -> mm_load(mc, ma, mr, mst); mm_resetview(mc) }
}
inline mm_mb(mc, mst) {
	mm_resolve(mc);
	d_step { sb_n[mc] == 0 -> STEP(mc, mst); mm_resetview(mc) }
}
/* cpu_relax() in a wait loop.  For liveness runs only (-DMM_EVENTUAL): the hardware makes a
 * store visible to every CPU eventually, so a waiting CPU's views are reset here (spec R12);
 * safety runs leave it a no-op, keeping every stale read. */
inline mm_relax(mc) {
#ifdef MM_EVENTUAL
	d_step { mm_resetview(mc) }
#else
	skip
#endif
}
inline mm_rmb(mc) { mm_resolve(mc); d_step { mm_resetview(mc) } }
inline mm_wmb(mc) { d_step { if :: sb_n[mc] > 0 -> wmb_pend[mc] = 1 :: else fi } }
inline mm_xchg(mc, ma, mv, mr, mst) {
	mm_resolve(mc);
	d_step { sb_n[mc] == 0 -> STEP(mc, mst); mr = mem[ma]; mm_commit(mc, ma, mv); mm_resetview(mc) }
}
inline mm_fetch_add(mc, ma, md, mr, mst) {
	mm_resolve(mc);
	d_step { sb_n[mc] == 0 -> STEP(mc, mst); mr = mem[ma]; mm_commit(mc, ma, mr + md); mm_resetview(mc) }
}
/*
 * atomic_fetch_add_acquire (Armv8 LDADDA, or LDAXR/STXR): atomic on ma, and every later access
 * is ordered after it (the view reset: later loads see memory no older than the RMW; later
 * stores enter the buffer after it acted on memory).  Earlier accesses are NOT ordered before
 * it: the CPU's buffered stores to other addresses stay buffered and may drain after it (the
 * difference from mm_fetch_add, shown by promela/litmus/sb+acqrmw+mb.pml), and a pending late
 * load is not bound.  It does wait for
 *  - the CPU's release stores: Armv8 orders STLR before a later acquire (RCsc, "[L]; po; [A]"),
 *    as mm_lock and mm_load_acq do;
 *  - the CPU's own buffered stores to ma: a store and a later RMW of one address keep their
 *    order (coherence), and the RMW acts on memory.
 * Like mm_lock, the RMW's write reaches memory in the step of its read, so other CPUs' fresh
 * loads see it before any later load of this CPU is made: Armv8 lets that write be seen after
 * later loads (spec/memory-models.md, REQ-LOCK-2: why no property here depends on it).
 * Known-bad variants, for tests/suites/30-model.sh only: -DMM_ACQ_RMW_BUG=1 also waits for an
 * empty buffer (as strong as mm_fetch_add: sb+acqrmw+mb.pml is then wrongly forbidden);
 * -DMM_ACQ_RMW_BUG=2 does not reset the views (no acquire: mp+rel+acqrmw.pml then fails).
 */
#ifndef MM_ACQ_RMW_BUG
#define MM_ACQ_RMW_BUG 0
#endif
inline mm_fetch_add_acq(mc, ma, md, mr, mst) {
	d_step { sb_nrel[mc] == 0 && !SB_HAS(mc, ma) && (MM_ACQ_RMW_BUG != 1 || sb_n[mc] == 0) ->
		STEP(mc, mst);
		/* a pending late load of ma would read this later write (coherence); never done */
		assert(!(lt_p[mc] && lt_a[mc] == ma));
		mr = mem[ma]; mm_commit(mc, ma, mr + md);
		if :: MM_ACQ_RMW_BUG != 2 -> mm_resetview(mc) :: else fi }
}
inline mm_lock(mc, ml, mst) {
	d_step { sb_nrel[mc] == 0 && !SB_HAS(mc, ml) && mem[ml] == 0 ->
		STEP(mc, mst); mm_commit(mc, ml, 1); mm_resetview(mc) }
}
inline mm_unlock(mc, ml, mst) { mm_store_rel(mc, ml, 0, mst) }

/* remove entry k of CPU me's buffer */
inline mm_remove(mc, mkk) {
	d_step {
	if :: sb_b[SB(mc, mkk)] == 2 -> sb_nrel[mc]-- :: else fi;
	mm_i = mkk + 1;
	do
	:: mm_i < sb_n[mc] ->
		sb_a[SB(mc, mm_i - 1)] = sb_a[SB(mc, mm_i)];
		sb_v[SB(mc, mm_i - 1)] = sb_v[SB(mc, mm_i)];
		sb_b[SB(mc, mm_i - 1)] = sb_b[SB(mc, mm_i)]; mm_i++
	:: else -> break
	od;
	sb_n[mc]--;
	sb_a[SB(mc, sb_n[mc])] = 0; sb_v[SB(mc, sb_n[mc])] = 0; sb_b[SB(mc, sb_n[mc])] = 0;
	/* a wmb mark at the head orders nothing any more */
	if :: sb_b[SB(mc, 0)] == 1 -> sb_b[SB(mc, 0)] = 0 :: else fi;
	if :: sb_n[mc] == 0 -> wmb_pend[mc] = 0 :: else fi;
	mm_i = 0
	}
}

/* CPU me's buffer drains one entry, any that may go first; or a late load gets bound */
proctype mm_flusher(byte mc) {
end:	do
	:: atomic { sb_n[mc] > 0 ->
		mm_k = 0;
		do
		:: mm_k == 0 || (sb_b[SB(mc, mm_k)] != 2 && !CLASH(mc, mm_k)) -> break
		:: mm_k + 1 < sb_n[mc] && sb_b[SB(mc, mm_k + 1)] != 1 -> mm_k++
		:: else -> mm_k = 0; break     /* dead end of the walk: the head may always go */
		od;
		printf("FLUSH %d addr=%d val=%d entry=%d\n", mc, sb_a[SB(mc, mm_k)], sb_v[SB(mc, mm_k)], mm_k);
		mm_commit(mc, sb_a[SB(mc, mm_k)], sb_v[SB(mc, mm_k)]);
		mm_remove(mc, mm_k);
		mm_k = 0 }
	:: atomic { lt_p[mc] -> mm_bind(mc); printf("BIND %d late load -> %d\n", mc, lreg[mc]) }
	od
}

inline mm_start() {
	mm_k = 0;
	do
	:: mm_k < NCPU -> run mm_flusher(mm_k); mm_k++
	:: else -> break
	od;
	mm_k = 0
}

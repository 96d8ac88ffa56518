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
#define HI(a, k)   ((a) * (HIST - 1) + (k) - 1)
#define VW(c, a)   ((c) * NH + (a))
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

#define MM_NAME "weak"
#define SB(me, i) ((me) * SBD + (i))
#define MM_DRAINED(me) (sb_n[me] == 0 && !lt_p[me])

/* does the CPU's buffer hold a store to a?  (entries past sb_n are zero; unrolled, SBD <= 6) */
#define SBHAS1(me, a, j) (SBD > j && sb_n[me] > j && sb_a[SB(me, j)] == (a))
#define SB_HAS(me, a) (SBHAS1(me,a,0) || SBHAS1(me,a,1) || SBHAS1(me,a,2) || SBHAS1(me,a,3) \
                       || SBHAS1(me,a,4) || SBHAS1(me,a,5))
/* does an entry older than k store to the same address as entry k? */
#define CL1(me, k, j) ((k) > j && sb_a[SB(me, j)] == sb_a[SB(me, k)])
#define CLASH(me, k) (CL1(me,k,0) || CL1(me,k,1) || CL1(me,k,2) || CL1(me,k,3) || CL1(me,k,4))

/* history bookkeeping: drop versions no CPU can read any more, so equal states merge (exact) */
inline mm_canon(a) {
#if HIST > 1
	if
	:: a < NH ->
		mm_m = 0; mm_j = 0;
		do
		:: mm_j < NCPU -> if :: view[VW(mm_j, a)] > mm_m -> mm_m = view[VW(mm_j, a)] :: else fi; mm_j++
		:: else -> break
		od;
		mm_j = mm_m + 1;
		do
		:: mm_j < HIST -> hist[HI(a, mm_j)] = 0; mm_j++
		:: else -> break
		od;
		mm_j = 0; mm_m = 0
	:: else
	fi
#endif
}

/* after an acquire or a fence: CPU me reads nothing older than memory now */
inline mm_resetview(me) {
#if HIST > 1
	mm_k = 0;
	do
	:: mm_k < NH -> view[VW(me, mm_k)] = 0; mm_canon(mm_k); mm_k++
	:: else -> break
	od;
	mm_k = 0
#endif
}

/* CPU me writes v to memory at a: the old value becomes version 1, every other CPU may still
 * read it (its view grows, saturating at HIST-1); the writer itself no longer (coherence) */
inline mm_commit(me, a, v) {
#if HIST > 1
	if
	:: a < NH ->
		mm_j = HIST - 1;
		do
		:: mm_j > 1 -> hist[HI(a, mm_j)] = hist[HI(a, mm_j - 1)]; mm_j--
		:: else -> break
		od;
		hist[HI(a, 1)] = mem[a];
		mm_j = 0;
		do
		:: mm_j < NCPU ->
			if
			:: mm_j == me -> view[VW(mm_j, a)] = 0
			:: mm_j != me && view[VW(mm_j, a)] < HIST - 1 -> view[VW(mm_j, a)]++
			:: else
			fi; mm_j++
		:: else -> break
		od;
		mm_j = 0;
		mem[a] = v;
		mm_canon(a)
	:: else -> mem[a] = v
	fi
#else
	mem[a] = v
#endif
}

/* own newest buffered store to a, if any: sets mm_f */
inline mm_forward(me, a, r) {
	mm_i = sb_n[me]; mm_f = 0;
	do
	:: mm_i > 0 && sb_a[SB(me, mm_i - 1)] == a -> r = sb_v[SB(me, mm_i - 1)]; mm_f = 1; break
	:: mm_i > 0 && sb_a[SB(me, mm_i - 1)] != a -> mm_i--
	:: mm_i == 0 -> break
	od;
	mm_i = 0
}

/* a plain load: forward, or any readable version (nondeterministic) */
inline mm_load(me, a, r, st) {
	atomic {
		STEP(me, st);
		mm_forward(me, a, r);
		if
		:: mm_f == 1 -> mm_f = 0
		:: else ->
			if
			:: a >= NH -> r = mem[a]
#if HIST > 1
			:: a < NH -> r = mem[a]; view[VW(me, a)] = 0
			:: a < NH && view[VW(me, a)] >= 1 -> r = hist[HI(a, 1)]; view[VW(me, a)] = 1
#endif
#if HIST > 2
			:: a < NH && view[VW(me, a)] >= 2 -> r = hist[HI(a, 2)]; view[VW(me, a)] = 2
#endif
#if HIST > 3
			:: a < NH && view[VW(me, a)] >= 3 -> r = hist[HI(a, 3)]; view[VW(me, a)] = 3
#endif
#if HIST > 4
			:: a < NH && view[VW(me, a)] >= 4 -> r = hist[HI(a, 4)]; view[VW(me, a)] = 4
#endif
#if HIST == 1
			:: a < NH -> r = mem[a]
#endif
			fi;
			mm_canon(a)
		fi
	}
}

/* bind a pending late load now, to the current value */
inline mm_bind(me) {
	mm_forward(me, lt_a[me], lreg[me]);
	if
	:: mm_f == 0 -> lreg[me] = mem[lt_a[me]];
#if HIST > 1
		if :: lt_a[me] < NH -> view[VW(me, lt_a[me])] = 0; mm_canon(lt_a[me]) :: else fi
#endif
	:: else -> mm_f = 0
	fi;
	lt_p[me] = 0; lt_a[me] = 0
}
inline mm_resolve(me) { atomic { if :: lt_p[me] -> mm_bind(me) :: else fi } }
inline mm_load_late(me, a) { d_step { assert(!lt_p[me]); lt_p[me] = 1; lt_a[me] = a } }

/* b: 0 plain, 2 release */
inline mm_buffer(me, a, v, b, st) {
	atomic {
		sb_n[me] < SBD -> STEP(me, st);
		/* a later store to the address of a pending late load would need that load bound
		 * first (same-address order); the litmus tests never do it */
		assert(!(lt_p[me] && lt_a[me] == a));
		sb_a[SB(me, sb_n[me])] = a; sb_v[SB(me, sb_n[me])] = v;
		if
		:: b == 2 -> sb_b[SB(me, sb_n[me])] = 2; sb_nrel[me]++
		:: b != 2 && wmb_pend[me] && sb_n[me] > 0 -> sb_b[SB(me, sb_n[me])] = 1
		:: else
		fi;
		wmb_pend[me] = 0;
		sb_n[me]++
	}
}
inline mm_store(me, a, v, st) { mm_buffer(me, a, v, 0, st) }
/* a release also orders the CPU's earlier loads: bind a late one first */
inline mm_store_rel(me, a, v, st) { mm_resolve(me); mm_buffer(me, a, v, 2, st) }

inline mm_load_acq(me, a, r, st) {
	atomic { sb_nrel[me] == 0 -> mm_load(me, a, r, st); mm_resetview(me) }
}
inline mm_mb(me, st) {
	mm_resolve(me);
	atomic { sb_n[me] == 0 -> STEP(me, st); mm_resetview(me) }
}
inline mm_rmb(me) { mm_resolve(me); atomic { mm_resetview(me) } }
inline mm_wmb(me) { atomic { if :: sb_n[me] > 0 -> wmb_pend[me] = 1 :: else fi } }
inline mm_xchg(me, a, v, r, st) {
	mm_resolve(me);
	atomic { sb_n[me] == 0 -> STEP(me, st); r = mem[a]; mm_commit(me, a, v); mm_resetview(me) }
}
inline mm_fetch_add(me, a, d, r, st) {
	mm_resolve(me);
	atomic { sb_n[me] == 0 -> STEP(me, st); r = mem[a]; mm_commit(me, a, r + d); mm_resetview(me) }
}
inline mm_lock(me, l, st) {
	atomic { sb_nrel[me] == 0 && !SB_HAS(me, l) && mem[l] == 0 ->
		STEP(me, st); mm_commit(me, l, 1); mm_resetview(me) }
}
inline mm_unlock(me, l, st) { mm_store_rel(me, l, 0, st) }

/* remove entry k of CPU me's buffer */
inline mm_remove(me, k) {
	if :: sb_b[SB(me, k)] == 2 -> sb_nrel[me]-- :: else fi;
	mm_i = k + 1;
	do
	:: mm_i < sb_n[me] ->
		sb_a[SB(me, mm_i - 1)] = sb_a[SB(me, mm_i)];
		sb_v[SB(me, mm_i - 1)] = sb_v[SB(me, mm_i)];
		sb_b[SB(me, mm_i - 1)] = sb_b[SB(me, mm_i)]; mm_i++
	:: else -> break
	od;
	sb_n[me]--;
	sb_a[SB(me, sb_n[me])] = 0; sb_v[SB(me, sb_n[me])] = 0; sb_b[SB(me, sb_n[me])] = 0;
	/* a wmb mark at the head orders nothing any more */
	if :: sb_b[SB(me, 0)] == 1 -> sb_b[SB(me, 0)] = 0 :: else fi;
	if :: sb_n[me] == 0 -> wmb_pend[me] = 0 :: else fi;
	mm_i = 0
}

/* CPU me's buffer drains one entry, any that may go first; or a late load gets bound */
proctype mm_flusher(byte me) {
end:	do
	:: atomic { sb_n[me] > 0 ->
		mm_k = 0;
		do
		:: mm_k == 0 || (sb_b[SB(me, mm_k)] != 2 && !CLASH(me, mm_k)) -> break
		:: mm_k + 1 < sb_n[me] && sb_b[SB(me, mm_k + 1)] != 1 -> mm_k++
		:: else -> mm_k = 0; break     /* dead end of the walk: the head may always go */
		od;
		mm_commit(me, sb_a[SB(me, mm_k)], sb_v[SB(me, mm_k)]);
		mm_remove(me, mm_k);
		mm_k = 0 }
	:: atomic { lt_p[me] -> mm_bind(me) }
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

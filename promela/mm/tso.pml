/*
 * promela/mm/tso.pml -- x86-TSO (REQ-MM-2), after Owens, Sarkar, Sewell, "A better x86 memory
 * model: x86-TSO" (TPHOLs 2009).
 *
 *  - each CPU has a FIFO store buffer of SBD entries; a store enters it (waiting while full);
 *  - a load reads the newest entry of its own buffer for that address (forwarding), else memory;
 *  - mm_flusher(me) writes the oldest entry to memory at any time (nondeterministically);
 *  - smp_mb (mfence) and every locked RMW (xchg, fetch-add, spin_lock) wait for an empty buffer
 *    and then act on memory in one step;
 *  - spin_unlock is a plain buffered store (x86 "movb $1" / "mov" release);
 *  - acquire/release, smp_rmb and smp_wmb are plain accesses / compiler barriers on x86.
 * Loads are never reordered with loads, stores never with stores: only store->load.
 */
#ifndef SBD
#define SBD 3
#endif

byte mem[NADDR];
byte sb_a[NCPU * SBD];      /* address of entry i of CPU c: sb_a[c*SBD+i], oldest at i = 0 */
byte sb_v[NCPU * SBD];      /* its value */
byte sb_n[NCPU];            /* entries in use */
byte lreg[NCPU];

#define MM_NAME "tso"
#define SB(mc, i) ((mc) * SBD + (i))
#define MM_DRAINED(mc) (sb_n[mc] == 0)
/* everything of CPU mc in the memory model is as at the start (SYMM, spec R14): an empty
 * buffer (its entries are zeroed as they drain) */
#define MM_CLEAN(mc) (sb_n[mc] == 0 && lreg[mc] == 0 && SBZ(mc, 0) && SBZ(mc, 1) && SBZ(mc, 2) && \
	SBZ(mc, 3) && SBZ(mc, 4) && SBZ(mc, 5))
#define SBZ(mc, j) (SBD <= j || (sb_a[SB(mc, j)] == 0 && sb_v[SB(mc, j)] == 0))
#define MM_NFLUSH NCPU     /* background processes: one flusher per CPU (pids 1..NCPU) */

/* r = newest own buffered value of a, else memory */
inline mm_read(mc, ma, mr) {
	mm_i = sb_n[mc]; mm_f = 0;
	do
	:: mm_i > 0 && sb_a[SB(mc, mm_i - 1)] == ma -> mr = sb_v[SB(mc, mm_i - 1)]; mm_f = 1; break
	:: mm_i > 0 && sb_a[SB(mc, mm_i - 1)] != ma -> mm_i--
	:: mm_i == 0 -> break
	od;
	if
	:: mm_f == 0 -> mr = mem[ma]
	:: else
	fi;
	mm_i = 0; mm_f = 0
}

inline mm_load(mc, ma, mr, mst)  { d_step { mm_read(mc, ma, mr); STEPV(mc, mst, ma, mr) } }
/* a full buffer stalls the store until the flusher makes room */
inline mm_store(mc, ma, mv, mst) {
	d_step { sb_n[mc] < SBD -> STEPV(mc, mst, ma, mv);
		sb_a[SB(mc, sb_n[mc])] = ma; sb_v[SB(mc, sb_n[mc])] = mv; sb_n[mc]++;
		MM_SB_BOUND_CHECK(mc) }
}
inline mm_load_locked(mc, ma, mr, mst) { mm_load(mc, ma, mr, mst) }
inline mm_load_acq(mc, ma, mr, mst)  { mm_load(mc, ma, mr, mst) }
inline mm_store_rel(mc, ma, mv, mst) { mm_store(mc, ma, mv, mst) }
inline mm_xchg(mc, ma, mv, mr, mst)   { d_step { sb_n[mc] == 0 -> STEP(mc, mst); mr = mem[ma]; mem[ma] = mv } }
inline mm_fetch_add(mc, ma, md, mr, mst) { d_step { sb_n[mc] == 0 -> STEP(mc, mst); mr = mem[ma]; mem[ma] = mr + md } }
/* atomic_fetch_add_acquire compiles to the same "lock xadd" as the fully ordered one: an x86
 * locked instruction is a full fence (it drains the store buffer), whatever order C asked for */
inline mm_fetch_add_acq(mc, ma, md, mr, mst) { mm_fetch_add(mc, ma, md, mr, mst) }
inline mm_mb(mc, mst)              { d_step { sb_n[mc] == 0 -> STEP(mc, mst) } }
inline mm_wmb(mc)                 { skip }
inline mm_rmb(mc)                 { skip }
/* lock; xchg: drains the buffer, then test-and-set on memory */
inline mm_lock(mc, ml, mst)   { d_step { sb_n[mc] == 0 && mem[ml] == 0 -> STEP(mc, mst); mem[ml] = 1 } }
inline mm_unlock(mc, ml, mst) { mm_store(mc, ml, 0, mst) }
inline mm_load_late(mc, ma)  { d_step { mm_read(mc, ma, lreg[mc]) } }
inline mm_viewdead(mc)       { skip }
inline mm_relax(mc)          { skip }
inline mm_resolve(mc)       { skip }

/* the oldest store of CPU me reaches memory */
proctype mm_flusher(byte mc) {
end:	do
	:: d_step { sb_n[mc] > 0 ->
		printf("FLUSH %d addr=%d val=%d\n", mc, sb_a[SB(mc, 0)], sb_v[SB(mc, 0)]);
		mem[sb_a[SB(mc, 0)]] = sb_v[SB(mc, 0)];
		mm_i = 1;
		do
		:: mm_i < sb_n[mc] ->
			sb_a[SB(mc, mm_i - 1)] = sb_a[SB(mc, mm_i)];
			sb_v[SB(mc, mm_i - 1)] = sb_v[SB(mc, mm_i)]; mm_i++
		:: else -> break
		od;
		sb_n[mc]--; sb_a[SB(mc, sb_n[mc])] = 0; sb_v[SB(mc, sb_n[mc])] = 0; mm_i = 0 }
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

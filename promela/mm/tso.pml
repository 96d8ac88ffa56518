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
#define SB(me, i) ((me) * SBD + (i))
#define MM_DRAINED(me) (sb_n[me] == 0)

/* r = newest own buffered value of a, else memory */
inline mm_read(me, a, r) {
	mm_i = sb_n[me]; mm_f = 0;
	do
	:: mm_i > 0 && sb_a[SB(me, mm_i - 1)] == a -> r = sb_v[SB(me, mm_i - 1)]; mm_f = 1; break
	:: mm_i > 0 && sb_a[SB(me, mm_i - 1)] != a -> mm_i--
	:: mm_i == 0 -> break
	od;
	if
	:: mm_f == 0 -> r = mem[a]
	:: else
	fi;
	mm_i = 0; mm_f = 0
}

inline mm_load(me, a, r, st)  { d_step { STEP(me, st); mm_read(me, a, r) } }
/* a full buffer stalls the store until the flusher makes room */
inline mm_store(me, a, v, st) {
	atomic { sb_n[me] < SBD -> STEP(me, st);
		sb_a[SB(me, sb_n[me])] = a; sb_v[SB(me, sb_n[me])] = v; sb_n[me]++ }
}
inline mm_load_acq(me, a, r, st)  { mm_load(me, a, r, st) }
inline mm_store_rel(me, a, v, st) { mm_store(me, a, v, st) }
inline mm_xchg(me, a, v, r, st)   { atomic { sb_n[me] == 0 -> STEP(me, st); r = mem[a]; mem[a] = v } }
inline mm_fetch_add(me, a, d, r, st) { atomic { sb_n[me] == 0 -> STEP(me, st); r = mem[a]; mem[a] = r + d } }
inline mm_mb(me, st)              { atomic { sb_n[me] == 0 -> STEP(me, st) } }
inline mm_wmb(me)                 { skip }
inline mm_rmb(me)                 { skip }
/* lock; xchg: drains the buffer, then test-and-set on memory */
inline mm_lock(me, l, st)   { atomic { sb_n[me] == 0 && mem[l] == 0 -> STEP(me, st); mem[l] = 1 } }
inline mm_unlock(me, l, st) { mm_store(me, l, 0, st) }
inline mm_load_late(me, a)  { d_step { mm_read(me, a, lreg[me]) } }
inline mm_resolve(me)       { skip }

/* the oldest store of CPU me reaches memory */
proctype mm_flusher(byte me) {
end:	do
	:: d_step { sb_n[me] > 0 ->
		mem[sb_a[SB(me, 0)]] = sb_v[SB(me, 0)];
		mm_i = 1;
		do
		:: mm_i < sb_n[me] ->
			sb_a[SB(me, mm_i - 1)] = sb_a[SB(me, mm_i)];
			sb_v[SB(me, mm_i - 1)] = sb_v[SB(me, mm_i)]; mm_i++
		:: else -> break
		od;
		sb_n[me]--; sb_a[SB(me, sb_n[me])] = 0; sb_v[SB(me, sb_n[me])] = 0; mm_i = 0 }
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

/*
 * promela/mm/sc.pml -- sequential consistency (REQ-MM-1).
 * Every access is one indivisible step on the single memory, in program order.
 */
byte mem[NADDR];
byte lreg[NCPU];

#define MM_NAME "sc"
#define MM_DRAINED(me) true

inline mm_load(me, a, r, st)      { d_step { STEP(me, st); r = mem[a] } }
inline mm_store(me, a, v, st)     { d_step { STEP(me, st); mem[a] = v } }
inline mm_load_acq(me, a, r, st)  { mm_load(me, a, r, st) }
inline mm_store_rel(me, a, v, st) { mm_store(me, a, v, st) }
inline mm_xchg(me, a, v, r, st)   { d_step { STEP(me, st); r = mem[a]; mem[a] = v } }
inline mm_fetch_add(me, a, d, r, st) { d_step { STEP(me, st); r = mem[a]; mem[a] = r + d } }
inline mm_mb(me, st)              { skip }
inline mm_wmb(me)                 { skip }
inline mm_rmb(me)                 { skip }
/* spin_lock: wait until free, take it in the same step (a blocked CPU is visible to SPIN) */
inline mm_lock(me, l, st)         { atomic { mem[l] == 0 -> STEP(me, st); mem[l] = 1 } }
inline mm_unlock(me, l, st)       { d_step { STEP(me, st); mem[l] = 0 } }
inline mm_load_late(me, a)        { d_step { lreg[me] = mem[a] } }
inline mm_resolve(me)             { skip }
inline mm_start()                 { skip }

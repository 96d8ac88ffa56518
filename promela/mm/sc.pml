/*
 * promela/mm/sc.pml -- sequential consistency (REQ-MM-1).
 * Every access is one indivisible step on the single memory, in program order.
 */
byte mem[NADDR];
byte lreg[NCPU];

#define MM_NAME "sc"
#define MM_DRAINED(mc) true
/* everything of CPU mc in the memory model is as at the start (SYMM, spec R14): no buffer;
 * only the late-load register, which the protocol never uses */
#define MM_CLEAN(mc) (lreg[mc] == 0)
#define MM_NFLUSH 0        /* no background process */

inline mm_load(mc, ma, mr, mst)      { d_step { mr = mem[ma]; STEPV(mc, mst, ma, mr) } }
inline mm_store(mc, ma, mv, mst)     { d_step { STEPV(mc, mst, ma, mv); mem[ma] = mv } }
inline mm_load_locked(mc, ma, mr, mst) { mm_load(mc, ma, mr, mst) }
inline mm_load_acq(mc, ma, mr, mst)  { mm_load(mc, ma, mr, mst) }
inline mm_store_rel(mc, ma, mv, mst) { mm_store(mc, ma, mv, mst) }
inline mm_xchg(mc, ma, mv, mr, mst)   { d_step { STEP(mc, mst); mr = mem[ma]; mem[ma] = mv } }
inline mm_fetch_add(mc, ma, md, mr, mst) { d_step { STEP(mc, mst); mr = mem[ma]; mem[ma] = mr + md } }
/* SC has no weaker RMW: every access is ordered */
inline mm_fetch_add_acq(mc, ma, md, mr, mst) { mm_fetch_add(mc, ma, md, mr, mst) }
inline mm_mb(mc, mst)              { skip }
inline mm_wmb(mc)                 { skip }
inline mm_rmb(mc)                 { skip }
/* spin_lock: wait until free, take it in the same step (a blocked CPU is visible to SPIN) */
inline mm_lock(mc, ml, mst)         { d_step { mem[ml] == 0 -> STEP(mc, mst); mem[ml] = 1 } }
inline mm_unlock(mc, ml, mst)       { d_step { STEP(mc, mst); mem[ml] = 0 } }
inline mm_load_late(mc, ma)        { d_step { lreg[mc] = mem[ma] } }
inline mm_viewdead(mc)       { skip }
inline mm_relax(mc)          { skip }
inline mm_resolve(mc)             { skip }
inline mm_start()                 { skip }

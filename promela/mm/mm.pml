/*
 * promela/mm/mm.pml -- the memory-model interface of the irqsync model (REQ-MM-1..3).
 *
 * Every shared access of the protocol and of the litmus tests goes through these inlines,
 * so one program runs under each model.  Select the model with exactly one of
 *     -DMM_SC    sequential consistency            (mm/sc.pml,   REQ-MM-1)
 *     -DMM_TSO   x86-TSO, FIFO store buffers        (mm/tso.pml,  REQ-MM-2)
 *     -DMM_WEAK  Armv8-like, multi-copy atomic      (mm/weak.pml, REQ-MM-3)
 * Knobs: -DSBD=n store-buffer depth (TSO, WEAK), -DHIST=n how many versions of an address a
 * WEAK load may look back (1 = none); spec/memory-models.md shows both saturate at the defaults.
 *
 * The including model defines, before including this file:
 *     NCPU   number of CPUs (processes calling the interface with me = 0..NCPU-1)
 *     NADDR  number of shared byte addresses, mem[0..NADDR-1]
 *     NH     addresses 0..NH-1 may be read by plain loads; NH..NADDR-1 are accessed only by
 *            lock / RMW (never plain-loaded), so WEAK keeps no history for them (exact).
 *
 * The interface (me = calling CPU, a = address constant, st = step name, an mtype):
 *     mm_load(me, a, r, st)          r = *a                       plain load
 *     mm_store(me, a, v, st)         *a = v                       plain store
 *     mm_load_locked(me, a, r, st)   r = *a right after taking the lock that guards a (the
 *                                    current value: nobody else may write it meanwhile)
 *     mm_load_acq(me, a, r, st)      r = smp_load_acquire(a)
 *     mm_store_rel(me, a, v, st)     smp_store_release(a, v)
 *     mm_xchg(me, a, v, r, st)       r = xchg(a, v)               fully ordered RMW
 *     mm_fetch_add(me, a, d, r, st)  r = atomic_fetch_add(d, a)   fully ordered RMW
 *     mm_fetch_add_acq(me, a, d, r, st)  r = atomic_fetch_add_acquire(d, a): an acquire RMW,
 *                                    atomic on a; orders later accesses after it, not earlier
 *                                    ones before it (WEAK: earlier stores may stay buffered)
 *     mm_mb(me, st)                  smp_mb()
 *     mm_wmb(me) / mm_rmb(me)        smp_wmb() / smp_rmb()
 *     mm_lock(me, l, st)             spin_lock(l):   test-and-set, an acquire RMW
 *     mm_unlock(me, l, st)           spin_unlock(l): a release store
 *     mm_load_late(me, a) + mm_resolve(me)   a load whose value lands in lreg[me] "later"
 *                                    (only WEAK defers it: this is what produces LB)
 *     mm_viewdead(me)                a promise: me's next shared access is an acquire (WEAK
 *                                    then forgets me's views -- an exact reduction)
 *     mm_relax(me)                   cpu_relax() in a wait loop (WEAK with -DMM_EVENTUAL:
 *                                    stores become visible eventually -- liveness runs only)
 *     MM_DRAINED(me)                 expression: no store of me pending, no load unresolved
 *     MM_CLEAN(me)                   expression: everything of me in the memory model is as at
 *                                    the start (the symmetry reduction R14, -DSYMM=1)
 *     MM_NFLUSH                      the number of background processes (pids 1..MM_NFLUSH)
 * Background processes (TSO, WEAK) are started with mm_start(): one mm_flusher per CPU.
 */
#ifndef MM_PML
#define MM_PML

#define STEP(me, st)  printf("STEP %d %e\n", me, st)
/* a step that reads or writes a value: the trail shows which value */
#define STEPV(me, st, a, v)  printf("STEP %d %e addr=%d val=%d\n", me, st, a, v)

/* -DMM_SB_CHECK (spec/memory-models.md, B1), for the buffered models (TSO, WEAK): a store never
 * fills the buffer.  Holding exhaustively at depth SBD, no CPU ever holds SBD stores: depth SBD-1
 * then never stalls a store, so it has exactly the behaviours of an unbounded buffer. */
#ifdef MM_SB_CHECK
#define MM_SB_BOUND_CHECK(mc) assert(sb_n[mc] < SBD)
#else
#define MM_SB_BOUND_CHECK(mc) skip
#endif

/* scratch: used only inside one atomic/d_step and zeroed before it ends, so it never tells
 * two states apart */
byte mm_i, mm_j, mm_k, mm_m, mm_f;   /* (not "hidden": -DBFS refuses those) */

#if defined(MM_SC) + defined(MM_TSO) + defined(MM_WEAK) != 1
#error "select exactly one memory model: -DMM_SC, -DMM_TSO or -DMM_WEAK"
#endif

#if defined(MM_SC)
#include "sc.pml"
#elif defined(MM_TSO)
#include "tso.pml"
#else
#include "weak.pml"
#endif

#endif

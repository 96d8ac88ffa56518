/*
 * promela/ticket.pml -- the ticket lock of src/core/spinlock.c on its own (REQ-LOCK-2 FIFO
 * fairness, REQ-LOCK-1 mutual exclusion and hand-over of the protected data), under each memory
 * model of promela/mm/.  The protocol model (irq.pml) uses a test-and-set lock instead, a safe
 * over-approximation for its safety properties (spec/memory-models.md, O1) that says nothing
 * about the order of acquisitions: this model checks that order.
 *
 * One run:  spin -a -DMM_WEAK ticket.pml && gcc -DSAFETY -o pan pan.c && ./pan
 *     or:   python3 tools/model/run1.py --model promela/ticket.pml MM_WEAK
 * Parameters (-D):
 *   MM_SC | MM_TSO | MM_WEAK    memory model
 *   NCPU=2..4   ROUNDS=1..3     CPUs, and how often each takes the lock (default 3 x 2)
 *   TAS_LOCK=1                  known-bad variant: the test-and-set lock of the protocol model
 *                               (mm_lock); the FIFO assertion must fail
 *   TMOD=2^k (default 256)      tickets and owner count modulo TMOD (the C counters wrap at
 *                               2^32): TMOD=4 wraps within a run and must still hold; TMOD=2
 *                               with 3 CPUs gives two waiters one ticket (known-bad: mutual
 *                               exclusion fails)
 * Each CPU: ROUNDS x { spin_lock; counter++ (plain load + store); spin_unlock }.
 */
#ifndef NCPU
#define NCPU 3
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#ifndef TAS_LOCK
#define TAS_LOCK 0
#endif
#ifndef TMOD
#define TMOD 256           /* a byte: the memory cells are bytes, fetch-and-add wraps there */
#endif
#define NEXT    0          /* lock->next: the next ticket to hand out */
#define OWNER   1          /* lock->owner: the ticket being served (the TAS lock's word too) */
#define DATA    2          /* data the lock protects: a counter */
#define NADDR   3
#define NH      3
mtype = { LOCK_TICKET, LOCK_WAIT, UNLOCK, CS_LOAD, CS_STORE };
#include "mm/mm.pml"

/* ghost state (never read by the lock) */
byte arrived;              /* CPUs that have joined the queue so far (each join counted once) */
byte served;               /* acquisitions so far */
byte holder;               /* CPU+1 in the critical section, 0 if none */
bit  done[NCPU];

/*
 * spin_lock: the ticket is taken by one fetch-and-add (LOCK_TICKET, an acquire RMW as in the C:
 * mm_fetch_add_acq, under WEAK the CPU's earlier stores may still be buffered); the CPU
 * joins the queue in that same step (ghost ord = its place).  Then it waits with acquire loads
 * of owner (LOCK_WAIT) until owner == ticket.
 * REQ-LOCK-2: acquisitions happen in queue order -- the CPU that joined ord-th is served
 * ord-th, so a waiting CPU is overtaken by none of the CPUs queued after it.
 */
inline ticket_lock(me, t, o, ord) {
#if TAS_LOCK
	d_step { ord = arrived; arrived++ }          /* the first attempt: it joins the "queue" */
	mm_lock(me, OWNER, LOCK_WAIT);               /* test-and-set: any waiter may win */
#else
	atomic { mm_fetch_add_acq(me, NEXT, 1, t, LOCK_TICKET); t = t & (TMOD - 1);
		ord = arrived; arrived++ }       /* (next itself counts mod 256; masking it is the same) */
	do
	:: mm_load_acq(me, OWNER, o, LOCK_WAIT);
		if
		:: o == t -> o = 0; break
		:: else -> o = 0                         /* cpu_relax(), load again */
		fi
	od;
#endif
	atomic {        /* (atomic, not d_step: the loop's break jumps here) */
		assert(holder == 0);                     /* REQ-LOCK-1: mutual exclusion */
		holder = me + 1;
		assert(ord == served);                   /* REQ-LOCK-2: FIFO (queue order) */
		served++; ord = 0 }
}
/* spin_unlock: only the holder writes owner, so it reads it relaxed and releases owner + 1 */
inline ticket_unlock(me, t, o) {
#if TAS_LOCK
	atomic { holder = 0; mm_unlock(me, OWNER, UNLOCK) }
#else
	mm_load(me, OWNER, o, UNLOCK);
	atomic { holder = 0; mm_store_rel(me, OWNER, (o + 1) & (TMOD - 1), UNLOCK); o = 0; t = 0 }
#endif
}

proctype cpu(byte me) {
	byte t, o, ord, v, k;
	do
	:: k < ROUNDS ->
		ticket_lock(me, t, o, ord);
		mm_load(me, DATA, v, CS_LOAD);           /* the critical section: counter++ */
		atomic { mm_store(me, DATA, v + 1, CS_STORE); v = 0 }
		ticket_unlock(me, t, o);
		k++
	:: else -> break
	od;
	done[me] = 1
}

#define DR(c) (NCPU <= c || (done[c] && MM_DRAINED(c)))
init {
	atomic {
		mm_start();
		mm_k = 0;
		do
		:: mm_k < NCPU -> run cpu(mm_k); mm_k++
		:: else -> break
		od;
		mm_k = 0
	}
	/* REQ-LOCK-1: each holder saw the previous holder's store (no increment lost) */
	(DR(0) && DR(1) && DR(2) && DR(3));
	assert(mem[DATA] == NCPU * ROUNDS)
}

/*
 * proofs/trial/trial.c — a small, self-contained file that exercises the WP gate end to end
 * before (and independently of) the real core: a ticket lock over port atomics, irqsave /
 * irqrestore over a ghost interrupt-enable flag, and a synchronize loop with the locked re-check.
 * The gate must prove all of it (make prove-trial); proofs/negative/trial-*.c must fail.
 */
#define NR 4u
#define INPROGRESS 1u

typedef struct { unsigned int next, owner; } spinlock_t;
typedef struct { unsigned long v; } irq_flags_t;
struct desc { spinlock_t lock; unsigned int status; };
struct desc table[NR];

//@ ghost int g_irqs_on;           // this CPU's interrupt-enable state
//@ ghost spinlock_t *g_held[4];    // locks this CPU holds, innermost last
//@ ghost int g_nheld;
//@ ghost unsigned int g_obs;       // last status value synchronize() based its return on
//@ ghost int g_obs_locked;         // ... and whether that read was made under the lock

/*@ predicate innermost_lock(spinlock_t *l) = 0 < g_nheld <= 4 && g_held[g_nheld - 1] == l;
    predicate lock_stack_ok = 0 <= g_nheld <= 4;
    logic boolean flags_irqs_on(irq_flags_t f) = f.v != 0 ? \true : \false;
*/

/* port primitives: no body, contract assumed (trusted base) */
/*@ requires \valid(p);
    assigns *p;
    ensures \result == \old(*p) && *p == (unsigned int)(\old(*p) + 1u);
    ensures \initialized(p); */
unsigned int port_fetch_inc(unsigned int *p);
/*@ requires \valid_read(p);
    assigns \nothing; */
unsigned int port_load_acquire(const volatile unsigned int *p);
/*@ assigns \nothing; */
void port_cpu_relax(void);
/*@ assigns g_irqs_on;
    ensures g_irqs_on == 0;
    ensures flags_irqs_on(\result) <==> \old(g_irqs_on) != 0; */
irq_flags_t port_irq_save(void);
/*@ assigns g_irqs_on;
    ensures g_irqs_on == (flags_irqs_on(f) ? 1 : 0); */
void port_irq_restore(irq_flags_t f);

/*@ requires \valid(l) && \initialized(l) && lock_stack_ok && g_nheld < 4;
    assigns l->next, g_held[g_nheld], g_nheld;
    ensures innermost_lock(l) && g_nheld == \old(g_nheld) + 1;
    ensures \initialized(l);
*/
void spin_lock(spinlock_t *l)
{
	unsigned int t = 0u;	/* WP 25 proves a call result initialised only over an initialised local */

	t = port_fetch_inc(&l->next);
	/*@ loop assigns \nothing; */
	while (port_load_acquire(&l->owner) != t)
		port_cpu_relax();
	/*@ ghost g_held[g_nheld] = l; g_nheld++; */
}

/*@ requires \valid(l) && \initialized(l) && innermost_lock(l);
    assigns l->owner, g_nheld;
    ensures g_nheld == \old(g_nheld) - 1;
    ensures \initialized(l);
*/
void spin_unlock(spinlock_t *l)
{
	l->owner = l->owner + 1u;
	/*@ ghost g_nheld--; */
}

/*@ requires \valid(l) && \initialized(l) && \valid(f) && \separated(l, f);
    requires lock_stack_ok && g_nheld < 4;
    assigns *f, g_irqs_on, l->next, g_held[g_nheld], g_nheld;
    ensures irqsave_saved: flags_irqs_on(*f) <==> \old(g_irqs_on) != 0;
    ensures irqs_off: g_irqs_on == 0;
    ensures locked: innermost_lock(l) && g_nheld == \old(g_nheld) + 1;
    ensures \initialized(l);
*/
void spin_lock_irqsave(spinlock_t *l, irq_flags_t *f)
{
	*f = port_irq_save();
	spin_lock(l);
}

/*@ requires \valid(l) && \initialized(l) && innermost_lock(l);
    assigns l->owner, g_nheld, g_irqs_on;
    ensures restored: g_irqs_on == (flags_irqs_on(f) ? 1 : 0);
    ensures unlocked: g_nheld == \old(g_nheld) - 1;
    ensures \initialized(l);
*/
void spin_unlock_irqrestore(spinlock_t *l, irq_flags_t f)
{
	spin_unlock(l);
	port_irq_restore(f);
}

/* Ghost log of the status read a caller bases its decision on, and whether the CPU held the
   given lock (innermost) when it read it. */
/*@ ghost
  /@ requires lock_stack_ok;
     assigns g_obs, g_obs_locked;
     ensures g_obs == s;
     ensures g_obs_locked == 1 <==> innermost_lock(l);
  @/
  void observe_status(spinlock_t *l, unsigned int s)
  {
	g_obs = s;
	if (g_nheld > 0 && g_held[g_nheld - 1] == l)
		g_obs_locked = 1;
	else
		g_obs_locked = 0;
  }
*/

/*@ requires irq_ok: irq < NR;
    requires table_initialized: \initialized(&table[0 .. NR - 1]);
    requires lock_stack_ok && g_nheld < 4;
    requires g_irqs_on == 0 || g_irqs_on == 1;
    assigns table[irq].lock.next, table[irq].lock.owner, g_held[g_nheld], g_nheld, g_irqs_on,
            g_obs, g_obs_locked;
    ensures REQ_SYNC_1: sync_locked_recheck: g_obs_locked == 1 && (g_obs & INPROGRESS) == 0;
    ensures sync_irq_state: g_irqs_on == \old(g_irqs_on);
    ensures sync_locks_released: g_nheld == \old(g_nheld);
*/
void synchronize(unsigned int irq)
{
	struct desc *d = &table[irq];
	unsigned int status = 0u;
	irq_flags_t f;

#ifndef TRIAL_V0
	/*@ loop invariant g_nheld == \at(g_nheld, Pre) && g_irqs_on == \at(g_irqs_on, Pre);
	    loop invariant \initialized(&table[0 .. NR - 1]);
	    loop assigns status, f, d->lock.next, d->lock.owner, g_held[\at(g_nheld, Pre)], g_nheld,
	                 g_irqs_on, g_obs, g_obs_locked; */
	do {
		/* wait without the lock (every status read is logged for the contract) */
		/*@ loop invariant g_nheld == \at(g_nheld, Pre);
		    loop assigns status, g_obs, g_obs_locked; */
		do {
			status = port_load_acquire(&d->status);
			//@ ghost observe_status(&d->lock, status);
		} while (status & INPROGRESS);
		/* the locked re-check */
		spin_lock_irqsave(&d->lock, &f);
		status = d->status;
		//@ ghost observe_status(&d->lock, status);
		spin_unlock_irqrestore(&d->lock, f);
	} while (status & INPROGRESS);
#else	/* the 2007 original: returns on an unlocked read of INPROGRESS */
	/*@ loop invariant g_nheld == \at(g_nheld, Pre);
	    loop assigns status, g_obs, g_obs_locked; */
	do {
		status = port_load_acquire(&d->status);
		//@ ghost observe_status(&d->lock, status);
	} while (status & INPROGRESS);
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * steps.h - the shared-memory steps of the core (REQ-IMPL-3).  Internal: the
 * core, the hosted port and the tests include it (never the public irqsync.h).
 *
 * Each step carries the name of its Promela step (spec/steps.md).  The core
 * marks it with IRQSYNC_STEP(NAME, irq) next to the access, or hands it to a descriptor
 * helper (internal.h) that performs the step.  The marks cost
 * nothing unless the library is built with -DIRQSYNC_STEP_HOOKS (a test-only
 * build), where each calls the hook set with irqsync_set_step_hook(); the
 * conformance harness records and replays traces through it.
 */
#ifndef _IRQSYNC_CORE_STEPS_H
#define _IRQSYNC_CORE_STEPS_H

#define IRQSYNC_FOR_EACH_STEP(S) \
	S(LOCK_TICKET) S(LOCK_WAIT) S(UNLOCK) \
	S(D_LOCK) S(D_CHECK) S(D_SET_PENDING) S(D_SET_INPROGRESS) S(D_UNLOCK) \
	S(D_HANDLER) S(H_READ_FLAG) S(H_WORK) S(H_DONE) S(D_RELOCK) S(D_CHECK_PENDING) \
	S(D_CLEAR_PENDING) S(D_CLEAR_INPROGRESS) S(D_UNLOCK_END) \
	S(S_MB) S(S_SPIN_READ) S(S_LOCK) S(S_RECHECK) S(S_UNLOCK) S(S_RETURN) \
	S(DRV_STORE_FLAG) S(DRV_MB) S(DRV_READ_DONE) \
	S(DIS_LOCK) S(DIS_DEPTH_INC) S(DIS_UNLOCK) \
	S(EN_LOCK) S(EN_DEPTH_DEC) S(EN_REPLAY) S(EN_UNLOCK) \
	S(REQ_LOCK) S(REQ_INSTALL) S(REQ_UNLOCK) \
	S(FREE_LOCK) S(FREE_UNLINK) S(FREE_UNLOCK) \
	S(T_MASK) S(T_COUNT) S(T_WAKE) S(T_FOLD) S(T_WAKEUP) S(T_UNMASK) S(T_RUN) \
	S(T_FIN_LOCK) S(T_FIN_CHECK) S(T_FIN_CLEAR) S(T_FIN_UNLOCK) S(T_DONE) S(T_STOP) \
	S(S_CHIP) S(S_THREADS) S(S_THREADS_SLEEP) \
	S(IRQ_SAVE) S(IRQ_RESTORE) S(IRQ_DISABLE) S(IRQ_ENABLE) S(IRQ_ARRIVE)

#define IRQSYNC_STEP_ENUM_(name) IRQSYNC_STEP_##name,
enum irqsync_step {
	IRQSYNC_FOR_EACH_STEP(IRQSYNC_STEP_ENUM_)
	IRQSYNC_NR_STEPS
};

#ifdef IRQSYNC_STEP_HOOKS
#ifndef IRQSYNC_TESTING
#error "IRQSYNC_STEP_HOOKS is for test builds only (define IRQSYNC_TESTING)"
#endif
typedef void (*irqsync_step_hook_t)(enum irqsync_step step, unsigned int irq);
/* Install @hook (NULL: none); returns the previous one. */
irqsync_step_hook_t irqsync_set_step_hook(irqsync_step_hook_t hook);
/* The name of @step as in spec/steps.md, or "?" . */
const char *irqsync_step_name(enum irqsync_step step);
void irqsync_step(enum irqsync_step step, unsigned int irq);
# define IRQSYNC_STEP_AT(step, irq) irqsync_step((step), (irq))
#else
# define IRQSYNC_STEP_AT(step, irq) ((void)(step), (void)(irq))
#endif
/* Mark step NAME; IRQSYNC_STEP_AT takes the step as a value (the descriptor helpers). */
#define IRQSYNC_STEP(name, irq) IRQSYNC_STEP_AT(IRQSYNC_STEP_##name, (irq))

#endif /* _IRQSYNC_CORE_STEPS_H */

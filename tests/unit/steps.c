/*
 * steps.c - the step marks of the core follow spec/steps.md (REQ-IMPL-3).
 *
 * Built against the IRQSYNC_STEP_HOOKS test library: records the steps of
 * a dispatch, a synchronize_irq, disable/enable and request/free on one
 * line and checks each sequence against the order of spec/steps.md.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "check.h"
#include "unit_util.h"
#include "steps.h"		/* src/core: the step marks (internal) */

#ifndef IRQSYNC_STEP_HOOKS
#error "build steps.c against the IRQSYNC_STEP_HOOKS library, with -DIRQSYNC_STEP_HOOKS"
#endif

#define MAXREC 256
static enum irqsync_step rec[MAXREC];
static int nrec;
static char prefix;	/* record only steps whose name starts with it ('\0': all with an irq) */

static void hook(enum irqsync_step step, unsigned int irq)
{
	const char *name = irqsync_step_name(step);

	if (irq == IRQSYNC_NO_IRQ)
		return;		/* lock-level and irq-state steps carry no line */
	if (prefix && name[0] != prefix)
		return;
	if (nrec < MAXREC)
		rec[nrec++] = step;
}

static void record(char p)
{
	nrec = 0;
	prefix = p;
}

/* The recorded sequence, as names separated by spaces. */
static const char *trace(void)
{
	static char buf[4096];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nrec; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
					irqsync_step_name(rec[i]));
	return buf;
}

#define CHECK_TRACE(expected) do { \
	const char *got_ = trace(); \
	if (strcmp(got_, (expected)) != 0) { \
		check_cur_failed++; \
		printf("#   %s:%d: trace\n#     got: %s\n#    want: %s\n", __FILE__, __LINE__, \
		       got_, (expected)); \
	} } while (0)

static irqreturn_t handler(void *dev_id)
{
	(void)dev_id;
	return IRQ_HANDLED;
}

static int dev;

TEST(dispatch_steps)
{
	irqsync_init();
	CHECK_EQ(request_irq(1, handler, 0, "h", &dev), 0);
	record('D');
	CHECK_EQ(handle_irq(1), 0);
	CHECK_TRACE("D_LOCK D_CHECK D_SET_INPROGRESS D_UNLOCK D_HANDLER D_RELOCK "
		    "D_CHECK_PENDING D_CLEAR_INPROGRESS D_UNLOCK_END");
	CHECK_EQ(disable_irq_nosync(1), 0);
	record('D');
	CHECK_EQ(handle_irq(1), 0);
	CHECK_TRACE("D_LOCK D_CHECK D_SET_PENDING D_UNLOCK");
}

TEST(synchronize_steps_v2)
{
	irqsync_init();
	record('S');
	CHECK_EQ(synchronize_irq(1), 0);
	CHECK_TRACE("S_SPIN_READ S_LOCK S_RECHECK S_UNLOCK S_RETURN S_CHIP S_THREADS");
}

TEST(depth_steps)
{
	irqsync_init();
	CHECK_EQ(request_irq(1, handler, 0, "h", &dev), 0);
	record('\0');
	CHECK_EQ(disable_irq(1), 0);
	CHECK_TRACE("DIS_LOCK DIS_DEPTH_INC DIS_UNLOCK S_SPIN_READ S_LOCK S_RECHECK S_UNLOCK S_RETURN S_CHIP S_THREADS");
	CHECK_EQ(handle_irq(1), 0);	/* held */
	record('E');
	CHECK_EQ(enable_irq(1), 0);
	CHECK_TRACE("EN_LOCK EN_DEPTH_DEC EN_UNLOCK EN_REPLAY");
}

TEST(lifecycle_steps)
{
	irqsync_init();
	record('\0');
	CHECK_EQ(request_irq(1, handler, 0, "h", &dev), 0);
	CHECK_TRACE("REQ_LOCK REQ_INSTALL REQ_UNLOCK");
	record('\0');
	CHECK_EQ(free_irq(1, &dev), 0);
	CHECK_TRACE("FREE_LOCK FREE_UNLINK FREE_UNLOCK S_SPIN_READ S_LOCK S_RECHECK S_UNLOCK S_RETURN S_CHIP S_THREADS");
}

TEST(step_names_round_trip)
{
	CHECK(strcmp(irqsync_step_name(IRQSYNC_STEP_D_SET_INPROGRESS), "D_SET_INPROGRESS") == 0);
	CHECK(strcmp(irqsync_step_name(IRQSYNC_NR_STEPS), "?") == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	(void)irqsync_hosted_cpu_attach(0);
	(void)irqsync_set_step_hook(hook);
	RUN_REQ(dispatch_steps, "REQ-IMPL-3 REQ-DISPATCH-1");
	RUN_REQ(synchronize_steps_v2, "REQ-IMPL-3 REQ-SYNC-5");
	RUN_REQ(depth_steps, "REQ-IMPL-3");
	RUN_REQ(lifecycle_steps, "REQ-IMPL-3");
	RUN_REQ(step_names_round_trip, "REQ-IMPL-3");
	/* For the suite: print every step name, to compare with spec/steps.md. */
	for (int i = 0; i < IRQSYNC_NR_STEPS; i++)
		printf("# step %s\n", irqsync_step_name((enum irqsync_step)i));
	return check_done();
}

/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): CPU ids counted from 1, so
 * the last CPU's id is IRQSYNC_NR_CPUS -- out of range (port.h: "below IRQSYNC_NR_CPUS";
 * acsl/logic/model.h axiom this_cpu_range); the core would index past its per-CPU arrays. The port
 * conformance suite must fail "cpu-id/in-range-stable-distinct".
 */
#define irqsync_port_cpu_id irqsync_port_cpu_id_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_cpu_id

unsigned int irqsync_port_cpu_id(void);

unsigned int irqsync_port_cpu_id(void)
{
	return irqsync_port_cpu_id_shipped() + 1U;	/* BUG: 1 .. IRQSYNC_NR_CPUS */
}

/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD AArch64 bare-metal port (tests/port/broken/, docs/porting.md): CPU ids counted
 * from 1 (MPIDR_EL1.Aff0 + 1), so the second CPU of a two-CPU build reports 2 =
 * IRQSYNC_NR_CPUS (port.h: "below IRQSYNC_NR_CPUS"). Checked on qemu virt with two CPUs: the
 * port conformance suite must fail "cpu-id/in-range-stable-distinct".
 */
#define irqsync_port_cpu_id irqsync_port_cpu_id_shipped
#include "../../../../src/port/baremetal-aarch64/port.c"
#undef irqsync_port_cpu_id

unsigned int irqsync_port_cpu_id(void);

unsigned int irqsync_port_cpu_id(void)
{
	return irqsync_port_cpu_id_shipped() + 1U;	/* BUG */
}

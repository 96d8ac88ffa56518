/* SPDX-License-Identifier: MIT */
/*
 * A KNOWN-BAD hosted port (tests/port/broken/, docs/porting.md): the lost wake-up. The wait
 * tests ready() BEFORE it announces itself as a waiter (reads the channel's wake sequence).
 * A wake that comes between the test and the announcement changes nothing the sleep looks at:
 * the waiter reads the already-bumped sequence and sleeps on it, though ready() would now be
 * true (port.h: "the port calls ready() only after the caller is announced as a waiter";
 * spec/threaded.md REQ-THREAD-8). A wait entered well before or well after the wake still
 * returns. The port conformance suite must fail "wait/wake-after-a-state-change-is-never-lost"
 * -- by its watchdog, which wakes the forgotten waiter after about 3 s, not by a hang.
 */
#define irqsync_port_wait irqsync_port_wait_shipped
#include "../../../../src/port/hosted/port.c"
#undef irqsync_port_wait

void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan));

void irqsync_port_wait(unsigned int chan, int (*ready)(unsigned int chan))
{
	struct hosted_chan *c;
	unsigned int seen;

	hosted_cb();
	if (chan < IRQSYNC_PORT_CHANNELS) {
		c = &hosted_chans[chan];
		for (;;) {
			if (ready(chan))		/* BUG: looked at before announced */
				break;
			atomic_fetch_add(&c->waiters, 1U);
			seen = atomic_load(&c->wseq);
			hosted_futex_wait(&c->wseq, seen);
			atomic_fetch_sub(&c->waiters, 1U);
		}
	}
	hosted_cb();
}

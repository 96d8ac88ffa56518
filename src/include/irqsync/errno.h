/* SPDX-License-Identifier: MIT */
/*
 * irqsync/errno.h - the error codes of the API (REQ-ERR-7).
 *
 * Every function that can fail returns 0 or the negation of one of these.
 * The values are those of Linux (asm-generic/errno-base.h, errno.h), fixed
 * here so that hosted and bare-metal C libraries (newlib numbers EDEADLK
 * differently) report the same numbers.
 *
 *   code               value  returned by
 *   IRQSYNC_ENOENT       2    free_irq: no action with that dev_id (REQ-ERR-3)
 *   IRQSYNC_ESRCH        3    get_irqfunc_irq: not in handler context (REQ-HANDLER-2)
 *   IRQSYNC_ENOMEM      12    request_threaded_irq: the port cannot start one more handler
 *                             thread (spec/threaded.md)
 *   IRQSYNC_EBUSY       16    request_irq: line taken by a non-shared action (REQ-LIFECYCLE-2)
 *   IRQSYNC_EINVAL      22    any function: irq >= NR_IRQS (REQ-ERR-1);
 *                             request_irq: NULL handler, unknown flags, shared
 *                             with NULL or duplicate dev_id (REQ-ERR-2, REQ-LIFECYCLE-3);
 *                             enable_irq: depth already 0 (REQ-DEPTH-4);
 *                             irqsync_warn_count: unknown code
 *   IRQSYNC_ENOSPC      28    request_irq: action pool of the line full (REQ-LIFECYCLE-6)
 *   IRQSYNC_EDEADLK     35    synchronize_irq, disable_irq, free_irq from a
 *                             handler of the same line (REQ-ERR-4)
 *   IRQSYNC_EOVERFLOW   75    disable_irq(_nosync): depth at IRQSYNC_DEPTH_MAX (REQ-DEPTH-5)
 *
 * A function that returns an error has changed no state of the library
 * (other than the warning counters of irqsync/warn.h).
 */
#ifndef _IRQSYNC_ERRNO_H
#define _IRQSYNC_ERRNO_H

#define IRQSYNC_ENOENT     2
#define IRQSYNC_ESRCH      3
#define IRQSYNC_ENOMEM    12
#define IRQSYNC_EBUSY     16
#define IRQSYNC_EINVAL    22
#define IRQSYNC_ENOSPC    28
#define IRQSYNC_EDEADLK   35
#define IRQSYNC_EOVERFLOW 75

#endif /* _IRQSYNC_ERRNO_H */

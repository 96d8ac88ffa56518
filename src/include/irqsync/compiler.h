/* SPDX-License-Identifier: MIT */
/*
 * irqsync/compiler.h - annotations for sparse and the compiler.
 *
 * Under sparse (__CHECKER__) the lock-context annotations are real, so that
 * `make lint` sees an unbalanced lock (REQ-LOCK-5); for the compilers they
 * expand to nothing.  __must_check is a real GCC/Clang attribute.
 *
 *   __acquires(x)      the function returns holding x
 *   __releases(x)      the function is entered holding x and returns without it
 *   __must_hold(x)     the function is entered and left holding x
 *   __acquire(x)       (a statement) x is acquired here
 *   __release(x)       (a statement) x is released here
 *   __must_check       the caller must use the result
 */
#ifndef _IRQSYNC_COMPILER_H
#define _IRQSYNC_COMPILER_H

#ifdef __CHECKER__
# define __acquires(x)     __attribute__((context(x, 0, 1)))
# define __releases(x)     __attribute__((context(x, 1, 0)))
# define __must_hold(x)    __attribute__((context(x, 1, 1)))
# define __acquire(x)      __context__(x, 1)
# define __release(x)      __context__(x, -1)
#else
# define __acquires(x)
# define __releases(x)
# define __must_hold(x)
# define __acquire(x)      ((void)0)
# define __release(x)      ((void)0)
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__FRAMAC__)
# define __must_check      __attribute__((warn_unused_result))
/* A function off the hot path: GCC lays the code that calls it out apart (.text.unlikely). */
# define __cold            __attribute__((cold))
#else
# define __must_check
# define __cold
#endif

#endif /* _IRQSYNC_COMPILER_H */

/* bmcheck.h — TAP output over semihosting for the bare-metal test (no stdio on the target).
 * Same shape as tests/harness/check.h, so tests/lib.sh's t_tap records each case:
 * "ok N - name [REQ-…]" / "not ok N - name [REQ-…]" preceded by "#   file:line: …". */
#ifndef IRQSYNC_BM_CHECK_H
#define IRQSYNC_BM_CHECK_H

#include "semihost.h"

extern int bm_n_tests, bm_n_failed, bm_cur_failed;

static inline void bm_fail_at(const char *file, int line, const char *what)
{
	bm_cur_failed++;
	sh_puts("#   ");
	sh_puts(file);
	sh_puts(":");
	sh_putu((unsigned long)line);
	sh_puts(": ");
	sh_puts(what);
}

#define BM_CHECK(cond) do { \
	if (!(cond)) { \
		bm_fail_at(__FILE__, __LINE__, "CHECK(" #cond ") failed\n"); \
	} } while (0)

#define BM_CHECK_EQ(a, b) do { \
	long bm_a_ = (long)(a), bm_b_ = (long)(b); \
	if (bm_a_ != bm_b_) { \
		bm_fail_at(__FILE__, __LINE__, "CHECK_EQ(" #a ", " #b "): "); \
		sh_puti(bm_a_); sh_puts(" != "); sh_puti(bm_b_); sh_puts("\n"); \
	} } while (0)

static inline void bm_report(const char *name, const char *reqs)
{
	bm_n_tests++;
	if (bm_cur_failed) {
		bm_n_failed++;
		sh_puts("not ok ");
	} else {
		sh_puts("ok ");
	}
	sh_putu((unsigned long)bm_n_tests);
	sh_puts(" - ");
	sh_puts(name);
	sh_puts(" [");
	sh_puts(reqs);
	sh_puts("]\n");
	bm_cur_failed = 0;
}

#define BM_RUN(fn, reqs) do { test_##fn(); bm_report(#fn, reqs); } while (0)

#endif

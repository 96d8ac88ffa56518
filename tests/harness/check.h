/* check.h — irqsync's minimal C test harness: header-only, TAP output, no allocation.
 *
 *   #include "check.h"
 *   TEST(request_shared) { CHECK_EQ(request_irq(...), 0); }
 *   int main(void) { RUN(request_shared); return check_done(); }
 *
 * Each RUN prints "# begin: name", then the failed checks (file:line, expression, values)
 * and "ok N - name" or "not ok N - name". check_done() prints the plan and returns 1 if any test
 * failed. tests/lib.sh (t_tap) turns this output into results. Put REQ IDs in the name
 * with RUN_REQ(fn, "REQ-…").
 */
#ifndef IRQSYNC_TEST_CHECK_H
#define IRQSYNC_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_n_tests;
static int check_n_failed;
static int check_cur_failed;

#define TEST(name) static void test_##name(void)

#define CHECK(cond) do { \
	if (!(cond)) { \
		check_cur_failed++; \
		printf("#   %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	} } while (0)

#define CHECK_EQ(a, b) do { \
	long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
	if (check_a_ != check_b_) { \
		check_cur_failed++; \
		printf("#   %s:%d: CHECK_EQ(%s, %s): %lld != %lld\n", __FILE__, __LINE__, \
		       #a, #b, check_a_, check_b_); \
	} } while (0)

static inline void check_name(const char *name, const char *reqs)
{
	printf("%s%s%s%s\n", name, reqs ? " [" : "", reqs ? reqs : "", reqs ? "]" : "");
	fflush(stdout);
}

/* Each case is named before it runs: a program stopped in a case that never returns (the time
 * limit of tests/lib.sh) is reported under that case's name, not the program's. */
static inline void check_begin(const char *name, const char *reqs)
{
	printf("# begin: ");
	check_name(name, reqs);
}

/* Pre-declared so that a failing test can be reported before the test's own output. */
static inline void check_report(const char *name, const char *reqs)
{
	check_n_tests++;
	if (check_cur_failed)
		check_n_failed++;
	printf("%sok %d - ", check_cur_failed ? "not " : "", check_n_tests);
	check_name(name, reqs);
	check_cur_failed = 0;
}

#define RUN(name) RUN_REQ(name, NULL)
#define RUN_REQ(name, reqs) do { check_begin(#name, reqs); test_##name(); \
	check_report(#name, reqs); } while (0)
#define SKIP(name, why) do { check_n_tests++; \
	printf("ok %d - %s # SKIP %s\n", check_n_tests, #name, why); fflush(stdout); } while (0)

static inline int check_done(void)
{
	printf("1..%d\n", check_n_tests);
	return check_n_failed ? 1 : 0;
}

#endif

/* Self-test of tests/harness/check.h: it must report passing checks as "ok" and a failing
 * check as "not ok" with the failing expression. Run with "fail" to include a failing case. */
#include <string.h>
#include "check.h"

TEST(passing_checks)
{
	CHECK(1 + 1 == 2);
	CHECK_EQ(-22, -22);
}

TEST(deliberately_failing)
{
	CHECK_EQ(2 + 2, 5);
}

int main(int argc, char **argv)
{
	RUN(passing_checks);
	if (argc > 1 && strcmp(argv[1], "fail") == 0)
		RUN(deliberately_failing);
	return check_done();
}

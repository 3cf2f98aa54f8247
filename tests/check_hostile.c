/* Hostile input (issue 12): every input ends at once with one line
 * naming what is at fault, its exit code, and nothing run.  Unit tests
 * of the pieces, and the gpulab command on the host-only test plugins. */
#include "config.h"

#include "exitcode.h"
#include "size.h"
#include "testutil.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- sizes ------------------------------------------------------------------ */
static void expect_size(const char *s, uint64_t want)
{
	uint64_t v = 12345;
	ck_assert_msg(parse_size(s, &v) == 0, "refused '%s'", s);
	ck_assert_msg(v == want, "'%s' = %llu, wanted %llu", s, (unsigned long long)v, (unsigned long long)want);
}

static void expect_no_size(const char *s)
{
	uint64_t v;
	ck_assert_msg(parse_size(s, &v) != 0, "accepted '%s'", s);
}

/* Powers take constant time, so the huge exponents end at once; the
 * test case's timeout says if they hang. */
START_TEST(size_powers_exact)
{
	expect_size("0^0", 1);
	expect_size("1^0", 1);
	expect_size("0^1", 0);
	expect_size("2^0", 1);
	expect_size("0^99999999999999", 0);
	expect_size("1^99999999999999999", 1);
	expect_size("1^18446744073709551615", 1);
	expect_size("0^000000000000000000000000000000", 1);
	expect_size("1^99999999999999999999999999999999999999", 1);
	expect_size("0^99999999999999999999999999999999999999", 0);
	expect_size("2^63", 1ull << 63);
	expect_size("3^40", 12157665459056928801ull);
	expect_size("7^22", 3909821048582988049ull);
	expect_size("10^19", 10000000000000000000ull);
	expect_size("4294967295^2", 18446744065119617025ull);
	expect_size("18446744073709551615^1", UINT64_MAX);
	expect_size("18446744073709551615^0", 1);
	expect_size("2^05", 32);
}
END_TEST

START_TEST(size_powers_overflow)
{
	const char *bad[] = { "2^64", "3^41", "7^23", "10^20", "4294967296^2", "18446744073709551615^2",
			      "2^99999999999999999", "2^18446744073709551615", "2^18446744073709551616",
			      "1^", "0^", "1^x", "0^1x", "1^-1", "0^ 1", "1^+1", "2^-1", "^0",
			      "18446744073709551616^0", NULL };
	for (int i = 0; bad[i]; i++)
		expect_no_size(bad[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hostile");
	TCase *t = tcase_create("hostile");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, size_powers_exact);
	tcase_add_test(t, size_powers_overflow);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}

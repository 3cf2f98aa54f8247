/* The statistics: summaries with exact values, the Mann-Whitney test
 * against scipy's answers, and the verdicts.
 *
 * The reference values were computed once with scipy 1.17.1 and numpy
 * 2.4 (pip install scipy), by scipy.stats.mannwhitneyu(a, b,
 * alternative='two-sided') with its default method='auto', and by
 * numpy.std(ddof=1) and numpy.percentile (linear, R's type 7), on the
 * same samples as here: lcg() below is the same generator written in
 * Python, so the doubles are bit for bit the same. */
#include "stats.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define close_to(x, want, rel) \
	ck_assert_msg(fabs((x) - (want)) <= (rel) * fabs(want), "%s = %.17g, expected %.17g", #x, (x), (want))

/* n samples scale * (1 + spread * u), u uniform in [0, 1) from a 64-bit
 * LCG (Knuth's MMIX constants) seeded with seed.  In Python:
 *   s = (s * 6364136223846793005 + 1442695040888963407) % 2**64
 *   u = (s >> 11) * 2.0**-53 */
static double *lcg(uint64_t seed, size_t n, double scale, double spread)
{
	double *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = scale * (1 + spread * ((double)(seed >> 11) * 0x1p-53));
	}
	return v;
}

/* --- summaries --------------------------------------------------------------- */
START_TEST(summary_exact)
{
	const double v[] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	double copy[8];
	struct stats s;
	memcpy(copy, v, sizeof v);
	ck_assert_int_eq(stats_summarise(copy, 8, &s), 0);
	ck_assert(!memcmp(copy, v, sizeof v)); /* left as it was */
	ck_assert_uint_eq(s.n, 8);
	ck_assert(s.min == 1 && s.max == 9);
	ck_assert(s.mean == 3.875);
	ck_assert(s.median == 3.5);
	/* type 7: h = 7 * 0.25 = 1.75, 1 + 0.75 (2 - 1); h = 5.25, 5 + 0.25 (6 - 5) */
	ck_assert(s.q1 == 1.75 && s.q3 == 5.25 && s.iqr == 3.5);
	close_to(s.stddev, 2.748376143938713, 1e-15); /* numpy.std(ddof=1) */
	close_to(s.stdrel, 2.748376143938713 / 3.875, 1e-15);

	const double odd[] = { 5, 1, 3 };
	ck_assert_int_eq(stats_summarise(odd, 3, &s), 0);
	ck_assert(s.median == 3 && s.q1 == 2 && s.q3 == 4 && s.stddev == 2);
}
END_TEST

START_TEST(summary_noise)
{
	double *v = lcg(7, 30, 10, 0.4);
	struct stats s;
	ck_assert_int_eq(stats_summarise(v, 30, &s), 0);
	/* numpy on the same doubles */
	ck_assert(s.min == 10.25292665197939 && s.max == 13.925285747561214);
	close_to(s.mean, 12.02040220666441, 1e-15);
	close_to(s.stddev, 1.2414495427819088, 1e-14);
	close_to(s.q1, 10.946914495150311, 1e-15);
	close_to(s.median, 11.827513308844905, 1e-15);
	close_to(s.q3, 13.171886345522653, 1e-15);
	close_to(s.stdrel, 1.2414495427819088 / 12.02040220666441, 1e-14);
	free(v);
}
END_TEST

START_TEST(summary_edges)
{
	struct stats s;
	const double one = 2.5, bad[] = { 1, NAN, 2 }, inf[] = { 1, INFINITY }, zero[] = { -1, 1 };
	ck_assert_int_eq(stats_summarise(&one, 1, &s), 0);
	ck_assert(s.min == 2.5 && s.max == 2.5 && s.median == 2.5 && s.q1 == 2.5 && s.q3 == 2.5 && s.iqr == 0);
	ck_assert(isnan(s.stddev) && isnan(s.stdrel)); /* one sample has no spread to speak of */
	ck_assert_int_eq(stats_summarise(zero, 2, &s), 0);
	ck_assert(s.mean == 0 && isnan(s.stdrel));
	ck_assert_int_eq(stats_summarise(&one, 0, &s), -1);
	ck_assert_int_eq(stats_summarise(bad, 3, &s), -1);
	ck_assert_int_eq(stats_summarise(inf, 2, &s), -1);
}
END_TEST

/* --- Mann-Whitney --------------------------------------------------------------- */
static struct mw mw(const double *a, size_t na, const double *b, size_t nb)
{
	struct mw r;
	ck_assert_int_eq(stats_mann_whitney(a, na, b, nb, &r), 0);
	return r;
}

START_TEST(mw_exact_small)
{
	const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	struct mw r = mw(lo, 5, hi, 5);
	ck_assert(r.exact && r.u == 0);
	close_to(r.p, 0.007936507936507936, 1e-14); /* 2 / C(10, 5) */
	ck_assert(r.z < 0);
	r = mw(hi, 5, lo, 5);
	ck_assert(r.exact && r.u == 25);
	close_to(r.p, 0.007936507936507936, 1e-14);
	ck_assert(r.z > 0);
	/* scipy's documentation's example: U = 17, p = 0.1111111111111111 */
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	r = mw(males, 5, females, 4);
	ck_assert(r.exact && r.u == 17);
	close_to(r.p, 0.1111111111111111, 1e-14);
	/* four a side, perfectly apart: 2 / C(8, 4) */
	const double four[] = { 1, 2, 3, 4 }, four_hi[] = { 5, 6, 7, 8 };
	r = mw(four, 4, four_hi, 4);
	close_to(r.p, 0.02857142857142857, 1e-14);
	/* five a side, two pairs out of order */
	const double in2a[] = { 1, 2, 3, 4, 7 }, in2b[] = { 5, 6, 8, 9, 10 };
	r = mw(in2a, 5, in2b, 5);
	ck_assert(r.u == 2);
	close_to(r.p, 0.031746031746031744, 1e-14);
}
END_TEST

/* Exact where one side has 8 or fewer, even against many; normal from
 * 9 a side. */
START_TEST(mw_method_boundary)
{
	static const struct {
		uint64_t sa, sb;
		size_t na, nb;
		double scale_b, u, p;
		int exact;
	} c[] = {
		{ 5, 6, 5, 12, 10.5, 20, 0.3283775048480931, 1 },
		{ 8, 9, 8, 9, 10.6, 27, 0.4234471410941999, 1 },
		{ 10, 11, 9, 9, 10.6, 23, 0.1333202155896274, 0 },
		{ 12, 13, 8, 3000, 10.2, 11575, 0.8651670082182217, 1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		double *a = lcg(c[i].sa, c[i].na, 10, 0.4), *b = lcg(c[i].sb, c[i].nb, c[i].scale_b, 0.4);
		struct mw r = mw(a, c[i].na, b, c[i].nb);
		ck_assert_msg(r.exact == c[i].exact, "case %zu", i);
		ck_assert_msg(r.u == c[i].u, "case %zu: U = %g", i, r.u);
		close_to(r.p, c[i].p, 1e-10);
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(mw_ties)
{
	const double a[] = { 1, 2, 2, 3, 3, 3, 4, 5, 5, 6 }, b[] = { 2, 3, 4, 4, 5, 6, 6, 7, 8, 8 };
	struct mw r = mw(a, 10, b, 10);
	ck_assert(!r.exact && r.u == 23.5);
	close_to(r.p, 0.047069540401444114, 1e-12);
	close_to(r.z, -1.9856739404286947, 1e-12);
	/* ties on small samples: scipy takes the normal approximation */
	const double c[] = { 1, 2, 2, 3, 4 }, d[] = { 2, 3, 5, 6, 7 };
	r = mw(c, 5, d, 5);
	ck_assert(!r.exact && r.u == 4.5);
	close_to(r.p, 0.11161176829829224, 1e-12);
	close_to(r.z, -1.5909902576697317, 1e-12);
	/* all one value: no spread at all, p = 1 */
	const double same[] = { 1, 1, 1, 1, 1 };
	r = mw(same, 5, same, 5);
	ck_assert(r.u == 12.5 && r.z == 0 && r.p == 1);
}
END_TEST

START_TEST(mw_large)
{
	double *base = lcg(1, 30, 10, 0.4), *slow = lcg(2, 30, 12, 0.4);
	struct mw r = mw(slow, 30, base, 30);
	ck_assert(!r.exact && r.u == 738);
	close_to(r.p, 2.1327259187186813e-05, 1e-10);
	close_to(r.z, 4.250522307988794, 1e-12);
	r = mw(base, 30, slow, 30);
	ck_assert(r.u == 162);
	close_to(r.p, 2.1327259187186813e-05, 1e-10);
	free(base);
	free(slow);
	double *x = lcg(3, 30, 10, 0.4), *y = lcg(4, 30, 10, 0.4);
	r = mw(y, 30, x, 30);
	ck_assert(r.u == 461);
	close_to(r.p, 0.8766349003139949, 1e-12);
	free(x);
	free(y);
}
END_TEST

START_TEST(mw_refuses)
{
	const double a[] = { 1, 2, 3, 4, 5 }, nan[] = { 1, NAN, 3, 4, 5 };
	struct mw r;
	ck_assert_int_eq(stats_mann_whitney(a, 0, a, 5, &r), -1);
	ck_assert_int_eq(stats_mann_whitney(a, 5, a, 0, &r), -1);
	ck_assert_int_eq(stats_mann_whitney(a, 5, nan, 5, &r), -1);
	ck_assert(!stats_mw_enough(4, 5) && !stats_mw_enough(5, 4) && !stats_mw_enough(0, 100));
	ck_assert(stats_mw_enough(5, 5) && stats_mw_enough(100, 5));
}
END_TEST

/* --- verdicts ------------------------------------------------------------------- */
START_TEST(verdict_same)
{
	double *v = lcg(1, 30, 10, 0.4);
	struct stats_comparison c;
	ck_assert_int_eq(stats_verdict(v, 30, v, 30, STATS_ALPHA, &c), STATS_SAME);
	ck_assert(c.ratio == 1 && c.mw.p == 1 && c.mw.u == 450);
	double *w = lcg(4, 30, 10, 0.4); /* another draw from the same spread */
	ck_assert_int_eq(stats_verdict(v, 30, w, 30, STATS_ALPHA, &c), STATS_SAME);
	ck_assert(c.mw.p > 0.05);
	ck_assert_str_eq(stats_verdict_name(STATS_SAME), "same");
	free(v);
	free(w);
}
END_TEST

/* 20% slower under 40% noise, 30 runs a side. */
START_TEST(verdict_shift)
{
	double *base = lcg(1, 30, 10, 0.4), *slow = lcg(2, 30, 12, 0.4);
	struct stats_comparison c;
	ck_assert_int_eq(stats_verdict(base, 30, slow, 30, STATS_ALPHA, &c), STATS_SLOWER);
	close_to(c.mw.p, 2.1327259187186813e-05, 1e-10);
	ck_assert(c.mw.u == 738);
	ck_assert_msg(c.ratio > 1.1 && c.ratio < 1.3, "ratio %g", c.ratio);
	ck_assert(c.ratio == c.cand.median / c.base.median);
	ck_assert_int_eq(stats_verdict(slow, 30, base, 30, STATS_ALPHA, &c), STATS_FASTER);
	ck_assert(c.ratio < 1);
	/* at a stricter level than its p, the same shift is not enough */
	ck_assert_int_eq(stats_verdict(base, 30, slow, 30, 1e-5, &c), STATS_SAME);
	/* U says the candidate is larger (it beats half the base, and all of
	 * it for 14 samples), its median is lower: they disagree, "same" */
	double two_modes_base[30], two_modes[30];
	for (int k = 0; k < 30; k++) {
		two_modes_base[k] = k < 15 ? 9.0 : 15.0;
		two_modes[k] = k < 16 ? 9.99 : 20.0;
	}
	ck_assert_int_eq(stats_verdict(two_modes_base, 30, two_modes, 30, STATS_ALPHA, &c), STATS_SAME);
	ck_assert(c.mw.p < STATS_ALPHA && c.mw.u > 450 && c.ratio < 1);
	/* U says the candidate is smaller, the medians are equal (a timer's
	 * ticks make that common): no change to count on either, "same" */
	double ticks_base[30], ticks[30];
	for (int k = 0; k < 30; k++) {
		ticks_base[k] = k < 16 ? 10.0 : 12.0;
		ticks[k] = k < 14 ? 8.0 : 10.0;
	}
	ck_assert_int_eq(stats_verdict(ticks_base, 30, ticks, 30, STATS_ALPHA, &c), STATS_SAME);
	ck_assert(c.mw.p < STATS_ALPHA && c.mw.u == 128 && c.ratio == 1);
	ck_assert_str_eq(stats_verdict_name(STATS_SLOWER), "slower");
	ck_assert_str_eq(stats_verdict_name(STATS_FASTER), "faster");
	free(base);
	free(slow);
}
END_TEST

START_TEST(verdict_too_few)
{
	const double base[] = { 10, 10.1, 10.2 }, cand[] = { 20, 20.1, 20.2 };
	double *many = lcg(1, 30, 10, 0.4);
	struct stats_comparison c;
	/* twice as slow, but three runs cannot show it */
	ck_assert_int_eq(stats_verdict(base, 3, cand, 3, STATS_ALPHA, &c), STATS_TOO_FEW);
	close_to(c.ratio, 20.1 / 10.1, 1e-15);
	ck_assert(isnan(c.mw.p));
	ck_assert_int_eq(stats_verdict(many, 30, cand, 3, STATS_ALPHA, &c), STATS_TOO_FEW);
	ck_assert_int_eq(stats_verdict(many, 4, many, 30, STATS_ALPHA, &c), STATS_TOO_FEW);
	ck_assert_int_eq(stats_verdict(base, 0, cand, 3, STATS_ALPHA, &c), STATS_TOO_FEW);
	ck_assert(isnan(c.ratio));
	ck_assert_str_eq(stats_verdict_name(STATS_TOO_FEW), "too few samples");
	free(many);
}
END_TEST

START_TEST(verdict_invalid)
{
	const double a[] = { 1, 2, 3, 4, 5 }, nan[] = { 1, 2, NAN, 4, 5 };
	struct stats_comparison c;
	ck_assert_int_eq(stats_verdict(a, 5, a, 5, 0, &c), STATS_INVALID);
	ck_assert_int_eq(stats_verdict(a, 5, a, 5, 1, &c), STATS_INVALID);
	ck_assert_int_eq(stats_verdict(a, 5, a, 5, NAN, &c), STATS_INVALID);
	ck_assert_int_eq(stats_verdict(a, 5, nan, 5, STATS_ALPHA, &c), STATS_INVALID);
	ck_assert_str_eq(stats_verdict_name(STATS_INVALID), "invalid");
}
END_TEST

/* The noise has settled when its last readings spread less than a share
 * of the newest: sd({1, 3}) is sqrt(2) = 1.4142, so 2 * 0.70 is under it
 * and 2 * 0.71 over. */
START_TEST(settled_spread)
{
	const double flat[] = { 0.070, 0.071, 0.069, 0.070 }, falling[] = { 0.10, 0.07, 0.05, 0.07 };
	const double pair[] = { 1, 3 }, with_nan[] = { 1, NAN, 1 };
	ck_assert(stats_settled(flat, 4, 0.070, 0.05));    /* sd 0.00082 < 0.0035 */
	ck_assert(!stats_settled(falling, 4, 0.07, 0.05)); /* sd 0.0206 */
	ck_assert(!stats_settled(pair, 2, 2, 0.70));
	ck_assert(stats_settled(pair, 2, 2, 0.71));
	ck_assert(!stats_settled(pair, 1, 2, 0.71));       /* one reading shows no trend */
	ck_assert(!stats_settled(flat, 4, 0, 0.05));
	ck_assert(!stats_settled(flat, 4, INFINITY, 0.05));
	ck_assert(!stats_settled(with_nan, 3, 1, 0.05));
}
END_TEST

/* The median's interval from order statistics: ranks k and n + 1 - k with
 * k the largest where P(Binomial(n, 1/2) < k) <= 0.025, computed exactly
 * (Python's math.comb): 1 for n = 6, 2 for 10, 6 for 20, 40 for 100 (the
 * textbook's ranks), 469 for 1000, 1446 for 3000, where 2^-n underflows. */
static void ci_of_ramp(size_t n, double *lo, double *hi)
{
	double *v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (double)(n - i); /* n .. 1, unsorted: the ranks are the values */
	ck_assert_int_eq(stats_median_ci(v, n, 0.95, lo, hi), 0);
	ck_assert_msg(v[0] == (double)n, "the sample was sorted in place");
	free(v);
}

START_TEST(median_ci_ranks)
{
	static const struct { size_t n; double lo, hi; } want[] = {
		{ 6, 1, 6 }, { 7, 1, 7 }, { 10, 2, 9 }, { 20, 6, 15 }, { 100, 40, 61 }, { 1000, 469, 532 }, { 3000, 1446, 1555 },
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		double lo, hi;
		ci_of_ramp(want[i].n, &lo, &hi);
		ck_assert_msg(lo == want[i].lo && hi == want[i].hi, "n %zu: [%g, %g], want [%g, %g]", want[i].n, lo, hi,
			      want[i].lo, want[i].hi);
	}
}
END_TEST

START_TEST(median_ci_refuses)
{
	double v[6] = { 1, 2, 3, 4, 5, 6 }, lo = -1, hi = -1;
	ck_assert_int_eq(stats_median_ci(v, 5, 0.95, &lo, &hi), -1); /* P(B < 1) = 1/32 > 0.025 */
	ck_assert_int_eq(stats_median_ci(v, 0, 0.95, &lo, &hi), -1);
	ck_assert_int_eq(stats_median_ci(v, 6, 1, &lo, &hi), -1);
	ck_assert_int_eq(stats_median_ci(v, 6, 0, &lo, &hi), -1);
	v[3] = NAN;
	ck_assert_int_eq(stats_median_ci(v, 6, 0.95, &lo, &hi), -1);
	ck_assert(lo == -1 && hi == -1);
	/* 0.5: P(B < k) <= 0.25; for n = 6 that is 0.109 at k = 2, 0.344 at 3 */
	double w[6] = { 6, 5, 4, 3, 2, 1 };
	ck_assert_int_eq(stats_median_ci(w, 6, 0.5, &lo, &hi), 0);
	ck_assert(lo == 2 && hi == 5);
}
END_TEST

/* The flag: half the interval over 1% of the median. */
START_TEST(median_unsure_bound)
{
	ck_assert_int_eq(stats_median_unsure(100, 99, 101), 0);   /* exactly 1%: not over */
	ck_assert_int_eq(stats_median_unsure(100, 98.9, 101), 1); /* 1.05% */
	ck_assert_int_eq(stats_median_unsure(100, 100, 100), 0);
	ck_assert_int_eq(stats_median_unsure(100, NAN, NAN), 0);  /* no interval: nothing to say */
	ck_assert_int_eq(stats_median_unsure(0, 0, 1), 0);
}
END_TEST

/* Runs spread evenly over 1.000 .. 1.100 ms (a relative standard
 * deviation of 2.8%, five times the stopping rule's 0.5%): over 1000 of
 * them the median is sure (ranks 469 and 532: half of 0.1 * 63 / 999 is
 * 0.3153% of it); over 20 it is not (ranks 6 and 15: 2.31%). */
START_TEST(median_unsure_spread)
{
	static double v[1000];
	double lo, hi;
	struct stats s;
	for (size_t n = 1000; n; n = n == 1000 ? 20 : 0) {
		for (size_t i = 0; i < n; i++)
			v[i] = 1 + 0.1 * (double)((i * 7) % n) / (double)(n - 1); /* 7 is prime to both: a shuffle */
		ck_assert_int_eq(stats_median_ci(v, n, STATS_CI_CONF, &lo, &hi), 0);
		ck_assert_int_eq(stats_summarise(v, n, &s), 0);
		ck_assert_msg(s.stdrel > 0.025, "stdrel %g", s.stdrel);
		double k = n == 1000 ? 468 : 5; /* the lower rank, 0-based */
		ck_assert_double_eq_tol(lo, 1 + 0.1 * k / (double)(n - 1), 1e-12);
		ck_assert_double_eq_tol(hi, 1 + 0.1 * ((double)n - 1 - k) / (double)(n - 1), 1e-12);
		ck_assert_int_eq(stats_median_unsure(s.median, lo, hi), n == 20);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *t = tcase_create("stats");
	tcase_add_test(t, summary_exact);
	tcase_add_test(t, summary_noise);
	tcase_add_test(t, summary_edges);
	tcase_add_test(t, mw_exact_small);
	tcase_add_test(t, mw_method_boundary);
	tcase_add_test(t, mw_ties);
	tcase_add_test(t, mw_large);
	tcase_add_test(t, mw_refuses);
	tcase_add_test(t, verdict_same);
	tcase_add_test(t, verdict_shift);
	tcase_add_test(t, verdict_too_few);
	tcase_add_test(t, verdict_invalid);
	tcase_add_test(t, settled_spread);
	tcase_add_test(t, median_ci_ranks);
	tcase_add_test(t, median_ci_refuses);
	tcase_add_test(t, median_unsure_bound);
	tcase_add_test(t, median_unsure_spread);
	suite_add_tcase(s, t);
	return run_suite(s, 0);
}

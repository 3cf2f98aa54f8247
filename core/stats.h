/* Statistics for noise-aware timing and for comparing two runs: a
 * summary of a sample of times, the Mann-Whitney U test, and a verdict.
 *
 * The test is the one Google Benchmark's compare.py runs, through
 * scipy.stats.mannwhitneyu(a, b, alternative='two-sided') with its
 * default method='auto': the exact distribution of U where one side has
 * at most 8 samples and no value repeats, otherwise the normal
 * approximation with the tie correction and the continuity correction.
 * The answers agree with scipy's (tests/check_stats.c holds its values).
 *
 * Samples are arrays of doubles (times in ms); none is modified. */
#ifndef GPULAB_STATS_H
#define GPULAB_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double min, max, mean;
	double median, q1, q3, iqr; /* quantiles: R's type 7, see stats.c */
	double stddev;              /* the sample's (n - 1); NaN for n < 2 */
	double stdrel;              /* stddev / mean, NVBench's "stdrel"; NaN for n < 2 or a mean of 0 */
};

/* The summary of v[0..n): 0, or -1 where n is 0, a value is NaN or
 * infinite, or memory runs out. */
int stats_summarise(const double *v, size_t n, struct stats *out);

/* Has a noise figure settled?  w[0..n) are its last n readings, the
 * newest `latest`: it has when their sample standard deviation is under
 * spread * latest, so more runs would measure the same noise, not a
 * lower one.  Never for n < 2, or a latest that is 0, NaN or infinite. */
int stats_settled(const double *w, size_t n, double latest, double spread);

/* The median's confidence interval from the order statistics, free of
 * any assumption about the times' distribution: with k the largest rank
 * for which P(B < k) <= (1 - conf) / 2, B ~ Binomial(n, 1/2), the true
 * median lies in [x(k), x(n + 1 - k)] (1-based ranks of the sorted
 * sample) with probability at least conf.  0 and the interval, or -1
 * where n is too small for one (n < 6 at 0.95), conf is outside (0, 1) or
 * a value is NaN; v is not modified. */
int stats_median_ci(const double *v, size_t n, double conf, double *lo, double *hi);

#define STATS_CI_CONF 0.95   /* the interval's confidence */
#define STATS_CI_BOUND 0.01  /* its half-width over the median above which a median is NOISY */

/* Is the median uncertain: its STATS_CI_CONF interval's half-width over
 * the median above STATS_CI_BOUND?  Never where there is no interval. */
int stats_median_unsure(double median, double lo, double hi);

struct mw {
	double u;  /* a's U: the pairs (x of a, y of b) with x > y, a tie counting half */
	double z;  /* (u - na nb / 2) / sigma, with the tie correction, and 0.5 nearer 0 for
		    * continuity; > 0 where a tends to be larger.  Given even where p is exact. */
	double p;  /* two-sided */
	int exact; /* p is from the exact distribution of U */
};

/* Compares a[0..na) with b[0..nb): 0, or -1 where a side is empty, a
 * value is NaN or infinite, or memory runs out. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mw *out);

/* The fewest samples a side for a verdict; see stats_mw_enough(). */
#define STATS_MW_MIN 5

/* Are there enough samples on both sides for the test to decide?  With
 * k a side and no ties the smallest two-sided p there is is 2 / C(2k, k):
 * 0.10 for k = 3, 0.029 for 4, 0.0079 for 5.  Below 4 nothing is ever
 * significant at 0.05, and at 4 only a perfect separation is, so one
 * stray run decides.  At 5, two of the 25 pairs may be out of order and
 * p still be 0.032.  compare.py warns below 9 repetitions a side; we
 * refuse below 5, and more is better. */
int stats_mw_enough(size_t na, size_t nb);

#define STATS_ALPHA 0.05 /* the usual significance level */

enum stats_result {
	STATS_SAME,    /* no significant difference */
	STATS_FASTER,  /* the candidate takes less time, p < alpha */
	STATS_SLOWER,  /* the candidate takes more time, p < alpha */
	STATS_TOO_FEW, /* fewer than STATS_MW_MIN samples on a side */
	STATS_INVALID, /* alpha outside (0, 1), a NaN or infinite time, no memory */
};

struct stats_comparison {
	struct stats base, cand;
	double ratio; /* median(cand) / median(base): < 1 is faster; NaN where a side is empty */
	struct mw mw; /* cand against base: mw.u is the candidate's U */
};

/* Is cand faster or slower than base at significance alpha (pass
 * STATS_ALPHA for the usual)?  Fills out as far as the samples allow.
 * The direction is the rank test's (cand's U above or below half the
 * pairs), the one its p speaks of; the ratio of medians says how much,
 * and where it says none or the other way, the verdict is STATS_SAME. */
enum stats_result stats_verdict(const double *base, size_t nbase, const double *cand, size_t ncand, double alpha,
				 struct stats_comparison *out);

/* "same", "faster", "slower", "too few samples" or "invalid". */
const char *stats_verdict_name(enum stats_result v);

#endif

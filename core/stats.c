/* Summaries and the Mann-Whitney U test, following scipy.stats (see
 * stats.h); the comments say where and why this departs from it. */
#include "stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A double's bits as an unsigned key in the same order: negatives
 * flipped whole, positives' sign bit set. */
static uint64_t order_key(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	return b >> 63 ? ~b : b | 1ull << 63;
}

/* Sorted ascending, as qsort with by_value sorts the finite values these
 * are: an LSD radix sort on order_key, a byte a pass (the eight bytes'
 * counts taken in one read), the passes whose byte is the same in every
 * key skipped.  A point's samples run to a million, compare sorts 4096 a
 * side for every pair of a sweep, and qsort's call a comparison was most
 * of their time. */
static void sort_values(double *x, size_t n)
{
	double *tmp = n > 64 ? malloc(n * sizeof *tmp) : NULL;
	size_t (*count)[257] = tmp ? calloc(8, sizeof *count) : NULL;
	if (!count) {
		free(tmp);
		qsort(x, n, sizeof *x, by_value);
		return;
	}
	for (size_t i = 0; i < n; i++) /* the eight bytes' counts in one read */
		for (uint64_t k = order_key(x[i]), b = 0; b < 8; b++)
			count[b][(k >> 8 * b & 0xff) + 1]++;
	double *from = x, *to = tmp;
	for (int b = 0; b < 8; b++) {
		size_t *c = count[b];
		if (c[(order_key(from[0]) >> 8 * b & 0xff) + 1] == n)
			continue; /* one byte value: nothing moves */
		for (int v = 0; v < 256; v++)
			c[v + 1] += c[v];
		for (size_t i = 0; i < n; i++)
			to[c[order_key(from[i]) >> 8 * b & 0xff]++] = from[i];
		double *t = from;
		from = to, to = t;
	}
	if (from != x)
		memcpy(x, from, n * sizeof *x);
	free(count);
	free(tmp);
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

/* The p-quantile of sorted x[0..n) by linear interpolation between order
 * statistics: R's type 7, numpy's default, the one spreadsheets call
 * PERCENTILE.INC.  h = (n - 1) p, and the quantile lies between x[h]
 * and x[h + 1] rounded down. */
static double quantile(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)h;
	return lo + 1 < n ? x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]) : x[lo];
}

/* A copy of v[0..n) sorted, or NULL (out of memory, a value not finite). */
static double *sorted_copy(const double *v, size_t n)
{
	double *x;
	if (!n || !all_finite(v, n) || !(x = malloc(n * sizeof *x)))
		return NULL;
	memcpy(x, v, n * sizeof *x);
	sort_values(x, n);
	return x;
}

static void summarise_sorted(const double *x, size_t n, struct stats *out)
{
	double sum = 0, dev = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	out->n = n;
	out->mean = sum / (double)n;
	/* two passes: the deviations from the mean, not E[x^2] - E[x]^2,
	 * which cancels badly for times that differ in the last digits */
	for (size_t i = 0; i < n; i++)
		dev += (x[i] - out->mean) * (x[i] - out->mean);
	out->stddev = n > 1 ? sqrt(dev / (double)(n - 1)) : NAN;
	out->stdrel = n > 1 && out->mean != 0 ? out->stddev / out->mean : NAN;
	out->min = x[0], out->max = x[n - 1];
	out->median = quantile(x, n, 0.5);
	out->q1 = quantile(x, n, 0.25);
	out->q3 = quantile(x, n, 0.75);
	out->iqr = out->q3 - out->q1;
}

int stats_summarise(const double *v, size_t n, struct stats *out)
{
	double *x = sorted_copy(v, n);
	if (!x)
		return -1;
	summarise_sorted(x, n, out);
	free(x);
	return 0;
}

/* The largest k with P(B < k) <= tail, B ~ Binomial(n, 1/2); 0 where
 * even P(B < 1) = 2^-n is over it.  The terms in logs: n runs to
 * thousands, and 2^-n underflows past 1074. */
static size_t binomial_rank(size_t n, double tail)
{
	double cdf = 0, logterm = -(double)n * log(2); /* log P(B = 0) */
	size_t k = 0;
	while (k < n) {
		double next = cdf + exp(logterm); /* P(B < k + 1) */
		if (next > tail)
			break;
		cdf = next, k++;
		logterm += log((double)(n - k + 1) / (double)k); /* P(B = k) from P(B = k - 1) */
	}
	return k;
}

int stats_median_ci(const double *v, size_t n, double conf, double *lo, double *hi)
{
	double *x;
	size_t k;
	if (!(conf > 0 && conf < 1) || !n || !(k = binomial_rank(n, (1 - conf) / 2)) || !(x = sorted_copy(v, n)))
		return -1;
	*lo = x[k - 1], *hi = x[n - k];
	free(x);
	return 0;
}

int stats_median_unsure(double median, double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) && median > 0 && (hi - lo) / 2 > STATS_CI_BOUND * median;
}

/* --- Mann-Whitney U ----------------------------------------------------------- */
/* a's rank sum in a and b pooled, both sorted, ties given their mean
 * rank, and the ties' sum of t^3 - t for the variance: the two merged,
 * a run of equal values at a time. */
static void rank_sum(const double *x, size_t na, const double *y, size_t nb, double *r1, double *ties)
{
	*r1 = *ties = 0;
	for (size_t i = 0, k = 0, below = 0; i < na || k < nb;) {
		double v = k == nb || (i < na && x[i] <= y[k]) ? x[i] : y[k];
		size_t from_a = 0, from_b = 0;
		while (i < na && x[i] == v)
			i++, from_a++;
		while (k < nb && y[k] == v)
			k++, from_b++;
		double t = (double)(from_a + from_b), rank = (double)(2 * below + 1 + from_a + from_b) / 2;
		*r1 += (double)from_a * rank; /* ranks below+1 .. below+t, their mean each */
		*ties += t * t * t - t;
		below += from_a + from_b;
	}
}

/* The exact distribution costs (m n) doubles; past this, where no
 * timing run goes, the normal approximation serves (scipy would still
 * count exactly). */
#define EXACT_MAX_CELLS (1u << 20)

/* P(U >= u) with m and n samples and no ties.  The number of orderings
 * giving each U is a coefficient of the Gaussian binomial
 * [m+n choose m]_q = prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k), built a
 * factor at a time: after step k it is [n+k choose k]_q, a polynomial of
 * degree k n, so m (m n) steps in all.  Doubles hold the counts; past
 * 2^53 they round, a relative error of 1e-16 in p. */
static double exact_sf(double u, size_t m, size_t n)
{
	size_t top = m * n, from = (size_t)u;
	double *c = calloc(top + m + 1, sizeof *c), tail = 0, total = 0;
	if (!c)
		return NAN;
	c[0] = 1;
	for (size_t k = 1; k <= m; k++) {
		size_t shift = n + k;
		for (size_t i = (k - 1) * n + shift + 1; i-- > shift;) /* times (1 - q^(n+k)) */
			c[i] -= c[i - shift];
		for (size_t i = k; i <= k * n; i++) /* over (1 - q^k): divides exactly */
			c[i] += c[i - k];
		for (size_t i = k * n + 1; i <= k * n + k; i++)
			c[i] = 0;
	}
	for (size_t i = 0; i <= top; i++) {
		total += c[i];
		tail += i >= from ? c[i] : 0;
	}
	free(c);
	return tail / total;
}

/* The test on a and b sorted (neither empty): 0, or -1 out of memory. */
static int mann_whitney_sorted(const double *a, size_t na, const double *b, size_t nb, struct mw *out)
{
	double r1, ties, n = (double)(na + nb), pairs = (double)na * (double)nb;
	rank_sum(a, na, b, nb, &r1, &ties);
	double u = r1 - (double)na * (double)(na + 1) / 2, d = u - pairs / 2;
	double sigma = sqrt(pairs / 12 * ((n + 1) - ties / (n * (n - 1))));
	out->u = u;
	/* continuity: 0.5 nearer the mean, as scipy subtracts it from
	 * max(U1, U2) - mean; never past it */
	out->z = sigma > 0 && d != 0 ? (d - copysign(0.5, d)) / sigma : 0;
	out->p = erfc(fabs(out->z) / sqrt(2)); /* 2 P(Z > |z|) */
	/* scipy's method='auto': exact where a side has 8 or fewer, no ties */
	out->exact = (na <= 8 || nb <= 8) && ties == 0 && pairs <= EXACT_MAX_CELLS;
	if (out->exact)
		out->p = 2 * exact_sf(fmax(u, pairs - u), na < nb ? na : nb, na < nb ? nb : na);
	if (isnan(out->p))
		return -1; /* exact_sf ran out of memory */
	out->p = fmin(out->p, 1);
	return 0;
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mw *out)
{
	double *x = sorted_copy(a, na), *y = x ? sorted_copy(b, nb) : NULL;
	int rc = y ? mann_whitney_sorted(x, na, y, nb, out) : -1;
	free(x);
	free(y);
	return rc;
}

int stats_mw_enough(size_t na, size_t nb)
{
	return na >= STATS_MW_MIN && nb >= STATS_MW_MIN;
}

/* --- the verdict -------------------------------------------------------------- */
enum stats_result stats_verdict(const double *base, size_t nbase, const double *cand, size_t ncand, double alpha,
				 struct stats_comparison *out)
{
	*out = (struct stats_comparison){ .ratio = NAN, .mw = { NAN, NAN, NAN, 0 } };
	if (!(alpha > 0 && alpha < 1))
		return STATS_INVALID;
	if (!nbase || !ncand)
		return STATS_TOO_FEW;
	/* each side sorted once, for its summary and the test: compare
	 * asks this of every pair of a sweep, 4096 samples a side */
	double *b = sorted_copy(base, nbase), *c = b ? sorted_copy(cand, ncand) : NULL;
	int rc = -1;
	if (c) {
		summarise_sorted(b, nbase, &out->base);
		summarise_sorted(c, ncand, &out->cand);
		out->ratio = out->cand.median / out->base.median;
		rc = stats_mw_enough(nbase, ncand) ? mann_whitney_sorted(c, ncand, b, nbase, &out->mw) : 1;
	}
	free(b);
	free(c);
	if (rc)
		return rc > 0 ? STATS_TOO_FEW : STATS_INVALID;
	if (!(out->mw.p < alpha))
		return STATS_SAME;
	/* p < alpha puts U off its mean, so the side is never a tie */
	int slower = out->mw.u > (double)ncand * (double)nbase / 2;
	/* U compares whole distributions, the change shown is of medians;
	 * where they disagree on the side (samples of two modes can: a
	 * verdict "slower" beside -1.3%), or the medians are equal (a
	 * timer's ticks: "faster" beside +0.0%), neither is a change to
	 * count on */
	if (slower ? out->ratio <= 1 : out->ratio >= 1)
		return STATS_SAME;
	return slower ? STATS_SLOWER : STATS_FASTER;
}

const char *stats_verdict_name(enum stats_result v)
{
	switch (v) {
	case STATS_SAME: return "same";
	case STATS_FASTER: return "faster";
	case STATS_SLOWER: return "slower";
	case STATS_TOO_FEW: return "too few samples";
	default: return "invalid";
	}
}

int stats_settled(const double *w, size_t n, double latest, double spread)
{
	double mean = 0, var = 0;
	if (n < 2 || !isfinite(latest) || latest <= 0)
		return 0;
	for (size_t k = 0; k < n; k++)
		mean += w[k] / (double)n;
	for (size_t k = 0; k < n; k++)
		var += (w[k] - mean) * (w[k] - mean) / (double)(n - 1);
	return sqrt(var) < spread * latest; /* false for a NaN in w, too */
}

/*
 * `gpulab compare BASE.json NEW.json`: two run records (docs/record.md),
 * point against point.  Points match by exercise and effective
 * parameters (the seed, reps and warmup aside: they say how a point was
 * measured, not which point it is).  Each pair gets the ratio of medians
 * and a verdict from the Mann-Whitney U test on their samples, as Google
 * Benchmark's compare.py gives: a rank test needs no assumption about
 * the shape of GPU timing noise, which is skewed and has outliers, and
 * it refuses to decide from too few samples.
 *
 * With base_exercise and new_exercise (compare.py's "filters"
 * mode), the base side is one exercise's points and the new side the
 * other's, from one record or two, matched by the parameters both take:
 * reduce.best against reduce.cub at each size, say.
 */
#ifndef GPULAB_COMPARE_H
#define GPULAB_COMPARE_H

#include "config/options.h"
#include "records/record.h"

#include <stdio.h>

/* What compare is asked: only what its row takes (cli/records.c), so
 * that compare/ needs none of the rest of the command line. */
struct compare_ask {
	enum format format;
	double fail_above;          /* --fail-above PCT; -1 without */
	double min_change;          /* --min-change PCT; 0 without */
	const char *base_exercise;  /* --base EX and --new EX; NULL without */
	const char *new_exercise;
};

/* Compare the records at base and cand (which may be the same file), printing to out in q->format and
 * warnings (other GPU, driver, clocks) to err.  0; EXIT_SLOWER where
 * q->fail_above >= 0 and a point is slower by more than that percentage
 * with confidence; or EXIT_USAGE for a record that cannot be read, one
 * line in errbuf. */
int compare_records(const char *base, const char *cand, const struct compare_ask *q, FILE *out, FILE *err,
		    char *errbuf, size_t errlen);

/* Where records a and b differ in what their numbers depend on (the
 * device, its driver and clocks; --cold), one warning line each to err:
 * `gpulab compare` and `gpulab report` of two records say them. */
void compare_conditions(const struct record *a, const struct record *b, FILE *err);

/* Where pairs (n of them, of a's points with b's) compare points timed
 * in batches of different sizes, by each point's own batch (a row
 * UNBATCHED in a --batch run has 1; a record before 1.2, its record's):
 * one warning line to err where every pair differs alike, else one for
 * each pair of exercises that does. */
void compare_batches(const struct record *a, const struct record *b, const struct record_pair *pairs, size_t n,
		     FILE *err);

#endif

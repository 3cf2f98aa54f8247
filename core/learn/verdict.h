/*
 * What a lesson of `gpulab learn` makes of a run's record: the lesson's
 * figure read from the record's points (the medians and their 95%
 * intervals, or the counters), the verdict on the book's claim, and the
 * task's figure, a `gpulab try` row against the exercise timed beside it.
 *
 * A counter's verdict is the rule applied to its value (one untimed
 * run's count, no interval).  A speedup's is `gpulab compare`'s
 * Mann-Whitney U test, with the rule's number as the ratio to test: A's
 * samples against B's times the number, so that "A/B >= 1.5" holds where
 * A's times are significantly above 1.5 times B's, does not hold where
 * they are significantly below, and cannot be told where the test finds
 * no difference, there are too few samples, or the difference is inside
 * the lesson's noise band (compare's --min-change).
 */
#ifndef GPULAB_VERDICT_H
#define GPULAB_VERDICT_H

#include "learn/lesson.h"
#include "records/record.h"

enum verdict { VERDICT_HOLDS, VERDICT_FAILS, VERDICT_UNSURE };

/* The rule on the interval [lo, hi]; NaN ends (no interval) cannot tell.
 * A pure function: tests/check_learn.c gives it synthetic intervals. */
enum verdict verdict_judge(const struct lesson_rule *r, double lo, double hi);

/* "holds", "does not hold", "can't tell at this noise". */
const char *verdict_words(enum verdict v);
/* The word the progress file keeps: "holds", "fails", "unsure"; and back (-1: none). */
const char *verdict_key(enum verdict v);
int verdict_from_key(const char *s);

/* ">=" and the like. */
const char *rule_op_text(enum rule_op op);

struct figure_value {
	double value, lo, hi; /* lo and hi NaN where the run gave no interval */
	double va, vb;        /* A's and B's own: median ms for a speedup, counters for a ratio; NaN for none */
	double pa, pb;        /* A's and B's share of the peak bandwidth, in percent; NaN where the row has none */
	double ga, gb;        /* A's and B's effective bandwidth, GB/s; NaN where the row has none */
	const double *a, *b;  /* a speedup's samples (ms), in the record read; NULL otherwise */
	size_t na, nb;
	char device[128];     /* the record's device, or "this host" */
};

/* The U test of a (times of A) against b (times of B) scaled by the
 * rule's number: holds, does not hold, or unsure as the header says; *p
 * the test's two-sided p (NaN where there is none).  noise_pct: a
 * significant difference within this share of the rule is unsure.  A
 * pure function: tests/check_learn.c gives it synthetic samples. */
enum verdict verdict_speedup(const struct lesson_rule *r, double noise_pct, const double *a, size_t na,
			     const double *b, size_t nb, double *p);

/* The lesson's verdict on f: verdict_speedup for a speedup, else
 * verdict_judge on the counter or note; *p as verdict_speedup's (NaN
 * for a counter).  A ratio of counters either of which reads under the
 * lesson's floor cannot be told: near zero, a ratio says nothing. */
enum verdict figure_verdict(const struct lesson *l, const struct figure_value *f, double *p);

/* 1 where f is a ratio of counters one of which is under l's floor. */
int figure_under_floor(const struct lesson *l, const struct figure_value *f);

/* The lesson's figure from rec's points.  0; or -1 with one line in err
 * (a point the record lacks, one that failed, a counter not read). */
int figure_measure(const struct record *rec, const struct lesson_figure *f, struct figure_value *out, char *err,
		   size_t len);

/* The task's figure: how many times as fast as ref the challenge's row
 * (try.CHALLENGE) of rec is, by their medians.  0; or -1 with why. */
int task_measure(const struct record *rec, const char *challenge, const struct lesson_point *ref, double *times,
		 char *err, size_t len);

/* The counter `metric` of the challenge's row (try.CHALLENGE) of rec,
 * for the task's `require`.  0; or -1 with why. */
int task_counter(const struct record *rec, const char *challenge, const char *metric, double *value, char *err,
		 size_t len);

/* A point's row of rec (its first), or NULL. */
const struct json *figure_row(const struct record *rec, const struct lesson_point *pt);

#endif

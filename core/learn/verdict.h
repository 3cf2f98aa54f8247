/*
 * What a lesson of `gpulab learn` makes of a run's record: the lesson's
 * figure read from the record's points (the medians and their 95%
 * intervals, or the counters), the verdict on the book's claim, and the
 * task's figure, a `gpulab try` row against the exercise timed beside it.
 *
 * The verdict is the rule applied to both ends of the figure's interval:
 * the claim holds where the whole interval keeps the rule, does not hold
 * where none of it does, and where the interval straddles the rule (or
 * there is none: under 6 runs) this run cannot tell.
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
	char device[128];     /* the record's device, or "this host" */
};

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

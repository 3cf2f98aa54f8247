#include "config.h"

#include "learn/verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Does x keep the rule? */
static int rule_keeps(const struct lesson_rule *r, double x)
{
	switch (r->op) {
	case RULE_GE: return x >= r->value;
	case RULE_GT: return x > r->value;
	case RULE_LE: return x <= r->value;
	default: return x < r->value;
	}
}

enum verdict verdict_judge(const struct lesson_rule *r, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi) || lo > hi)
		return VERDICT_UNSURE;
	int a = rule_keeps(r, lo), b = rule_keeps(r, hi);
	return a && b ? VERDICT_HOLDS : !a && !b ? VERDICT_FAILS : VERDICT_UNSURE;
}

const char *verdict_words(enum verdict v)
{
	return v == VERDICT_HOLDS ? "holds" : v == VERDICT_FAILS ? "does not hold" : "can't tell at this noise";
}

static const char *const verdict_keys[] = { "holds", "fails", "unsure" };

const char *verdict_key(enum verdict v)
{
	return verdict_keys[v];
}

int verdict_from_key(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, verdict_keys[i]))
			return i;
	return -1;
}

const char *rule_op_text(enum rule_op op)
{
	static const char *const ops[] = { ">=", ">", "<=", "<" };
	return ops[op];
}

/* --- reading the record ------------------------------------------------------------- */

static int point_matches(const struct json *row, const struct lesson_point *pt)
{
	const char *ex = json_string(json_get(row, "exercise"));
	if (!ex || strcmp(ex, pt->exercise))
		return 0;
	for (int k = 0; k < pt->nkeys; k++) {
		const char *v = json_scalar_text(json_get(json_get(row, "params"), pt->keys[k][0]));
		if (!v || strcmp(v, pt->keys[k][1]))
			return 0;
	}
	return 1;
}

const struct json *figure_row(const struct record *rec, const struct lesson_point *pt)
{
	for (size_t i = 0; i < rec->n; i++)
		if (point_matches(rec->v[i].row, pt))
			return rec->v[i].row;
	return NULL;
}

/* pt's row, measured and right; NULL with why. */
static const struct json *measured_row(const struct record *rec, const struct lesson_point *pt, char *err, size_t len)
{
	const struct json *row = figure_row(rec, pt);
	const char *status = json_string(json_get(row, "status"));
	if (!row)
		snprintf(err, len, "the run has no point of %s%s", pt->exercise, pt->nkeys ? " with the lesson's keys" : "");
	else if (!status || strcmp(status, "ok"))
		snprintf(err, len, "%s: %s: %.200s", pt->exercise, status ? status : "no status",
			 json_string(json_get(row, "message")) ? json_string(json_get(row, "message")) : "");
	else
		return row;
	return NULL;
}

/* The row's median and its 95% interval: the record's, or from its
 * samples where a record before 1.2 has none; [NaN, NaN] under 6 runs. */
static int row_median(const struct json *row, double *m, double *lo, double *hi)
{
	const struct json *ci = json_get(row, "median_ci_ms"), *samples = json_get(row, "samples_ms");
	*m = json_number(json_get(row, "median_ms"));
	*lo = json_len(ci) == 2 ? json_number_at(ci, 0) : NAN;
	*hi = json_len(ci) == 2 ? json_number_at(ci, 1) : NAN;
	if (json_len(ci) != 2 && json_numbers(samples, NULL)
	    && stats_median_ci(json_numbers(samples, NULL), json_len(samples), STATS_CI_CONF, lo, hi))
		*lo = *hi = NAN;
	return isfinite(*m) && *m > 0 ? 0 : -1;
}

static int row_metric(const struct json *row, const char *label, double *v, char *err, size_t len)
{
	*v = json_number(json_get(json_get(json_get(row, "metrics"), label), "value"));
	if (isfinite(*v))
		return 0;
	snprintf(err, len, "%s: no counter '%s' in the run (gpulab metrics lists them; it needs CUPTI)",
		 json_string(json_get(row, "exercise")), label);
	return -1;
}

static void record_device(const struct record *rec, char *buf, size_t len)
{
	const char *name = json_string(json_get(json_get(rec->doc, "device"), "name"));
	snprintf(buf, len, "%s", name ? name : "this host");
}

int figure_measure(const struct record *rec, const struct lesson_figure *f, struct figure_value *out, char *err,
		   size_t len)
{
	const struct json *a = measured_row(rec, &f->a, err, len), *b = NULL;
	double ma, alo, ahi, mb, blo, bhi;
	record_device(rec, out->device, sizeof out->device);
	if (!a || (f->kind != FIGURE_METRIC && !(b = measured_row(rec, &f->b, err, len))))
		return -1;
	if (f->kind == FIGURE_SPEEDUP) {
		if (row_median(a, &ma, &alo, &ahi) || row_median(b, &mb, &blo, &bhi))
			return snprintf(err, len, "%s or %s has no time", f->a.exercise, f->b.exercise), -1;
		out->value = ma / mb;
		out->lo = alo / bhi; /* the interval's ends: every pair of medians inside both */
		out->hi = ahi / blo;
		return 0;
	}
	if (row_metric(a, f->metric, &ma, err, len) || (b && row_metric(b, f->metric, &mb, err, len)))
		return -1;
	if (b && mb == 0)
		return snprintf(err, len, "%s: counter '%s' is 0, no ratio", f->b.exercise, f->metric), -1;
	/* a counter is one untimed run's count, with no interval of its own */
	out->value = out->lo = out->hi = b ? ma / mb : ma;
	return 0;
}

int task_measure(const struct record *rec, const char *challenge, const struct lesson_point *ref, double *times,
		 char *err, size_t len)
{
	struct lesson_point mine = { 0 };
	double mr, mm, lo, hi;
	snprintf(mine.exercise, sizeof mine.exercise, "try.%s", challenge);
	const struct json *r = measured_row(rec, ref, err, len), *m = r ? measured_row(rec, &mine, err, len) : NULL;
	if (!m)
		return -1;
	if (row_median(r, &mr, &lo, &hi) || row_median(m, &mm, &lo, &hi))
		return snprintf(err, len, "%s or %s has no time", ref->exercise, mine.exercise), -1;
	*times = mr / mm;
	return 0;
}

int task_counter(const struct record *rec, const char *challenge, const char *metric, double *value, char *err,
		 size_t len)
{
	struct lesson_point mine = { 0 };
	snprintf(mine.exercise, sizeof mine.exercise, "try.%s", challenge);
	const struct json *m = measured_row(rec, &mine, err, len);
	return m ? row_metric(m, metric, value, err, len) : -1;
}

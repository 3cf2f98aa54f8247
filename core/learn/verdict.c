#include "config.h"

#include "command_names.h"
#include "learn/verdict.h"
#include "plugins/challenge_dirs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Is A above the rule's multiple of B (1), below it (0), or neither told (-1)? */
static int speedup_side(const struct lesson_rule *r, double noise_pct, const double *a, size_t na, const double *b,
			size_t nb, double *p)
{
	struct stats_comparison c;
	double *scaled = malloc((nb ? nb : 1) * sizeof *scaled);
	*p = NAN;
	if (!scaled)
		return -1;
	for (size_t i = 0; i < nb; i++)
		scaled[i] = b[i] * r->value;
	enum stats_result v = stats_verdict(scaled, nb, a, na, STATS_ALPHA, &c);
	free(scaled);
	if (v == STATS_TOO_FEW || v == STATS_INVALID)
		return -1;
	*p = c.mw.p;
	if (v == STATS_SAME || fabs(100 * (c.ratio - 1)) < noise_pct)
		return -1;
	return v == STATS_SLOWER; /* A takes longer than r times B: the speedup is above r */
}

enum verdict verdict_speedup(const struct lesson_rule *r, double noise_pct, const double *a, size_t na,
			     const double *b, size_t nb, double *p)
{
	int above = r->value > 0 && a && b ? speedup_side(r, noise_pct, a, na, b, nb, p) : (*p = NAN, -1);
	if (above < 0)
		return VERDICT_UNSURE;
	return (r->op == RULE_GE || r->op == RULE_GT) == (above == 1) ? VERDICT_HOLDS : VERDICT_FAILS;
}

enum verdict figure_verdict(const struct lesson *l, const struct figure_value *f, double *p)
{
	if (l->fig.kind == FIGURE_SPEEDUP)
		return verdict_speedup(&l->cmp, l->noise, f->a, f->na, f->b, f->nb, p);
	*p = NAN;
	if (figure_under_floor(l, f))
		return VERDICT_UNSURE;
	return verdict_judge(&l->cmp, f->lo, f->hi);
}

int figure_under_floor(const struct lesson *l, const struct figure_value *f)
{
	return l->fig.kind == FIGURE_METRIC_RATIO && l->floor > 0 && !(f->va >= l->floor && f->vb >= l->floor);
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
	snprintf(err, len, "%s: no counter '%s' in the run (gpulab " CMD_METRICS " lists them; it needs CUPTI)",
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
	int pair = f->kind == FIGURE_SPEEDUP || f->kind == FIGURE_METRIC_RATIO;
	record_device(rec, out->device, sizeof out->device);
	out->a = out->b = NULL;
	out->na = out->nb = 0;
	out->va = out->vb = out->pa = out->pb = out->ga = out->gb = NAN;
	if (!a || (pair && !(b = measured_row(rec, &f->b, err, len))))
		return -1;
	out->pa = json_number(json_get(a, "peak_pct"));
	out->pb = b ? json_number(json_get(b, "peak_pct")) : NAN;
	out->ga = json_number(json_get(a, "gbps"));
	out->gb = b ? json_number(json_get(b, "gbps")) : NAN;
	if (f->kind == FIGURE_SPEEDUP) {
		if (row_median(a, &ma, &alo, &ahi) || row_median(b, &mb, &blo, &bhi))
			return snprintf(err, len, "%s or %s has no time", f->a.exercise, f->b.exercise), -1;
		out->value = ma / mb;
		out->va = ma, out->vb = mb;
		out->lo = alo / bhi; /* the interval's ends: every pair of medians inside both */
		out->hi = ahi / blo;
		out->a = json_numbers(json_get(a, "samples_ms"), &out->na);
		out->b = json_numbers(json_get(b, "samples_ms"), &out->nb);
		return 0;
	}
	if (f->kind == FIGURE_NOTE) {
		out->value = out->lo = out->hi = out->va = json_number(json_get(json_get(a, "notes"), f->metric));
		if (isfinite(out->value))
			return 0;
		return snprintf(err, len, "%s: no note '%s' in the run", f->a.exercise, f->metric), -1;
	}
	if (row_metric(a, f->metric, &ma, err, len) || (b && row_metric(b, f->metric, &mb, err, len)))
		return -1;
	if (b && mb == 0)
		return snprintf(err, len, "%s: counter '%s' is 0, no ratio", f->b.exercise, f->metric), -1;
	/* a counter is one untimed run's count, with no interval of its own */
	out->value = out->lo = out->hi = b ? ma / mb : ma;
	out->va = ma, out->vb = b ? mb : NAN;
	return 0;
}

int task_measure(const struct record *rec, const char *challenge, const struct lesson_point *ref, double *times,
		 char *err, size_t len)
{
	struct lesson_point mine = { 0 };
	double mr, mm, lo, hi;
	snprintf(mine.exercise, sizeof mine.exercise, "%s.%s", TRY_PLUGIN, challenge);
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
	snprintf(mine.exercise, sizeof mine.exercise, "%s.%s", TRY_PLUGIN, challenge);
	const struct json *m = measured_row(rec, &mine, err, len);
	return m ? row_metric(m, metric, value, err, len) : -1;
}

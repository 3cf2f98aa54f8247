#include "draw/plot.h"

#include "exitcode.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a check failed: "run.json: result 4 (reduce.best): " and why. */
struct where {
	const char *path;
	size_t result;          /* from 1; 0 for the record itself */
	const char *exercise;
	char *err;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static int plot_refuse(const struct where *w, const char *fmt, ...)
{
	char why[512], name[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(name, sizeof name, "%s", w->exercise ? w->exercise : "");
	if (w->result)
		snprintf(w->err, w->len, "%s: result %zu (%s): %s", w->path, w->result, name, why);
	else
		snprintf(w->err, w->len, "%s: %s", w->path, why);
	return EXIT_USAGE;
}

static const char *type_name(enum json_kind t)
{
	static const char *const names[] = { "nothing", "null", "a boolean", "a number", "a string", "an array",
					     "an object" };
	return names[t];
}

/* obj[key] of one of the types in mask (1 << JSON_...), or a refusal. */
static int want(const struct where *w, const struct json *obj, const char *key, unsigned mask, const char *what,
		const struct json **out)
{
	*out = json_get(obj, key);
	if (!*out)
		return plot_refuse(w, "\"%s\" is missing", key);
	if (!(mask & 1u << json_type(*out)))
		return plot_refuse(w, "\"%s\": expected %s, found %s", key, what, type_name(json_type(*out)));
	return 0;
}

/* A number or null in [lo, hi]: NAN for null. */
static int field_number(const struct where *w, const struct json *obj, const char *key, double lo, double hi, double *out)
{
	const struct json *v;
	int rc = want(w, obj, key, 1u << JSON_NUMBER | 1u << JSON_NULL, "a number or null", &v);
	if (rc)
		return rc;
	*out = json_number(v);
	if (json_type(v) == JSON_NUMBER && !(*out >= lo && *out <= hi))
		return plot_refuse(w, "\"%s\": %s is outside %g to %g", key, json_number_text(v), lo, hi);
	return 0;
}

static const struct {
	const char *key;
	size_t offset;
	double hi;
} numbers[] = {
	{ "median_ms", offsetof(struct plot_point, median_ms), 1e9 },
	{ "min_ms", offsetof(struct plot_point, min_ms), 1e9 },
	{ "max_ms", offsetof(struct plot_point, max_ms), 1e9 },
	{ "noise_pct", offsetof(struct plot_point, noise_pct), 1e6 },
	{ "gbps", offsetof(struct plot_point, gbps), 1e9 },
	{ "peak_pct", offsetof(struct plot_point, peak_pct), 1e9 },
	{ "speedup", offsetof(struct plot_point, speedup), 1e9 },
	{ "ref_share", offsetof(struct plot_point, ref_share), 1e9 },
};

static int read_state(const struct where *w, struct plot_point *p)
{
	const struct json *v;
	int rc = want(w, p->row, "status", 1u << JSON_STRING, "a string", &v);
	for (int s = PLOT_OK; !rc && s <= PLOT_NOT_RUN; s++)
		if (!strcmp(json_string(v), plot_state_word((enum plot_state)s))) {
			p->state = (enum plot_state)s;
			return 0;
		}
	return rc ? rc : plot_refuse(w, "\"status\": expected ok, unverified, FAILED, ERROR, skipped or not run");
}

/* "clocks": null, or an object whose "throttled" counts slowed runs. */
static int read_clocks(const struct where *w, struct plot_point *p)
{
	const struct json *c, *t;
	uint64_t runs;
	int rc = want(w, p->row, "clocks", 1u << JSON_OBJECT | 1u << JSON_NULL, "an object or null", &c);
	if (rc || json_type(c) == JSON_NULL)
		return rc;
	if ((rc = want(w, c, "throttled", 1u << JSON_NUMBER, "a number", &t)))
		return rc;
	if (json_u64(t, &runs))
		return plot_refuse(w, "\"clocks\": \"throttled\": expected a count of runs, found %s", json_number_text(t));
	p->throttled = runs > 0;
	return 0;
}

/* "metrics", where there: {label: {"metric": name, "value": v}}. */
static int read_metrics(const struct where *w, struct plot_point *p)
{
	const struct json *m = json_get(p->row, "metrics"), *v;
	double value;
	int rc = 0;
	if (!m)
		return 0;
	if (json_type(m) != JSON_OBJECT)
		return plot_refuse(w, "\"metrics\": expected an object, found %s", type_name(json_type(m)));
	for (size_t i = 0; !rc && i < json_len(m); i++) {
		const struct json *one = json_index(m, i);
		if (json_type(one) != JSON_OBJECT)
			return plot_refuse(w, "\"metrics\": a counter is %s, not an object", type_name(json_type(one)));
		if (!(rc = want(w, one, "metric", 1u << JSON_STRING, "a string", &v)))
			rc = field_number(w, one, "value", -1e300, 1e300, &value);
	}
	p->metrics = m;
	return rc;
}

static int read_params(const struct where *w, struct plot_point *p)
{
	const struct json *params, *n;
	uint64_t elements;
	int rc = want(w, p->row, "params", 1u << JSON_OBJECT, "an object", &params);
	for (size_t i = 0; !rc && i < json_len(params); i++)
		if (json_type(json_index(params, i)) != JSON_NUMBER && json_type(json_index(params, i)) != JSON_STRING)
			return plot_refuse(w, "\"params\": a value is %s, not a number or a string",
				      type_name(json_type(json_index(params, i))));
	if (rc || (rc = want(w, p->row, "elements", 1u << JSON_NUMBER, "a number", &n)))
		return rc;
	if (json_u64(n, &elements))
		return plot_refuse(w, "\"elements\": expected a count, found %s", json_number_text(n));
	n = json_get(params, "n");
	p->x = json_type(n) == JSON_NUMBER ? json_number(n) : (double)elements;
	if (!(p->x >= 1))
		p->x = NAN; /* nowhere on a log axis: the table still has it */
	return 0;
}

static int is_ceiling(const char *exercise)
{
	static const char *const names[] = { "memcpy", "copy_row", "copy", "cub" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(plot_short_name(exercise), names[i]))
			return 1;
	return 0;
}

static int read_point(struct plot *pl, size_t i, char *err, size_t len)
{
	struct plot_point *p = &pl->p[i];
	const struct json *v;
	struct where w = { pl->rec.path, i + 1, NULL, err, len };
	int rc;
	p->row = pl->rec.v[i].row;
	p->params = pl->rec.v[i].params;
	w.exercise = p->exercise = json_string(json_get(p->row, "exercise")); /* record_load saw to it */
	p->ceiling = is_ceiling(p->exercise);
	for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
		if ((rc = field_number(&w, p->row, numbers[k].key, 0, numbers[k].hi, (double *)((char *)p + numbers[k].offset))))
			return rc;
	if ((rc = want(&w, p->row, "converged", 1u << JSON_BOOL, "true or false", &v)))
		return rc;
	p->converged = json_bool(v);
	v = json_get(p->row, "noisy"); /* 1.2: NOISY is an uncertain median; before, an unconverged one */
	if (v && json_type(v) != JSON_BOOL)
		return plot_refuse(&w, "\"noisy\": expected true or false, found %s", type_name(json_type(v)));
	if (v)
		p->converged = !json_bool(v);
	if ((rc = want(&w, p->row, "message", 1u << JSON_STRING, "a string", &v)))
		return rc;
	p->message = json_string(v);
	if ((rc = read_state(&w, p)) || (rc = read_clocks(&w, p)) || (rc = read_metrics(&w, p)))
		return rc;
	return read_params(&w, p);
}

/* The run's own fields the header shows. */
static int read_head(struct plot *pl, char *err, size_t len)
{
	static const char *const strings[] = { "host", "date", "command" };
	struct where w = { pl->rec.path, 0, NULL, err, len };
	const struct json *v, *dev;
	int rc = 0;
	for (size_t i = 0; !rc && i < sizeof strings / sizeof strings[0]; i++)
		rc = want(&w, pl->rec.doc, strings[i], 1u << JSON_STRING, "a string", &v);
	if (rc || (rc = want(&w, pl->rec.doc, "gpulab", 1u << JSON_OBJECT, "an object", &v))
	    || (rc = want(&w, v, "version", 1u << JSON_STRING, "a string", &v))
	    || (rc = want(&w, pl->rec.doc, "device", 1u << JSON_OBJECT | 1u << JSON_NULL, "an object or null", &dev)))
		return rc;
	pl->peak_gbps = NAN;
	if (json_type(dev) == JSON_NULL)
		return 0;
	if ((rc = want(&w, dev, "name", 1u << JSON_STRING, "a string", &v)))
		return rc;
	return field_number(&w, dev, "peak_gbps", 0, 1e9, &pl->peak_gbps);
}

/* --- what varies ------------------------------------------------------------- */

struct kv {
	const char *exercise, *value;
};

static int by_exercise_value(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	int c = strcmp(x->exercise, y->exercise);
	return c ? c : strcmp(x->value, y->value);
}

static const char *param_text(const struct json *params, const char *key)
{
	return json_scalar_text(json_get(params, key));
}

/* Does key take more than one value for some exercise?  Sorting makes it
 * n log n, so a record of PLOT_MAX_POINTS costs nothing to ask. */
static int varies(const struct plot *pl, const char *key, struct kv *scratch)
{
	size_t m = 0;
	for (size_t i = 0; i < pl->n; i++) {
		const char *v = param_text(json_get(pl->p[i].row, "params"), key);
		if (v)
			scratch[m++] = (struct kv){ pl->p[i].exercise, v };
	}
	qsort(scratch, m, sizeof *scratch, by_exercise_value);
	for (size_t i = 1; i < m; i++)
		if (!strcmp(scratch[i].exercise, scratch[i - 1].exercise) && strcmp(scratch[i].value, scratch[i - 1].value))
			return 1;
	return 0;
}

/* The most parameter keys a record's points have between them that the
 * report tells apart; an exercise declares a handful. */
#define MAX_KEYS 64

/* The defining keys besides n that take more than one value for some
 * exercise; how many. */
static size_t varying_keys(const struct plot *pl, struct kv *scratch, const char **keys)
{
	const char *seen[MAX_KEYS];
	size_t nseen = 0, n = 0;
	for (size_t i = 0; i < pl->n; i++) {
		const struct json *params = json_get(pl->p[i].row, "params");
		for (size_t k = 0; k < json_len(params); k++) {
			const char *key = json_key(params, k);
			size_t s = 0;
			while (s < nseen && strcmp(seen[s], key))
				s++;
			if (s < nseen || nseen == MAX_KEYS || !record_defines_point(key) || !strcmp(key, "n"))
				continue;
			seen[nseen++] = key;
			if (varies(pl, key, scratch))
				keys[n++] = key;
		}
	}
	return n;
}

/* Each point's variant: the varying keys it has, as "k=v", in its order. */
static void find_variants(struct plot *pl, struct kv *scratch)
{
	const char *keys[MAX_KEYS];
	size_t nkeys = varying_keys(pl, scratch, keys);
	for (size_t i = 0; i < pl->n; i++) {
		const struct json *params = json_get(pl->p[i].row, "params");
		char *v = pl->p[i].variant;
		for (size_t k = 0; k < json_len(params); k++)
			for (size_t s = 0; s < nkeys; s++)
				if (!strcmp(json_key(params, k), keys[s]))
					snprintf(v + strlen(v), sizeof pl->p[i].variant - strlen(v), "%s%s=%s", v[0] ? " " : "",
						 keys[s], param_text(params, keys[s]) ? param_text(params, keys[s]) : "?");
	}
	pl->has_variants = nkeys > 0;
}

/* The variants, and whether the sizes sweep. */
static int find_axes(struct plot *pl, char *err, size_t len)
{
	struct kv *scratch = malloc((pl->n ? pl->n : 1) * sizeof *scratch);
	if (!scratch) {
		snprintf(err, len, "%s: out of memory", pl->rec.path);
		return EXIT_NOMEM;
	}
	pl->sweeps_size = varies(pl, "n", scratch);
	find_variants(pl, scratch);
	free(scratch);
	return 0;
}

/* The checks and axes of a record record_load or record_take read. */
static int plot_check(struct plot *pl, const char *path, char *err, size_t len)
{
	int rc;
	if ((rc = read_head(pl, err, len)))
		return rc;
	if (pl->rec.n > PLOT_MAX_POINTS) {
		snprintf(err, len, "%s: %zu results, more than the %d one run makes", path, pl->rec.n, PLOT_MAX_POINTS);
		return EXIT_USAGE;
	}
	if (!(pl->p = calloc(pl->rec.n ? pl->rec.n : 1, sizeof *pl->p))) {
		snprintf(err, len, "%s: out of memory", path);
		return EXIT_NOMEM;
	}
	pl->n = pl->rec.n;
	for (size_t i = 0; i < pl->n; i++)
		if ((rc = read_point(pl, i, err, len)))
			return rc;
	return find_axes(pl, err, len);
}

int plot_read(struct plot *pl, const char *path, char *err, size_t len)
{
	int rc;
	memset(pl, 0, sizeof *pl);
	pl->rec.path = path;
	return (rc = record_load(&pl->rec, err, len)) ? rc : plot_check(pl, path, err, len);
}

int plot_take(struct plot *pl, const char *path, struct json *doc, char *err, size_t len)
{
	int rc;
	memset(pl, 0, sizeof *pl);
	pl->rec.path = path;
	return (rc = record_take(&pl->rec, doc, err, len)) ? rc : plot_check(pl, path, err, len);
}

void plot_free(struct plot *pl)
{
	record_free(&pl->rec);
	free(pl->p);
	pl->p = NULL;
	pl->n = 0;
}

int plot_measured(const struct plot_point *p)
{
	return (p->state == PLOT_OK || p->state == PLOT_UNVERIFIED) && isfinite(p->gbps) && isfinite(p->median_ms);
}

const char *plot_state_word(enum plot_state s)
{
	static const char *const words[] = { "ok", "unverified", "FAILED", "ERROR", "skipped", "not run" };
	return words[s];
}

const char *plot_short_name(const char *exercise)
{
	const char *dot = strchr(exercise, '.');
	return dot && dot[1] ? dot + 1 : exercise;
}

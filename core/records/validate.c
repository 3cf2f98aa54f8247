#include "records/validate.h"

#include "exitcode.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char *const record_status_words[6] = { "ok", "unverified", "FAILED", "ERROR", "skipped", "not run" };

/* Where a check failed: "run.json: result 4 (reduce.best): " and why. */
struct where {
	const char *path;
	size_t result; /* from 1; 0 for the record itself */
	const char *exercise;
	char *err;
	size_t len;
};

__attribute__((format(printf, 2, 3)))
static int refuse_at(const struct where *w, const char *fmt, ...)
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

/* What was found, for a message: a count's text, or the type. */
static const char *found_text(const struct json *v, char *buf, size_t len)
{
	if (json_type(v) == JSON_NUMBER)
		snprintf(buf, len, "%.40s", json_number_text(v));
	else
		snprintf(buf, len, "%s", type_name(json_type(v)));
	return buf;
}

/* obj[key] of one of the types in mask (1 << JSON_...), or a refusal;
 * optional: absent is fine too. */
static int want(const struct where *w, const struct json *obj, const char *key, unsigned mask, const char *what,
		int optional, const struct json **out)
{
	*out = json_get(obj, key);
	if (!*out)
		return optional ? 0 : refuse_at(w, "\"%s\" is missing", key);
	if (!(mask & 1u << json_type(*out)))
		return refuse_at(w, "\"%s\": expected %s, found %s", key, what, type_name(json_type(*out)));
	return 0;
}

/* A number or null in [lo, hi]. */
static int number_in(const struct where *w, const struct json *obj, const char *key, double lo, double hi, int optional)
{
	const struct json *v;
	int rc = want(w, obj, key, 1u << JSON_NUMBER | 1u << JSON_NULL, "a number or null", optional, &v);
	double x = json_number(v);
	if (!rc && json_type(v) == JSON_NUMBER && !(x >= lo && x <= hi))
		return refuse_at(w, "\"%s\": %s is outside %g to %g", key, json_number_text(v), lo, hi);
	return rc;
}

/* A whole number written as digits (a count). */
static int count(const struct where *w, const struct json *obj, const char *key, int optional)
{
	const struct json *v;
	uint64_t n;
	char buf[64];
	int rc = want(w, obj, key, 1u << JSON_NUMBER, "a count", optional, &v);
	if (!rc && v && json_u64(v, &n))
		return refuse_at(w, "\"%s\": expected a count, found %s", key, found_text(v, buf, sizeof buf));
	return rc;
}

static const struct {
	const char *key;
	double hi;
	int optional; /* absent from some schema 1.x records */
} numbers[] = {
	{ "median_ms", 1e9, 0 }, { "min_ms", 1e9, 0 },    { "max_ms", 1e9, 0 },     { "noise_pct", 1e6, 0 },
	{ "gbps", 1e9, 0 },      { "peak_pct", 1e9, 0 },  { "speedup", 1e9, 0 },    { "ref_share", 1e9, 0 },
	{ "host_ms", 1e9, 1 },   { "total_ms", 1e9, 1 },  { "median_ci_pct", 1e9, 1 },
};

static int check_status(const struct where *w, const struct json *row)
{
	const struct json *v;
	int rc = want(w, row, "status", 1u << JSON_STRING, "a string", 0, &v);
	for (size_t s = 0; !rc && s < sizeof record_status_words / sizeof record_status_words[0]; s++)
		if (!strcmp(json_string(v), record_status_words[s]))
			return 0;
	return rc ? rc : refuse_at(w, "\"status\": expected ok, unverified, FAILED, ERROR, skipped or not run");
}

/* "clocks": null, or an object whose "throttled" counts slowed runs. */
static int check_clocks(const struct where *w, const struct json *row)
{
	const struct json *c, *t;
	uint64_t runs;
	int rc = want(w, row, "clocks", 1u << JSON_OBJECT | 1u << JSON_NULL, "an object or null", 0, &c);
	if (rc || json_type(c) == JSON_NULL)
		return rc;
	if ((rc = want(w, c, "throttled", 1u << JSON_NUMBER, "a number", 0, &t)))
		return rc;
	if (json_u64(t, &runs))
		return refuse_at(w, "\"clocks\": \"throttled\": expected a count of runs, found %s", json_number_text(t));
	return 0;
}

/* "metrics", where there: {label: {"metric": name, "value": v}}. */
static int check_metrics(const struct where *w, const struct json *row)
{
	const struct json *m = json_get(row, "metrics"), *v;
	int rc = 0;
	if (!m)
		return 0;
	if (json_type(m) != JSON_OBJECT)
		return refuse_at(w, "\"metrics\": expected an object, found %s", type_name(json_type(m)));
	for (size_t i = 0; !rc && i < json_len(m); i++) {
		const struct json *one = json_index(m, i);
		if (json_type(one) != JSON_OBJECT)
			return refuse_at(w, "\"metrics\": a counter is %s, not an object", type_name(json_type(one)));
		if (!(rc = want(w, one, "metric", 1u << JSON_STRING, "a string", 0, &v)))
			rc = number_in(w, one, "value", -1e300, 1e300, 0);
	}
	return rc;
}

static int check_row_params(const struct where *w, const struct json *row)
{
	const struct json *params, *n;
	uint64_t elements;
	int rc = want(w, row, "params", 1u << JSON_OBJECT, "an object", 0, &params);
	for (size_t i = 0; !rc && i < json_len(params); i++)
		if (json_type(json_index(params, i)) != JSON_NUMBER && json_type(json_index(params, i)) != JSON_STRING)
			return refuse_at(w, "\"params\": a value is %s, not a number or a string",
				      type_name(json_type(json_index(params, i))));
	if (rc || (rc = want(w, row, "elements", 1u << JSON_NUMBER, "a number", 0, &n)))
		return rc;
	if (json_u64(n, &elements))
		return refuse_at(w, "\"elements\": expected a count, found %s", json_number_text(n));
	return 0;
}

/* "samples_ms", where there: numbers of at least 0 (a time), read
 * without building a packed array's nodes. */
static int check_samples(const struct where *w, const struct json *row)
{
	const struct json *s;
	int rc = want(w, row, "samples_ms", 1u << JSON_ARRAY, "an array of numbers", 1, &s);
	for (size_t i = 0; !rc && s && i < json_len(s); i++) {
		double x = json_number_at(s, i);
		if (!(x >= 0 && x <= 1e9))
			return refuse_at(w, "\"samples_ms\": sample %zu is %s: expected a number from 0 to 1e9", i + 1,
				      json_type(json_index(s, i)) == JSON_NUMBER ? json_number_text(json_index(s, i))
				      : type_name(json_type(json_index(s, i))));
	}
	return rc;
}

/* "median_ci_ms", where there: [low, high], 0 <= low <= high. */
static int check_interval(const struct where *w, const struct json *row)
{
	const struct json *ci;
	int rc = want(w, row, "median_ci_ms", 1u << JSON_ARRAY, "an array of two numbers", 1, &ci);
	if (rc || !ci)
		return rc;
	double lo = json_number_at(ci, 0), hi = json_number_at(ci, 1);
	if (json_len(ci) != 2 || !(lo >= 0 && lo <= hi && hi <= 1e9))
		return refuse_at(w, "\"median_ci_ms\": expected [low, high], 0 <= low <= high");
	return 0;
}

int record_check_row(const char *path, size_t result, const struct json *row, char *err, size_t len)
{
	struct where w = { path, result, json_string(json_get(row, "exercise")), err, len };
	const struct json *v;
	int rc = 0;
	for (size_t k = 0; !rc && k < sizeof numbers / sizeof numbers[0]; k++)
		rc = number_in(&w, row, numbers[k].key, 0, numbers[k].hi, numbers[k].optional);
	if (rc || (rc = count(&w, row, "runs", 0)) || (rc = count(&w, row, "batch", 1))
	    || (rc = want(&w, row, "converged", 1u << JSON_BOOL, "true or false", 0, &v))
	    || (rc = want(&w, row, "noisy", 1u << JSON_BOOL, "true or false", 1, &v))
	    || (rc = want(&w, row, "message", 1u << JSON_STRING, "a string", 0, &v)))
		return rc;
	if ((rc = check_status(&w, row)) || (rc = check_clocks(&w, row)) || (rc = check_metrics(&w, row))
	    || (rc = check_samples(&w, row)) || (rc = check_interval(&w, row)))
		return rc;
	return check_row_params(&w, row);
}

/* The refusal in w->err, its key put under key: "grade.kernels[3].rank". */
static int refuse_under(const struct where *w, const char *key)
{
	char why[512];
	size_t skip = strlen(w->path) + 3; /* "PATH: \"" that refuse_at wrote before the key */
	snprintf(why, sizeof why, "%s", strlen(w->err) > skip ? w->err + skip : "");
	return refuse_at(w, "\"%s.%s", key, why);
}

/* 2.1's grade member (gpulab grade): the challenge, and each kernel with
 * its rank or its failure; "grade.kernels[3].rank" names what is wrong. */
static int check_grade(const struct where *w, const struct json *grade)
{
	static const char *const strings[] = { "failure", "reason" };
	const struct json *v, *ks;
	char key[64];
	int rc;
	if ((rc = want(w, grade, "challenge", 1u << JSON_STRING, "a string", 0, &v))
	    || (rc = want(w, grade, "kernels", 1u << JSON_ARRAY, "an array", 0, &ks)))
		return refuse_under(w, "grade");
	for (size_t i = 0; i < json_len(ks); i++) {
		const struct json *k = json_index(ks, i);
		snprintf(key, sizeof key, "grade.kernels[%zu]", i);
		if (json_type(k) != JSON_OBJECT)
			return refuse_at(w, "\"%s\": expected an object, found %s", key, type_name(json_type(k)));
		if ((rc = want(w, k, "kernel", 1u << JSON_STRING, "a string", 0, &v))
		    || (rc = want(w, k, "rank", 1u << JSON_NUMBER | 1u << JSON_NULL, "a count or null", 0, &v))
		    || (json_type(v) == JSON_NUMBER && (rc = count(w, k, "rank", 0)))
		    || (rc = want(w, k, "exit", 1u << JSON_NUMBER | 1u << JSON_NULL, "a count or null", 0, &v))
		    || (json_type(v) == JSON_NUMBER && (rc = count(w, k, "exit", 0)))
		    || (json_get(k, "ref_share") && (rc = number_in(w, k, "ref_share", 0, 1e9, 1))))
			return refuse_under(w, key);
		for (size_t s = 0; s < 2; s++)
			if ((rc = want(w, k, strings[s], 1u << JSON_STRING | 1u << JSON_NULL, "a string or null", 0, &v)))
				return refuse_under(w, key);
	}
	return 0;
}

int record_check_head(const char *path, const struct json *doc, char *err, size_t len)
{
	static const char *const strings[] = { "host", "date", "command" };
	struct where w = { path, 0, NULL, err, len };
	const struct json *v, *g, *dev;
	int rc = 0;
	/* each optional (a record made by hand for compare has none), but of its type */
	for (size_t i = 0; !rc && i < sizeof strings / sizeof strings[0]; i++)
		rc = want(&w, doc, strings[i], 1u << JSON_STRING, "a string", 1, &v);
	if (rc || (rc = want(&w, doc, "gpulab", 1u << JSON_OBJECT, "an object", 1, &g))
	    || (g && (rc = want(&w, g, "version", 1u << JSON_STRING, "a string", 0, &v)))
	    || (rc = want(&w, doc, "device", 1u << JSON_OBJECT | 1u << JSON_NULL, "an object or null", 1, &dev))
	    || (rc = want(&w, doc, "grade", 1u << JSON_OBJECT, "an object", 1, &g)) || (g && (rc = check_grade(&w, g))))
		return rc;
	if (json_type(dev) != JSON_OBJECT)
		return 0;
	if ((rc = want(&w, dev, "name", 1u << JSON_STRING, "a string", 0, &v)))
		return rc;
	return number_in(&w, dev, "peak_gbps", 0, 1e9, 1);
}

int record_check_end(const char *path, size_t line, const struct json *end, size_t points, char *err, size_t len)
{
	char at[4200], buf[64];
	snprintf(at, sizeof at, "%s: line %zu, the closing entry", path, line);
	struct where w = { at, 0, NULL, err, len };
	const struct json *v, *why;
	uint64_t n;
	int rc = want(&w, end, "interrupted", 1u << JSON_BOOL, "true or false", 0, &v);
	if (rc || (rc = want(&w, end, "interruption", 1u << JSON_STRING | 1u << JSON_NULL, "a string or null", 0, &why))
	    || (rc = count(&w, end, "points", 0)))
		return rc;
	if (json_bool(v) != (json_type(why) == JSON_STRING))
		return refuse_at(&w, "\"interrupted\": %s, but \"interruption\" is %s", json_bool(v) ? "true" : "false",
				 type_name(json_type(why)));
	json_u64(json_get(end, "points"), &n);
	if (n != points)
		return refuse_at(&w, "\"points\": %s, but the journal holds %zu", found_text(json_get(end, "points"), buf,
				 sizeof buf), points);
	return 0;
}

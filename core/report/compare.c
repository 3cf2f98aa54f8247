#include "report/compare.h"

#include "exitcode.h"
#include "report/emit.h"
#include "report/json.h"
#include "report/report.h"
#include "run/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A record as large as this is a mistake or an attack, not a run. */
#define MAX_RECORD_BYTES (256u << 20)

struct point {
	const struct json *row;
	char key[1024];     /* exercise and the parameters that define the point */
	char params[768];   /* those parameters, for people */
	int matched;
};

struct side {
	const char *path;
	const char *exercise; /* only this exercise's points; NULL: all */
	struct json *doc;
	struct point *v;
	size_t n;
};

/* Parameters that say how a point was measured, not which point it is. */
static int defines_point(const char *key)
{
	return strcmp(key, "seed") && strcmp(key, "reps") && strcmp(key, "warmup");
}

/* The key that matches p with its partner: its exercise, unless the
 * sides are two exercises, and its parameters that define a point, but
 * only those the other side's points have too (`other` is one of their
 * parameter objects, or NULL for all), since cub takes no block size and
 * best does. */
static void point_key(struct point *p, int with_exercise, const struct json *other)
{
	const struct json *params = json_get(p->row, "params");
	const char *ex = json_string(json_get(p->row, "exercise"));
	snprintf(p->key, sizeof p->key, "%s", with_exercise && ex ? ex : "");
	p->params[0] = 0;
	for (size_t i = 0; i < json_len(params); i++) {
		const char *k = json_key(params, i);
		const struct json *v = json_index(params, i);
		const char *text = json_type(v) == JSON_STRING ? json_string(v) : json_number_text(v);
		if (!k || !text || !defines_point(k) || (other && !json_get(other, k)))
			continue;
		snprintf(p->key + strlen(p->key), sizeof p->key - strlen(p->key), "|%s=%s", k, text);
		snprintf(p->params + strlen(p->params), sizeof p->params - strlen(p->params), "%s%s=%s",
			 p->params[0] ? " " : "", k, text);
	}
}

/* Keys for both sides, once both are loaded. */
static void key_points(struct side *a, struct side *b)
{
	int one_each = a->exercise != NULL;
	const struct json *pa = one_each && a->n ? json_get(a->v[0].row, "params") : NULL;
	const struct json *pb = one_each && b->n ? json_get(b->v[0].row, "params") : NULL;
	for (size_t i = 0; i < a->n; i++)
		point_key(&a->v[i], !one_each, pb);
	for (size_t i = 0; i < b->n; i++)
		point_key(&b->v[i], !one_each, pa);
}

static int load(struct side *s, char *err, size_t len)
{
	char why[512];
	const char *schema;
	const struct json *results;
	if (!(s->doc = json_read_file(s->path, MAX_RECORD_BYTES, why, sizeof why))) {
		snprintf(err, len, "%s", why);
		return EXIT_USAGE;
	}
	schema = json_string(json_get(s->doc, "schema"));
	results = json_get(s->doc, "results");
	if (!schema || strcmp(schema, REPORT_SCHEMA) || json_type(results) != JSON_ARRAY) {
		snprintf(err, len, "%s: not a %s record%s%s (gpulab run --output writes one)", s->path, REPORT_SCHEMA,
			 schema ? ": its schema is " : "", schema ? schema : "");
		return EXIT_USAGE;
	}
	s->n = json_len(results);
	if (!(s->v = calloc(s->n ? s->n : 1, sizeof *s->v))) {
		snprintf(err, len, "%s: out of memory", s->path);
		return EXIT_NOMEM;
	}
	size_t kept = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct json *row = json_index(results, i);
		const char *ex = json_string(json_get(row, "exercise"));
		if (json_type(row) != JSON_OBJECT || !ex) {
			snprintf(err, len, "%s: result %zu has no exercise", s->path, i + 1);
			return EXIT_USAGE;
		}
		if (!s->exercise || !strcmp(ex, s->exercise))
			s->v[kept++].row = row;
	}
	s->n = kept;
	if (s->exercise && !kept) {
		snprintf(err, len, "%s: no point of %s in this record", s->path, s->exercise);
		return EXIT_USAGE;
	}
	return 0;
}

/* Where the records differ in what the numbers depend on, say so. */
static void warn_conditions(const struct side *a, const struct side *b, FILE *err)
{
	static const char *const device[] = { "name", "uuid", "max_sm_mhz", "driver", "cuda_driver", "cuda_runtime" };
	const struct json *da = json_get(a->doc, "device"), *db = json_get(b->doc, "device");
	for (size_t i = 0; i < sizeof device / sizeof device[0]; i++) {
		const struct json *x = json_get(da, device[i]), *y = json_get(db, device[i]);
		const char *tx = json_type(x) == JSON_STRING ? json_string(x) : json_number_text(x);
		const char *ty = json_type(y) == JSON_STRING ? json_string(y) : json_number_text(y);
		if (tx && ty && strcmp(tx, ty))
			fprintf(err, "gpulab: warning: the records differ in the device's %s: %s and %s\n", device[i], tx, ty);
	}
	if (json_bool(json_get(a->doc, "cold")) != json_bool(json_get(b->doc, "cold")))
		fprintf(err, "gpulab: warning: one record flushed the L2 cache (--cold) and the other did not\n");
}

/* A point's samples, or NULL (with *n 0) where it has none. */
static double *samples(const struct point *p, size_t *n)
{
	const struct json *s = json_get(p->row, "samples_ms");
	const char *status = json_string(json_get(p->row, "status"));
	double *v;
	*n = 0;
	if (!status || (strcmp(status, "ok") && strcmp(status, "unverified")) || !json_len(s)
	    || !(v = malloc(json_len(s) * sizeof *v)))
		return NULL;
	for (size_t i = 0; i < json_len(s); i++)
		v[(*n)++] = json_number(json_index(s, i));
	return v;
}

struct pair {
	const struct point *base, *cand;
	enum stats_verdict verdict;
	struct stats_comparison c;
};

static void judge(struct pair *pr)
{
	size_t nb, nc;
	double *b = samples(pr->base, &nb), *c = samples(pr->cand, &nc);
	memset(&pr->c, 0, sizeof pr->c);
	pr->c.ratio = NAN;
	pr->c.mw.p = NAN;
	pr->verdict = stats_verdict(b, nb, c, nc, STATS_ALPHA, &pr->c);
	free(b);
	free(c);
}

static const char *verdict_word(const struct pair *pr)
{
	if (!json_len(json_get(pr->base->row, "samples_ms")) || !json_len(json_get(pr->cand->row, "samples_ms")))
		return "no samples";
	return stats_verdict_name(pr->verdict);
}

static void print_row(const struct pair *pr, enum format f, FILE *out, int first)
{
	double change = 100 * (pr->c.ratio - 1);
	const char *base_ex = json_string(json_get(pr->base->row, "exercise"));
	const char *new_ex = json_string(json_get(pr->cand->row, "exercise"));
	int have = isfinite(pr->c.ratio), two = strcmp(base_ex, new_ex) != 0;
	char both[256], *ex = both;
	snprintf(both, sizeof both, two ? "%s vs %s" : "%s", two ? new_ex : base_ex, base_ex);
	if (f == FORMAT_JSON) {
		fputs(first ? "    {\"exercise\": " : ",\n    {\"exercise\": ", out);
		emit_json(out, base_ex);
		if (two) {
			fputs(", \"new_exercise\": ", out);
			emit_json(out, new_ex);
		}
		fputs(", \"params\": ", out);
		emit_json(out, pr->base->params);
		emit_json_number(out, "base_ms", have, pr->c.base.median);
		emit_json_number(out, "new_ms", have, pr->c.cand.median);
		emit_json_number(out, "ratio", have, pr->c.ratio);
		emit_json_number(out, "p", isfinite(pr->c.mw.p), pr->c.mw.p);
		fputs(", \"verdict\": ", out);
		emit_json(out, verdict_word(pr));
		fputc('}', out);
	} else if (f == FORMAT_CSV) {
		emit_csv(out, ex);
		fputc(',', out);
		emit_csv(out, pr->base->params);
		if (have)
			fprintf(out, ",%.6f,%.6f,%.6f,", pr->c.base.median, pr->c.cand.median, pr->c.ratio);
		else
			fputs(",,,,", out);
		if (isfinite(pr->c.mw.p))
			fprintf(out, "%.6g", pr->c.mw.p);
		fputc(',', out);
		emit_csv(out, verdict_word(pr));
		fputc('\n', out);
	} else {
		fprintf(out, "%-28s %-32s", ex, pr->base->params);
		if (have)
			fprintf(out, " %10.4f %10.4f %+8.1f%%", pr->c.base.median, pr->c.cand.median, change);
		else
			fprintf(out, " %10s %10s %9s", "-", "-", "-");
		if (isfinite(pr->c.mw.p))
			fprintf(out, " %8.4f", pr->c.mw.p);
		else
			fprintf(out, " %8s", "-");
		fprintf(out, "  %s\n", verdict_word(pr));
	}
}

static void print_head(const struct side *a, const struct side *b, enum format f, FILE *out)
{
	if (f == FORMAT_JSON) {
		fputs("{\n  \"base\": ", out);
		emit_json(out, a->path);
		fputs(", \"new\": ", out);
		emit_json(out, b->path);
		fprintf(out, ", \"test\": \"Mann-Whitney U, two-sided\", \"alpha\": %g,\n  \"points\": [\n", STATS_ALPHA);
	} else if (f == FORMAT_CSV) {
		fputs("exercise,params,base_ms,new_ms,ratio,p,verdict\n", out);
	} else {
		fprintf(out, "base %s%s%s, new %s%s%s: medians of GPU time, Mann-Whitney U test (two-sided, alpha %g)\n",
			a->exercise ? a->exercise : "", a->exercise ? " of " : "", a->path, b->exercise ? b->exercise : "",
			b->exercise ? " of " : "", b->path, STATS_ALPHA);
		fprintf(out, "%-28s %-32s %10s %10s %9s %8s  %s\n", "exercise", "params", "base ms", "new ms", "change", "p",
			"verdict");
	}
}

/* Points of s that found no partner, named: they are not dropped. */
static void print_unmatched(const struct side *s, const char *which, enum format f, FILE *out, int *first)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct point *p = &s->v[i];
		const char *ex = json_string(json_get(p->row, "exercise"));
		if (p->matched)
			continue;
		if (f == FORMAT_JSON) {
			fputs(*first ? "    {\"in\": " : ",\n    {\"in\": ", out);
			emit_json(out, which);
			fputs(", \"exercise\": ", out);
			emit_json(out, ex);
			fputs(", \"params\": ", out);
			emit_json(out, p->params);
			fputc('}', out);
		} else if (f == FORMAT_CSV) {
			emit_csv(out, ex);
			fputc(',', out);
			emit_csv(out, p->params);
			fprintf(out, ",,,,,\"only in %s\"\n", which);
		} else {
			fprintf(out, "%s%-28s %-32s  only in %s\n", *first ? "unmatched:\n" : "", ex, p->params, which);
		}
		*first = 0;
	}
}

/* Pair every base point with the first unmatched new one of its key. */
static size_t pair_up(struct side *a, struct side *b, struct pair *pairs)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < b->n; k++)
			if (!b->v[k].matched && !strcmp(a->v[i].key, b->v[k].key)) {
				a->v[i].matched = b->v[k].matched = 1;
				pairs[n] = (struct pair){ .base = &a->v[i], .cand = &b->v[k] };
				judge(&pairs[n++]);
				break;
			}
	return n;
}

/* Slower by more than pct, with confidence? */
static int too_slow(const struct pair *pr, double pct)
{
	return pct >= 0 && pr->verdict == STATS_SLOWER && 100 * (pr->c.ratio - 1) > pct;
}

static int report(struct side *a, struct side *b, const struct options *o, FILE *out)
{
	struct pair *pairs = calloc(a->n ? a->n : 1, sizeof *pairs);
	int first = 1, slow = 0;
	if (!pairs)
		return EXIT_NOMEM;
	size_t n = pair_up(a, b, pairs);
	print_head(a, b, o->format, out);
	for (size_t i = 0; i < n; i++) {
		print_row(&pairs[i], o->format, out, i == 0);
		slow += too_slow(&pairs[i], o->fail_above);
	}
	if (o->format == FORMAT_JSON)
		fputs("\n  ],\n  \"unmatched\": [\n", out);
	print_unmatched(a, "base", o->format, out, &first);
	print_unmatched(b, "new", o->format, out, &first);
	if (o->format == FORMAT_JSON)
		fprintf(out, "\n  ],\n  \"slower_than_allowed\": %d\n}\n", slow);
	else if (o->format == FORMAT_TABLE && o->fail_above >= 0)
		fprintf(out, "%d point%s slower by more than %g%% with confidence\n", slow, slow == 1 ? "" : "s", o->fail_above);
	free(pairs);
	return slow ? EXIT_SLOWER : 0;
}

int compare_records(const char *base, const char *cand, const struct options *o, FILE *out, FILE *err, char *errbuf,
		    size_t errlen)
{
	struct side a = { .path = base, .exercise = o->base_exercise }, b = { .path = cand, .exercise = o->new_exercise };
	int rc = load(&a, errbuf, errlen);
	if (rc == 0)
		rc = load(&b, errbuf, errlen);
	if (rc == 0) {
		key_points(&a, &b);
		warn_conditions(&a, &b, err);
		if ((rc = report(&a, &b, o, out)) == EXIT_NOMEM)
			snprintf(errbuf, errlen, "out of memory");
	}
	json_free(a.doc);
	json_free(b.doc);
	free(a.v);
	free(b.v);
	return rc;
}

#include "command_names.h"
#include "records/record.h"

#include "config/options.h"
#include "exitcode.h"
#include "fail.h"
#include "records/ondisk.h"
#include "records/schema.h"
#include "records/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int record_defines_point(const char *key)
{
	return strcmp(key, "seed") && strcmp(key, "reps") && strcmp(key, "warmup");
}

/* The key that matches p with its partner: its exercise (unless the
 * sides are two exercises) and its parameters that define a point, but
 * only those `other` has too where it is given. */
static void point_key(struct record_point *p, int with_exercise, const struct json *other)
{
	const struct json *params = json_get(p->row, "params");
	const char *ex = json_string(json_get(p->row, "exercise"));
	snprintf(p->key, sizeof p->key, "%s", with_exercise && ex ? ex : "");
	p->params[0] = 0;
	for (size_t i = 0; i < json_len(params); i++) {
		const char *k = json_key(params, i);
		const struct json *v = json_index(params, i);
		const char *text = json_scalar_text(v);
		if (!k || !text || !record_defines_point(k) || (other && !json_get(other, k)))
			continue;
		snprintf(p->key + strlen(p->key), sizeof p->key - strlen(p->key), "|%s=%s", k, text);
		snprintf(p->params + strlen(p->params), sizeof p->params - strlen(p->params), "%s%s=%s",
			 p->params[0] ? " " : "", k, text);
	}
}

void record_key_across(struct record *a, struct record *b)
{
	const struct json *pa = a->n ? json_get(a->v[0].row, "params") : NULL;
	const struct json *pb = b->n ? json_get(b->v[0].row, "params") : NULL;
	for (size_t i = 0; i < a->n; i++)
		point_key(&a->v[i], 0, pb);
	for (size_t i = 0; i < b->n; i++)
		point_key(&b->v[i], 0, pa);
}

/* What a reader says of what it found: an entry dropped, a run that did
 * not finish. */
static void say_found(const char *path, const struct ondisk *d)
{
	char warn[1024];
	if (ondisk_warning(path, d, warn, sizeof warn)[0])
		fail(0, "warning: %s", warn);
}

struct json *record_read_lines(const char *path, struct ondisk *d, char **text, char *err, size_t len)
{
	struct json *doc = ondisk_read_lines(path, RECORD_MAX_BYTES, d, text, err, len);
	if (doc)
		say_found(path, d);
	return doc;
}

struct json *record_read(const char *path, char *err, size_t len)
{
	struct ondisk d;
	struct json *doc = ondisk_read(path, RECORD_MAX_BYTES, &d, err, len);
	if (doc)
		say_found(path, &d);
	return doc;
}

int record_load(struct record *r, char *err, size_t len)
{
	struct json *doc = record_read(r->path, err, len);
	return doc ? record_take(r, doc, err, len) : EXIT_USAGE;
}

/* "gpulab-record/M" or "gpulab-record/M.N" of the major M. */
static int schema_of_major(const char *schema, const char *major)
{
	size_t n = strlen(major);
	if (!schema || strncmp(schema, major, n))
		return 0;
	if (!schema[n])
		return 1;
	return schema[n] == '.' && schema[n + 1] && strspn(schema + n + 1, "0123456789") == strlen(schema + n + 1);
}

int record_schema_known(const char *schema)
{
	return schema_of_major(schema, RECORD_SCHEMA_MAJOR) || schema_of_major(schema, RECORD_JOURNAL_MAJOR);
}

int record_take(struct record *r, struct json *doc, char *err, size_t len)
{
	const char *schema;
	const struct json *results;
	r->doc = doc;
	schema = json_string(json_get(r->doc, "schema"));
	results = json_get(r->doc, "results");
	if (!record_schema_known(schema) || json_type(results) != JSON_ARRAY) {
		snprintf(err, len, "%s: not a gpulab-record/1 or /2 record%s%s (gpulab " CMD_RUN " %s writes one)", r->path,
			 schema ? ": its schema is " : "", schema ? schema : "", options_long(OPT_OUTPUT));
		return EXIT_USAGE;
	}
	if (json_len(results) > RECORD_MAX_POINTS) {
		snprintf(err, len, "%s: %zu results, more than the %d one run makes", r->path, json_len(results),
			 RECORD_MAX_POINTS);
		return EXIT_USAGE;
	}
	int rc = record_check_head(r->path, r->doc, err, len);
	for (size_t i = 0; !rc && i < json_len(results); i++)
		if (json_type(json_index(results, i)) != JSON_OBJECT || !json_string(json_get(json_index(results, i), "exercise")))
			return snprintf(err, len, "%s: result %zu has no exercise", r->path, i + 1), EXIT_USAGE;
		else
			rc = record_check_row(r->path, i + 1, json_index(results, i), err, len);
	if (rc)
		return rc;
	r->finished = json_bool(json_get(r->doc, "finished")) != 0;
	r->n = json_len(results);
	if (!(r->v = calloc(r->n ? r->n : 1, sizeof *r->v))) {
		snprintf(err, len, "%s: out of memory", r->path);
		return EXIT_NOMEM;
	}
	size_t kept = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct json *row = json_index(results, i);
		const char *ex = json_string(json_get(row, "exercise"));
		if (json_type(row) != JSON_OBJECT || !ex) {
			snprintf(err, len, "%s: result %zu has no exercise", r->path, i + 1);
			return EXIT_USAGE;
		}
		if (r->exercise && strcmp(ex, r->exercise))
			continue;
		r->v[kept].row = row;
		point_key(&r->v[kept++], 1, NULL);
	}
	r->n = kept;
	if (r->exercise && !kept) {
		snprintf(err, len, "%s: no point of %s in this record", r->path, r->exercise);
		return EXIT_USAGE;
	}
	return 0;
}

void record_free(struct record *r)
{
	json_free(r->doc);
	free(r->v);
	r->doc = NULL;
	r->v = NULL;
	r->n = 0;
}

/* A point's samples, or NULL (with *n 0) where it has none.  Read with
 * json_number_at, so that a packed samples_ms (json.h) is copied from its
 * doubles, never given a node for each sample. */
static double *samples(const struct record_point *p, size_t *n)
{
	const struct json *s = json_get(p->row, "samples_ms");
	const char *status = json_string(json_get(p->row, "status"));
	double *v;
	*n = 0;
	if (!status || (strcmp(status, "ok") && strcmp(status, "unverified")) || !json_len(s)
	    || !(v = malloc(json_len(s) * sizeof *v)))
		return NULL;
	for (size_t i = 0; i < json_len(s); i++)
		v[(*n)++] = json_number_at(s, i);
	return v;
}

static void judge(struct record_pair *pr)
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

const char *record_verdict_word(const struct record_pair *pr)
{
	if (!json_len(json_get(pr->base->row, "samples_ms")) || !json_len(json_get(pr->cand->row, "samples_ms")))
		return "no samples";
	return stats_verdict_name(pr->verdict);
}

size_t record_pair_up(struct record *a, struct record *b, struct record_pair *pairs)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < b->n; k++)
			if (!b->v[k].matched && !strcmp(a->v[i].key, b->v[k].key)) {
				a->v[i].matched = b->v[k].matched = 1;
				pairs[n] = (struct record_pair){ .base = &a->v[i], .cand = &b->v[k] };
				judge(&pairs[n++]);
				break;
			}
	return n;
}

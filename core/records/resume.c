#include "records/resume.h"

#include "config/options.h"
#include "emit/field.h"
#include "records/ondisk.h"
#include "exitcode.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run-level field's text ("gpulab" "version", "device" "uuid", "cold"),
 * for a message and to compare; "" where the record has none. */
static const char *field(const struct json *doc, const char *obj, const char *key, char *buf, size_t len)
{
	const struct json *v = obj ? json_get(json_get(doc, obj), key) : json_get(doc, key);
	const char *text = json_scalar_text(v);
	int b = json_bool(v);
	snprintf(buf, len, "%s", text ? text : b >= 0 ? (b ? "true" : "false") : "");
	return buf;
}

/* The device a record was made on: its UUID where NVML gave one, else
 * its name; "the host" for a run with no GPU. */
static const char *device_of(const struct json *doc, char *buf, size_t len)
{
	const struct json *d = json_get(doc, "device");
	if (json_type(d) != JSON_OBJECT)
		return snprintf(buf, len, "the host"), buf;
	field(doc, "device", "uuid", buf, len);
	return buf[0] ? buf : field(doc, "device", "name", buf, len);
}

/* What must be the same for the points of two runs to be one record:
 * 0, or EXIT_USAGE with why. */
static int same_conditions(const struct resume *r, const struct resume_plan *plan, char *err, size_t len)
{
	const struct { const char *obj, *key, *what; } must[] = {
		{ "gpulab", "version", "gpulab version" }, { "gpulab", "revision", "gpulab revision" },
		{ NULL, "cold", options_long(OPT_COLD) }, { NULL, "batch", options_long(OPT_BATCH) },
	};
	char a[256], batch[32];
	snprintf(batch, sizeof batch, "%u", plan->batch > 1 ? plan->batch : 1);
	const char *mine[] = { plan->version, plan->revision, plan->cold ? "true" : "false", batch };
	if (strcmp(device_of(r->old.doc, a, sizeof a), plan->device)) {
		snprintf(err, len, "%s: recorded on %s, and this run is on %s: not resumed", r->old.path, a, plan->device);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
		field(r->old.doc, must[i].obj, must[i].key, a, sizeof a);
		if (strcmp(a, mine[i]) && !(!strcmp(must[i].key, "batch") && !a[0] && !strcmp(mine[i], "1"))) { /* no batch: 1 */
			snprintf(err, len, "%s: its %s is %s, and this run's %s: not resumed", r->old.path, must[i].what,
				 a[0] ? a : "not given", mine[i]);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* FILE's row k as the text the new record holds it in: its line as
 * written, where FILE is a journal read with its lines (resume_load), a
 * copy as fast as compare reads it; else its tree written again.  NULL
 * where memory ran out. */
static char *row_text(const struct resume *r, size_t k)
{
	char *text = NULL;
	size_t size = 0;
	if (r->lines && r->lines->line_at) {
		size_t n = r->lines->line_len[k];
		if ((text = malloc(n + 1))) {
			memcpy(text, r->text + r->lines->line_at[k], n);
			text[n] = 0;
		}
		return text;
	}
	FILE *out = open_memstream(&text, &size);
	if (!out)
		return NULL;
	ondisk_write_tree(out, r->old.v[k].row);
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}

static int not_run(const struct record_point *p)
{
	const char *status = json_string(json_get(p->row, "status"));
	return status && !strcmp(status, "not run");
}

/* A measured row, the one kind --resume keeps: ok, or unverified (run
 * with --no-verify, which a resumed --no-verify sweep would otherwise
 * run again for ever).  FAILED, ERROR and skipped rows run again. */
static int kept_row(const struct record_point *p)
{
	const char *status = json_string(json_get(p->row, "status"));
	return status && (!strcmp(status, "ok") || !strcmp(status, "unverified"));
}

/* A parameter's part of a point's hash: its key and its value, by type,
 * so that the same value hashes alike however FILE spelt it. */
static uint64_t param_hash(const struct resume_param *p)
{
	const struct param_value *v = &p->value;
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	const unsigned char *s = (const unsigned char *)p->decl->key;
	while (*s)
		h = (h ^ *s++) * 1099511628211ull;
	switch (p->decl->type) {
	case GPULAB_PARAM_PATH:
		for (s = (const unsigned char *)(v->str ? v->str : ""); *s; s++)
			h = (h ^ *s) * 1099511628211ull;
		return h;
	case GPULAB_PARAM_INT: return (h ^ (uint64_t)v->i) * 1099511628211ull;
	case GPULAB_PARAM_ENUM: return (h ^ v->e) * 1099511628211ull;
	case GPULAB_PARAM_SHAPE: return (h ^ ((uint64_t)v->s.x << 32 | v->s.y)) * 1099511628211ull;
	default: return ((h ^ v->u) * 1099511628211ull) ^ (uint64_t)v->random; /* COUNT, SEED */
	}
}

/* Does parameter p say which point it is, and have a value? */
static int defines(const struct resume_param *p)
{
	return p->given && record_defines_point(p->decl->key);
}

/* A point's typed key: its exercise, and the parameters that define it,
 * in any order; hash (a sum, so that the order does not count) only
 * spares comparing most pairs that differ. */
struct typed_key {
	const struct resume_point *p;
	uint64_t hash;
	int typed;                  /* 0: a row no planned point can be */
};

static void key_hash(struct typed_key *k)
{
	const char *s = k->p->exercise;
	k->hash = 0;
	while (*s)
		k->hash = (k->hash ^ (unsigned char)*s++) * 1099511628211ull;
	for (size_t i = 0; i < k->p->nparams; i++)
		if (defines(&k->p->params[i]))
			k->hash += param_hash(&k->p->params[i]);
}

/* The same exercise, and every parameter that defines one point the
 * other's, of the same key and an equal value. */
static int same_typed_point(const struct typed_key *a, const struct typed_key *b)
{
	size_t na = 0, nb = 0;
	if (!a->typed || !b->typed || a->hash != b->hash || strcmp(a->p->exercise, b->p->exercise))
		return 0;
	for (size_t i = 0; i < b->p->nparams; i++)
		nb += defines(&b->p->params[i]);
	for (size_t i = 0; i < a->p->nparams; i++) {
		const struct resume_param *x = &a->p->params[i];
		size_t k = 0;
		if (!defines(x))
			continue;
		na++;
		while (k < b->p->nparams && !(defines(&b->p->params[k]) && !strcmp(b->p->params[k].decl->key, x->decl->key)))
			k++;
		if (k == b->p->nparams || !param_equal(x->decl, &x->value, &b->p->params[k].value))
			return 0;
	}
	return na == nb;
}

/* FILE's row read as a point of like's exercise: each of its parameters
 * that defines a point parsed as that exercise declares the key, into
 * params (room for like->nparams).  0: the row has a key the exercise
 * lacks, a key twice, or a value it does not take, and is no point of it. */
static int type_row(const struct json *row, const struct resume_point *like, struct resume_param *params,
		    struct resume_point *out)
{
	const struct json *kv = json_get(row, "params");
	char why[256];
	*out = (struct resume_point){ .exercise = like->exercise, .params = params, .nparams = like->nparams };
	for (size_t i = 0; i < like->nparams; i++)
		params[i] = (struct resume_param){ .decl = like->params[i].decl };
	for (size_t i = 0; i < json_len(kv); i++) {
		const char *key = json_key(kv, i), *text = json_scalar_text(json_index(kv, i));
		size_t k = 0;
		if (!key || !text || !record_defines_point(key))
			continue; /* how it was measured, not which point it is */
		while (k < like->nparams && strcmp(params[k].decl->key, key))
			k++;
		if (k == like->nparams || params[k].given
		    || param_parse(params[k].decl, text, &params[k].value, why, sizeof why) != PARSE_OK)
			return 0;
		params[k].given = 1;
	}
	return 1;
}

/* The first planned point of the row's exercise, whose keys type it. */
static const struct resume_point *planned_like(const struct json *row, const struct resume_plan *plan)
{
	const char *ex = json_string(json_get(row, "exercise"));
	for (size_t i = 0; ex && i < plan->n; i++)
		if (!strcmp(plan->points[i].exercise, ex))
			return &plan->points[i];
	return NULL;
}

/* Every planned point's key, then every row's of FILE, typed as the
 * first planned point of its exercise declares its keys: one array of
 * plan->n then r->old.n keys, and the rows' parameters in params. */
static int key_all(const struct resume *r, const struct resume_plan *plan, struct typed_key *keys,
		   struct resume_point *rows, struct resume_param **params)
{
	size_t room = 0, at = 0;
	const struct resume_point **like = calloc(r->old.n ? r->old.n : 1, sizeof *like);
	if (!like)
		return EXIT_NOMEM;
	for (size_t i = 0; i < r->old.n; i++)
		if ((like[i] = planned_like(r->old.v[i].row, plan)))
			room += like[i]->nparams;
	if (!(*params = calloc(room ? room : 1, sizeof **params))) {
		free(like);
		return EXIT_NOMEM;
	}
	for (size_t i = 0; i < plan->n; i++)
		keys[i] = (struct typed_key){ .p = &plan->points[i], .typed = 1 };
	for (size_t i = 0; i < r->old.n; i++) {
		struct typed_key *k = &keys[plan->n + i];
		*k = (struct typed_key){ .p = &rows[i] };
		rows[i] = (struct resume_point){ .exercise = "" };
		k->typed = like[i] && type_row(r->old.v[i].row, like[i], *params + at, &rows[i]);
		at += like[i] ? like[i]->nparams : 0;
	}
	for (size_t i = 0; i < plan->n + r->old.n; i++)
		key_hash(&keys[i]);
	free(like);
	return 0;
}

/* Each planned point to FILE's first unmatched row of the same typed
 * key; FILE's "not run" rows are lacking, so never paired.  A paired row
 * not measured is not kept: its point runs again, and its new row
 * replaces it. */
static int pair_up(struct resume *r, const struct resume_plan *plan)
{
	struct typed_key *keys = calloc(plan->n + r->old.n + 1, sizeof *keys);
	struct resume_point *rows = calloc(r->old.n + 1, sizeof *rows);
	struct resume_param *params = NULL;
	int bad = !keys || !rows || key_all(r, plan, keys, rows, &params);
	for (size_t i = 0; !bad && i < r->old.n; i++)
		r->old.v[i].matched = not_run(&r->old.v[i]);
	for (size_t i = 0; !bad && i < plan->n; i++)
		for (size_t k = 0; k < r->old.n; k++)
			if (!r->old.v[k].matched && same_typed_point(&keys[i], &keys[plan->n + k])) {
				r->old.v[k].matched = 1;
				if (kept_row(&r->old.v[k])) {
					bad |= !(r->kept[i] = row_text(r, k));
					r->nkept++;
				}
				break;
			}
	free(params);
	free(rows);
	free(keys);
	return bad ? EXIT_NOMEM : 0;
}

/* The planned points FILE has, kept; its rows no point is, kept after. */
static int match(struct resume *r, const struct resume_plan *plan)
{
	r->nplan = plan->n;
	r->kept = calloc(plan->n ? plan->n : 1, sizeof *r->kept);
	r->extra = calloc(r->old.n ? r->old.n : 1, sizeof *r->extra);
	if (!r->kept || !r->extra || pair_up(r, plan))
		return EXIT_NOMEM;
	int bad = 0;
	for (size_t i = 0; i < r->old.n; i++)
		if (!r->old.v[i].matched)
			bad |= !(r->extra[r->nextra++] = row_text(r, i));
	return bad ? EXIT_NOMEM : 0;
}

/* resume_take, FILE's rows copied from its lines where d has them. */
static int take_lines(struct resume *r, const char *path, struct json *old, const struct resume_plan *plan,
		      const struct ondisk *d, const char *text, char *err, size_t len)
{
	int rc;
	*r = (struct resume){ .old = { .path = path }, .lines = d, .text = text };
	if ((rc = record_take(&r->old, old, err, len)))
		return rc;
	if ((rc = same_conditions(r, plan, err, len)))
		return rc;
	if ((rc = match(r, plan)))
		snprintf(err, len, "%s: out of memory", path);
	r->lines = NULL;
	r->text = NULL;
	return rc;
}

int resume_take(struct resume *r, const char *path, struct json *old, const struct resume_plan *plan, char *err,
		size_t len)
{
	return take_lines(r, path, old, plan, NULL, NULL, err, len);
}

/* FILE read with its lines, so that its rows are copied as written; the
 * text and the tree freed once matched, so that --resume holds no more
 * than compare does. */
int resume_load(struct resume *r, const char *path, const struct resume_plan *plan, char *err, size_t len)
{
	char why[512], *text = NULL;
	struct ondisk d;
	struct json *old = record_read_lines(path, &d, &text, why, sizeof why);
	int rc = EXIT_USAGE;
	if (!old) {
		*r = (struct resume){ 0 };
		snprintf(err, len, "%s", why);
	} else {
		rc = take_lines(r, path, old, plan, &d, text, err, len);
		record_free(&r->old);
	}
	ondisk_lines_free(&d);
	free(text);
	return rc;
}

void resume_free(struct resume *r)
{
	for (size_t i = 0; r->kept && i < r->nplan; i++)
		free(r->kept[i]);
	for (size_t i = 0; r->extra && i < r->nextra; i++)
		free(r->extra[i]);
	record_free(&r->old);
	free(r->kept);
	free(r->extra);
	r->kept = NULL;
	r->extra = NULL;
}

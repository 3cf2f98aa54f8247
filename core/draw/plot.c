#include "draw/plot.h"

#include "exitcode.h"
#include "records/validate.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The record passed the one check (records/validate.h) in record_take:
 * what follows reads it, and refuses nothing. */

/* A number, or NAN for null. */
static double number_of(const struct json *obj, const char *key)
{
	return json_number(json_get(obj, key));
}

static const struct {
	const char *key;
	size_t offset;
} numbers[] = {
	{ "median_ms", offsetof(struct plot_point, median_ms) }, { "min_ms", offsetof(struct plot_point, min_ms) },
	{ "max_ms", offsetof(struct plot_point, max_ms) },       { "noise_pct", offsetof(struct plot_point, noise_pct) },
	{ "gbps", offsetof(struct plot_point, gbps) },           { "peak_pct", offsetof(struct plot_point, peak_pct) },
	{ "speedup", offsetof(struct plot_point, speedup) },     { "ref_share", offsetof(struct plot_point, ref_share) },
};

static enum plot_state state_of(const struct json *row)
{
	const char *word = json_string(json_get(row, "status"));
	for (int s = PLOT_OK; s <= PLOT_NOT_RUN; s++)
		if (!strcmp(word, record_status_words[s]))
			return (enum plot_state)s;
	return PLOT_ERROR; /* not reached: validate.c knows the same words */
}

static int is_ceiling(const char *exercise)
{
	static const char *const names[] = { "memcpy", "copy_row", "copy", "cub" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(plot_short_name(exercise), names[i]))
			return 1;
	return 0;
}

static void read_point(struct plot *pl, size_t i)
{
	struct plot_point *p = &pl->p[i];
	const struct json *noisy, *clocks, *m, *params;
	uint64_t elements = 0, throttled = 0;
	p->row = pl->rec.v[i].row;
	p->params = pl->rec.v[i].params;
	p->exercise = json_string(json_get(p->row, "exercise"));
	p->ceiling = is_ceiling(p->exercise);
	for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++)
		*(double *)((char *)p + numbers[k].offset) = number_of(p->row, numbers[k].key);
	p->converged = json_bool(json_get(p->row, "converged"));
	/* 1.2: NOISY is an uncertain median; before, an unconverged one */
	if ((noisy = json_get(p->row, "noisy")))
		p->converged = !json_bool(noisy);
	p->message = json_string(json_get(p->row, "message"));
	p->state = state_of(p->row);
	clocks = json_get(p->row, "clocks");
	p->throttled = json_type(clocks) == JSON_OBJECT && !json_u64(json_get(clocks, "throttled"), &throttled) && throttled;
	m = json_get(p->row, "metrics");
	p->metrics = json_type(m) == JSON_OBJECT ? m : NULL;
	params = json_get(p->row, "params");
	json_u64(json_get(p->row, "elements"), &elements);
	p->x = json_type(json_get(params, "n")) == JSON_NUMBER ? json_number(json_get(params, "n")) : (double)elements;
	if (!(p->x >= 1))
		p->x = NAN; /* nowhere on a log axis: the table still has it */
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

/* The axes of a record record_load or record_take read and checked. */
static int plot_check(struct plot *pl, const char *path, char *err, size_t len)
{
	const struct json *dev = json_get(pl->rec.doc, "device");
	pl->peak_gbps = json_type(dev) == JSON_OBJECT ? number_of(dev, "peak_gbps") : NAN;
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
		read_point(pl, i);
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
	return record_status_words[s];
}

const char *plot_short_name(const char *exercise)
{
	const char *dot = strchr(exercise, '.');
	return dot && dot[1] ? dot + 1 : exercise;
}

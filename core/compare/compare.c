#include "compare/compare.h"

#include "config/options.h"
#include "emit/compared.h"
#include "emit/field.h"
#include "exitcode.h"
#include "escape.h"
#include "records/json.h"
#include "records/record.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Runs per sample: "batch", absent from records made before --batch. */
static double doc_batch(const struct json *doc)
{
	const struct json *k = json_get(doc, "batch");
	return json_type(k) == JSON_NUMBER ? json_number(k) : 1;
}

/* Runs per sample of point p of record r: its row's "batch" (1 where
 * an UNBATCHED exercise ran in a --batch run; record 1.2 on), else its
 * record's. */
static double point_batch(const struct record *r, const struct record_point *p)
{
	const struct json *k = json_get(p->row, "batch");
	return json_type(k) == JSON_NUMBER ? json_number(k) : doc_batch(r->doc);
}

/* One warning line on err.  It quotes the records, which may hold
 * anything, so it is escaped as an error line is. */
__attribute__((format(printf, 2, 3)))
static void compare_warn(FILE *err, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs("gpulab: warning: ", err);
	fput_escaped(err, line);
	fputc('\n', err);
}

void compare_conditions(const struct record *a, const struct record *b, FILE *err)
{
	static const char *const device[] = { "name", "uuid", "max_sm_mhz", "driver", "cuda_driver", "cuda_runtime" };
	const struct json *da = json_get(a->doc, "device"), *db = json_get(b->doc, "device");
	for (size_t i = 0; i < sizeof device / sizeof device[0]; i++) {
		const struct json *x = json_get(da, device[i]), *y = json_get(db, device[i]);
		const char *tx = json_scalar_text(x);
		const char *ty = json_scalar_text(y);
		if (tx && ty && strcmp(tx, ty))
			compare_warn(err, "the records differ in the device's %s: %s and %s", device[i], tx, ty);
	}
	if (json_bool(json_get(a->doc, "cold")) != json_bool(json_get(b->doc, "cold")))
		compare_warn(err, "one record flushed the L2 cache (%s) and the other did not", options_long(OPT_COLD));
}

/* "EX" or "NEW vs BASE": pair pr's exercises, as its row names them. */
static const char *pair_name(const struct record_pair *pr, char *buf, size_t len)
{
	const char *ea = json_string(json_get(pr->base->row, "exercise"));
	const char *eb = json_string(json_get(pr->cand->row, "exercise"));
	if (ea && eb && strcmp(ea, eb))
		snprintf(buf, len, "%s vs %s", eb, ea);
	else
		snprintf(buf, len, "%s", ea ? ea : "?");
	return buf;
}

/* Do pairs i and k compare the same exercises timed the same two ways? */
static int same_batches(const struct record *a, const struct record *b, const struct record_pair *pairs, size_t i,
			size_t k)
{
	char x[512], y[512];
	return point_batch(a, pairs[i].base) == point_batch(a, pairs[k].base)
	       && point_batch(b, pairs[i].cand) == point_batch(b, pairs[k].cand)
	       && !strcmp(pair_name(&pairs[i], x, sizeof x), pair_name(&pairs[k], y, sizeof y));
}

/* Does every pair's base time batches of ba runs and its new side of bb? */
static int all_batched_as(const struct record *a, const struct record *b, const struct record_pair *pairs, size_t n,
			  double ba, double bb)
{
	for (size_t i = 0; i < n; i++)
		if (point_batch(a, pairs[i].base) != ba || point_batch(b, pairs[i].cand) != bb)
			return 0;
	return 1;
}

void compare_batches(const struct record *a, const struct record *b, const struct record_pair *pairs, size_t n,
		     FILE *err)
{
	char name[512];
	double ba = n ? point_batch(a, pairs[0].base) : 1, bb = n ? point_batch(b, pairs[0].cand) : 1;
	if (ba != bb && !a->exercise && all_batched_as(a, b, pairs, n, ba, bb)) {
		compare_warn(err, "the records time batches of %g and %g runs (%s): launch gaps count differently", ba, bb,
			     options_long(OPT_BATCH));
		return;
	}
	for (size_t i = 0; i < n; i++) { /* once for each pair of exercises timed two ways */
		size_t k = 0;
		ba = point_batch(a, pairs[i].base), bb = point_batch(b, pairs[i].cand);
		while (k < i && !same_batches(a, b, pairs, i, k))
			k++;
		if (ba != bb && k == i)
			compare_warn(err, "%s: the base times batches of %g runs and the new %g (%s; an UNBATCHED "
				     "row's is 1): launch gaps count differently", pair_name(&pairs[i], name, sizeof name), ba, bb,
				     options_long(OPT_BATCH));
	}
}

/* A point's "chosen" as "key=value ...", or NULL where its record has
 * none (made before ABI 2.3). */
static const char *point_chosen_text(const struct record_point *p, char *buf, size_t len)
{
	const struct json *c = json_get(p->row, "chosen");
	if (json_type(c) != JSON_OBJECT)
		return NULL;
	buf[0] = 0;
	for (size_t i = 0; i < json_len(c); i++) {
		const struct json *v = json_index(c, i);
		const char *k = json_key(c, i), *text = json_scalar_text(v);
		if (k && text)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s=%s", buf[0] ? " " : "", k, text);
	}
	return buf;
}

/* Points match by what was asked for; where the exercise then chose
 * differently (another GPU, another version of it), the times compare
 * two different kernels, and the reader should know.  Two exercises
 * (--base and --new) have choices of their own, not to be compared. */
static void warn_choices(const struct record_pair *pr, FILE *err)
{
	char a[512], b[512];
	const char *ta = point_chosen_text(pr->base, a, sizeof a), *tb = point_chosen_text(pr->cand, b, sizeof b);
	const char *ea = json_string(json_get(pr->base->row, "exercise"));
	const char *eb = json_string(json_get(pr->cand->row, "exercise"));
	if (ta && tb && ea && eb && !strcmp(ea, eb) && strcmp(ta, tb))
		compare_warn(err, "%s %s: the exercise chose %s in the base record and %s in the new one", eb, pr->base->params,
		     ta[0] ? ta : "nothing", tb[0] ? tb : "nothing");
}

/* A significant change too small to matter is "same": with thousands of
 * samples the U test finds 0.1% shifts that two identical runs a minute
 * apart also show (clocks, DRAM, the L2's state drift); --min-change
 * says how much a user counts, as NVBench's compare does with the noise. */
static void apply_min_change(struct record_pair *pr, double pct)
{
	if ((pr->verdict == STATS_FASTER || pr->verdict == STATS_SLOWER) && fabs(100 * (pr->c.ratio - 1)) < pct)
		pr->verdict = STATS_SAME;
}

/* Slower by more than pct, with confidence? */
static int too_slow(const struct record_pair *pr, double pct)
{
	return pct >= 0 && pr->verdict == STATS_SLOWER && 100 * (pr->c.ratio - 1) > pct;
}

/* Pair pr as compare's writers take it (emit/compared.h). */
static void compared_pair_of(const struct record_pair *pr, struct compared_pair *t)
{
	t->base_ex = json_string(json_get(pr->base->row, "exercise"));
	t->new_ex = json_string(json_get(pr->cand->row, "exercise"));
	t->have = isfinite(pr->c.ratio);
	t->two = strcmp(t->base_ex, t->new_ex) != 0;
	snprintf(t->both, sizeof t->both, t->two ? "%s vs %s" : "%s", t->two ? t->new_ex : t->base_ex, t->base_ex);
	t->params = pr->base->params;
	t->base_ms = pr->c.base.median;
	t->new_ms = pr->c.cand.median;
	t->ratio = pr->c.ratio;
	t->p = pr->c.mw.p;
	t->verdict = record_verdict_word(pr);
}

/* The points of either side left unmatched, base's first, in c (to
 * free): 0, or EXIT_NOMEM. */
static int compared_unmatched_of(const struct record *a, const struct record *b, struct compared *c)
{
	struct compared_unmatched *u = calloc(a->n + b->n ? a->n + b->n : 1, sizeof *u);
	if (!u)
		return EXIT_NOMEM;
	c->unmatched = u;
	c->nunmatched = 0;
	for (int side = 0; side < 2; side++) {
		const struct record *s = side ? b : a;
		for (size_t i = 0; i < s->n; i++)
			if (!s->v[i].matched)
				u[c->nunmatched++] = (struct compared_unmatched){ side ? "new" : "base",
										  json_string(json_get(s->v[i].row, "exercise")),
										  s->v[i].params };
	}
	return 0;
}

static int compare_print(struct record *a, struct record *b, const struct compare_ask *o, FILE *out, FILE *err)
{
	struct record_pair *pairs = calloc(a->n ? a->n : 1, sizeof *pairs);
	if (!pairs)
		return EXIT_NOMEM;
	size_t n = record_pair_up(a, b, pairs);
	struct compared c = { .base_path = a->path, .base_exercise = a->exercise, .new_path = b->path,
			      .new_exercise = b->exercise, .min_change = o->min_change, .fail_above = o->fail_above };
	const struct writer *w = compare_writer(o->format);
	compare_batches(a, b, pairs, n, err);
	writer_begin(w, &c, out);
	for (size_t i = 0; i < n; i++) {
		warn_choices(&pairs[i], err);
		apply_min_change(&pairs[i], o->min_change);
		compared_pair_of(&pairs[i], &c.pair);
		writer_row(w, &c, i, out);
		c.slow += too_slow(&pairs[i], o->fail_above);
	}
	int rc = compared_unmatched_of(a, b, &c);
	if (!rc)
		writer_end(w, &c, out);
	free((void *)c.unmatched);
	free(pairs);
	return rc ? rc : c.slow ? EXIT_SLOWER : 0;
}

int compare_records(const char *base, const char *cand, const struct compare_ask *o, FILE *out, FILE *err, char *errbuf,
		    size_t errlen)
{
	struct record a = { .path = base, .exercise = o->base_exercise }, b = { .path = cand, .exercise = o->new_exercise };
	int rc = record_load(&a, errbuf, errlen);
	if (rc == 0)
		rc = record_load(&b, errbuf, errlen);
	if (rc == 0) {
		if (a.exercise)
			record_key_across(&a, &b);
		compare_conditions(&a, &b, err);
		if ((rc = compare_print(&a, &b, o, out, err)) == EXIT_NOMEM)
			snprintf(errbuf, errlen, "out of memory");
	}
	record_free(&a);
	record_free(&b);
	return rc;
}

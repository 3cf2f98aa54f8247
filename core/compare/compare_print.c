/* What `gpulab compare` prints: a table for people, CSV, JSON and
 * Markdown, each a writer (emit/writer.h) of a struct compare_doc: its
 * title and column names, a row per pair of points, the points of either
 * side left unmatched, and how many were too slow. */
#include "compare/compare_print.h"

#include "emit/field.h"
#include "escape.h"
#include "records/json.h"
#include "run/stats.h"

#include <math.h>
#include <string.h>

/* Pair i's exercises: the base's, the new one's, and as rows name them
 * ("new vs base" where they differ); does it have a ratio? */
struct pair_names {
	const char *base_ex, *new_ex;
	char both[256];
	int two, have;
};

static const struct record_pair *pair_text(const struct compare_doc *c, size_t i, struct pair_names *t)
{
	const struct record_pair *pr = &c->pairs[i];
	t->base_ex = json_string(json_get(pr->base->row, "exercise"));
	t->new_ex = json_string(json_get(pr->cand->row, "exercise"));
	t->have = isfinite(pr->c.ratio);
	t->two = strcmp(t->base_ex, t->new_ex) != 0;
	snprintf(t->both, sizeof t->both, t->two ? "%s vs %s" : "%s", t->two ? t->new_ex : t->base_ex, t->base_ex);
	return pr;
}

/* Each unmatched point of a side: which side ("base", "new"), its
 * exercise and parameters, to fn; first: none said before. */
static void each_unmatched(const struct compare_doc *c, FILE *out,
			   void (*fn)(FILE *out, const char *which, const char *ex, const char *params, int first))
{
	int first = 1;
	for (int side = 0; side < 2; side++) {
		const struct record *s = side ? c->b : c->a;
		for (size_t i = 0; i < s->n; i++) {
			const struct record_point *p = &s->v[i];
			if (p->matched)
				continue;
			fn(out, side ? "new" : "base", json_string(json_get(p->row, "exercise")), p->params, first);
			first = 0;
		}
	}
}

/* --- the table -------------------------------------------------------------------------- */

/* The table's first column: the exercise and its parameters, escaped (a
 * record may hold anything, as error lines do), padded to COMPARE_LABEL;
 * a longer one has its line to itself and the numbers go under it, so
 * that a row fits 100 columns ("too few samples" the longest verdict). */
#define COMPARE_LABEL 48
static void table_label(FILE *out, const char *ex, const char *params)
{
	char e[512], p[1024], label[1600];
	snprintf(label, sizeof label, "%s %s", escape_into(e, sizeof e, ex), escape_into(p, sizeof p, params));
	if (strlen(label) > COMPARE_LABEL)
		fprintf(out, "%s\n%*s", label, COMPARE_LABEL, "");
	else
		fprintf(out, "%-*s", COMPARE_LABEL, label);
}

static void table_head(void *doc, FILE *out)
{
	const struct compare_doc *c = doc;
	const struct record *a = c->a, *b = c->b;
	fprintf(out, "base %s%s%s\nnew  %s%s%s\nmedians of GPU time, Mann-Whitney U test (two-sided, alpha %g)\n",
		a->exercise ? a->exercise : "", a->exercise ? " of " : "", a->path, b->exercise ? b->exercise : "",
		b->exercise ? " of " : "", b->path, STATS_ALPHA);
	if (c->o->min_change > 0)
		fprintf(out, "a change under %g%% counts as the same, however small its p\n", c->o->min_change);
	fprintf(out, "%-*s %8s %8s %8s %7s  %s\n", COMPARE_LABEL, "exercise and params", "base ms", "new ms", "change",
		"p", "verdict");
}

static void table_pair(void *doc, size_t i, FILE *out)
{
	struct pair_names t;
	const struct record_pair *pr = pair_text(doc, i, &t);
	table_label(out, t.both, pr->base->params);
	if (t.have)
		fprintf(out, " %8.4f %8.4f %+7.1f%%", pr->c.base.median, pr->c.cand.median, 100 * (pr->c.ratio - 1));
	else
		fprintf(out, " %8s %8s %8s", "-", "-", "-");
	if (isfinite(pr->c.mw.p))
		fprintf(out, " %7.4f", pr->c.mw.p);
	else
		fprintf(out, " %7s", "-");
	fprintf(out, "  %s\n", record_verdict_word(pr));
}

static void table_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	fputs(first ? "unmatched:\n" : "", out);
	table_label(out, ex, params);
	fprintf(out, "  only in %s\n", which);
}

static void table_unmatched(void *doc, FILE *out)
{
	each_unmatched(doc, out, table_unmatched_one);
}

static void table_slow(void *doc, FILE *out)
{
	const struct compare_doc *c = doc;
	if (c->o->fail_above >= 0)
		fprintf(out, "%d point%s slower by more than %g%% with confidence\n", c->slow, c->slow == 1 ? "" : "s",
			c->o->fail_above);
}

static const struct writer compare_table = {
	.for_people = 1, .streams = 1, .begin = table_head, .row = table_pair, .footer = table_unmatched, .end = table_slow
};

/* --- CSV ---------------------------------------------------------------------------------- */

static void csv_head(void *doc, FILE *out)
{
	(void)doc;
	fputs("exercise,params,base_ms,new_ms,ratio,p,verdict\n", out);
}

static void csv_pair(void *doc, size_t i, FILE *out)
{
	struct pair_names t;
	const struct record_pair *pr = pair_text(doc, i, &t);
	emit_csv(out, t.both);
	fputc(',', out);
	emit_csv(out, pr->base->params);
	if (t.have)
		fprintf(out, ",%.6f,%.6f,%.6f,", pr->c.base.median, pr->c.cand.median, pr->c.ratio);
	else
		fputs(",,,,", out);
	if (isfinite(pr->c.mw.p))
		fprintf(out, "%.6g", pr->c.mw.p);
	fputc(',', out);
	emit_csv(out, record_verdict_word(pr));
	fputc('\n', out);
}

static void csv_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	(void)first;
	emit_csv(out, ex);
	fputc(',', out);
	emit_csv(out, params);
	fprintf(out, ",,,,,\"only in %s\"\n", which);
}

static void csv_unmatched(void *doc, FILE *out)
{
	each_unmatched(doc, out, csv_unmatched_one);
}

static const struct writer compare_csv = {
	.streams = 1, .begin = csv_head, .row = csv_pair, .footer = csv_unmatched
};

/* --- JSON --------------------------------------------------------------------------------- */

static void json_head(void *doc, FILE *out)
{
	const struct compare_doc *c = doc;
	fputs("{\n  \"base\": ", out);
	emit_json(out, c->a->path);
	fputs(", \"new\": ", out);
	emit_json(out, c->b->path);
	fprintf(out, ", \"test\": \"Mann-Whitney U, two-sided\", \"alpha\": %g, \"min_change_pct\": %g,\n  \"points\": [\n",
		STATS_ALPHA, c->o->min_change);
}

static void json_pair(void *doc, size_t i, FILE *out)
{
	struct pair_names t;
	const struct record_pair *pr = pair_text(doc, i, &t);
	fputs(i == 0 ? "    {\"exercise\": " : ",\n    {\"exercise\": ", out);
	emit_json(out, t.base_ex);
	if (t.two) {
		fputs(", \"new_exercise\": ", out);
		emit_json(out, t.new_ex);
	}
	fputs(", \"params\": ", out);
	emit_json(out, pr->base->params);
	emit_json_number(out, "base_ms", t.have, pr->c.base.median);
	emit_json_number(out, "new_ms", t.have, pr->c.cand.median);
	emit_json_number(out, "ratio", t.have, pr->c.ratio);
	emit_json_number(out, "p", isfinite(pr->c.mw.p), pr->c.mw.p);
	fputs(", \"verdict\": ", out);
	emit_json(out, record_verdict_word(pr));
	fputc('}', out);
}

static void json_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	fputs(first ? "    {\"in\": " : ",\n    {\"in\": ", out);
	emit_json(out, which);
	fputs(", \"exercise\": ", out);
	emit_json(out, ex);
	fputs(", \"params\": ", out);
	emit_json(out, params);
	fputc('}', out);
}

static void json_unmatched(void *doc, FILE *out)
{
	fputs("\n  ],\n  \"unmatched\": [\n", out);
	each_unmatched(doc, out, json_unmatched_one);
}

static void json_slow(void *doc, FILE *out)
{
	fprintf(out, "\n  ],\n  \"slower_than_allowed\": %d\n}\n", ((const struct compare_doc *)doc)->slow);
}

static const struct writer compare_json = {
	.begin = json_head, .row = json_pair, .footer = json_unmatched, .end = json_slow
};

/* --- Markdown ----------------------------------------------------------------------------- */

static void md_head(void *doc, FILE *out)
{
	static const char *const names[] = { "exercise", "params", "base ms:", "new ms:", "change:", "p:", "verdict" };
	(void)doc;
	md_header(out, names, sizeof names / sizeof names[0]);
}

static void md_pair(void *doc, size_t i, FILE *out)
{
	struct pair_names t;
	const struct record_pair *pr = pair_text(doc, i, &t);
	fputs("| ", out);
	md_cell(out, t.both);
	fputs(" | ", out);
	md_cell(out, pr->base->params);
	if (t.have)
		fprintf(out, " | %.4f | %.4f | %+.1f%%", pr->c.base.median, pr->c.cand.median, 100 * (pr->c.ratio - 1));
	else
		fputs(" | - | - | -", out);
	if (isfinite(pr->c.mw.p))
		fprintf(out, " | %.4f", pr->c.mw.p);
	else
		fputs(" | -", out);
	fprintf(out, " | %s |\n", record_verdict_word(pr));
}

static void md_unmatched_one(FILE *out, const char *which, const char *ex, const char *params, int first)
{
	fputs(first ? "\nunmatched:\n\n- " : "- ", out);
	md_cell(out, ex);
	fputc(' ', out);
	md_cell(out, params);
	fprintf(out, ": only in %s\n", which);
}

static void md_unmatched(void *doc, FILE *out)
{
	each_unmatched(doc, out, md_unmatched_one);
}

static const struct writer compare_markdown = {
	.streams = 1, .begin = md_head, .row = md_pair, .footer = md_unmatched
};

const struct writer *compare_writer(enum format f)
{
	static const struct writer *const by_format[FORMATS] = {
		[FORMAT_TABLE] = &compare_table, [FORMAT_CSV] = &compare_csv, [FORMAT_JSON] = &compare_json,
		[FORMAT_MD] = &compare_markdown,
	};
	return by_format[f];
}

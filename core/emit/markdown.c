/* The run's report in Markdown: a pipe table with the compact table's
 * columns, every row whole (no sweep headers: a pasted table is read
 * alone), then the failures' messages as a list. */
#include "emit/markdown.h"

#include "emit/compared.h"
#include "emit/field.h"
#include "emit/list_doc.h"
#include "emit/row.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static void md_begin(void *doc, FILE *out)
{
	static const char *const names[] = { "exercise", "type", "n:", "median ms:", "+-%:", "GB/s:", "%peak:",
					     "speedup:", "of ref:", "status" };
	(void)doc;
	md_header(out, names, sizeof names / sizeof names[0]);
}

/* A number's cell, or "-" */
static void md_number(FILE *out, int show, const char *fmt, double v)
{
	fputs(" | ", out);
	if (show)
		fprintf(out, fmt, v);
	else
		fputc('-', out);
}

static void md_row(void *doc, size_t i, FILE *out)
{
	const struct report *r = doc;
	const struct job *j = &r->jobs[i];
	char label[800];
	double speedup, share;
	int m = measured(j), planned = j->res.outcome != OUTCOME_SKIPPED;
	if (j->kept || j->res.outcome == OUTCOME_NOT_RUN)
		return; /* as the table: a resumed record's rows are that record's */
	compare(r, j, &speedup, &share);
	fputs("| ", out);
	md_cell(out, row_label(j, label, sizeof label));
	fputs(" | ", out);
	md_cell(out, planned ? generic_text(j, GEN_TYPE) : "-");
	md_number(out, planned, "%.0f", (double)j->ctx.elements);
	md_number(out, m, "%.4f", j->res.gpu_med);
	md_number(out, has_interval(j), "%.2f", interval_pct(j));
	md_number(out, m, "%.1f", j->res.gbps);
	md_number(out, m && r->dev && r->dev->peak_gbps > 0, "%.1f", peak_pct(r, j));
	md_number(out, speedup > 0, "%.2fx", speedup);
	md_number(out, share > 0, "%.0f%%", 100 * share);
	fprintf(out, " | %s%s%s%s%s |\n", status_word(j), throttled(j) ? " THROTTLED" : "", noisy(j) ? " NOISY" : "",
		unheld(j) ? " UNHELD" : "", unbatched(j) ? " UNBATCHED" : "");
}

/* What went wrong, once per exercise and message. */
static void md_messages(void *doc, FILE *out)
{
	const struct report *r = doc;
	char name[256];
	int first = 1;
	for (size_t i = 0; i < r->njobs; i++) {
		const struct job *j = &r->jobs[i];
		if (j->kept || j->res.outcome == OUTCOME_OK || !j->res.message[0] || same_message_before(r, i))
			continue;
		fprintf(out, "%s- %s: %s: ", first ? "\n" : "", job_name(j, name, sizeof name), status_word(j));
		md_cell(out, j->res.message);
		fputc('\n', out);
		first = 0;
	}
}

const struct writer report_markdown = { .streams = 1, .begin = md_begin, .row = md_row, .footer = md_messages };

/* --- `gpulab list` in Markdown ----------------------------------------------------------- */

/* Markdown: a row per exercise, its keys' defaults in one cell. */
static void list_md_head(void *doc, FILE *out)
{
	static const char *const names[] = { "exercise", "types", "n:", "block:", "summary", "params" };
	(void)doc;
	md_header(out, names, sizeof names / sizeof names[0]);
}

static void list_md_plugin(void *doc, size_t i, FILE *out)
{
	const struct list_doc *l = doc;
	const struct plugin *p = &l->r->v[i];
	for (size_t k = 0; p->desc && k < p->desc->n_exercises; k++) {
		const struct gpulab_exercise *e = &p->desc->exercises[k];
		char params[4096] = "", full[256];
		if (!picked(l->only, e))
			continue;
		each_param(e, list_default_param, params);
		snprintf(full, sizeof full, "%s.%s", p->name, e->name);
		fputs("| ", out);
		md_cell(out, full);
		fputs(" | ", out);
		md_cell(out, dtypes_text(e->dtypes, "int|float"));
		fprintf(out, " | %" PRIu64 " | %u | ", e->n, e->block);
		md_cell(out, e->summary);
		fputs(" | ", out);
		md_cell(out, params);
		fputs(" |\n", out);
	}
}

const struct writer list_markdown = { .streams = 1, .begin = list_md_head, .row = list_md_plugin };

/* --- `gpulab compare` in Markdown ---------------------------------------------------------- */

static void md_head(void *doc, FILE *out)
{
	static const char *const names[] = { "exercise", "params", "base ms:", "new ms:", "change:", "p:", "verdict" };
	(void)doc;
	md_header(out, names, sizeof names / sizeof names[0]);
}

static void md_pair(void *doc, size_t i, FILE *out)
{
	const struct compared_pair *pr = &((const struct compared *)doc)->pair;
	(void)i; /* the row is the document's pair */
	fputs("| ", out);
	md_cell(out, pr->both);
	fputs(" | ", out);
	md_cell(out, pr->params);
	if (pr->have)
		fprintf(out, " | %.4f | %.4f | %+.1f%%", pr->base_ms, pr->new_ms, 100 * (pr->ratio - 1));
	else
		fputs(" | - | - | -", out);
	if (isfinite(pr->p))
		fprintf(out, " | %.4f", pr->p);
	else
		fputs(" | -", out);
	fprintf(out, " | %s |\n", pr->verdict);
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
	compared_each_unmatched(doc, out, md_unmatched_one);
}

const struct writer compare_markdown = {
	.streams = 1, .begin = md_head, .row = md_pair, .footer = md_unmatched
};

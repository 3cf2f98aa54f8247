#include "command_names.h"
#include "emit/ranking.h"

#include "config/options.h"

#include "emit/field.h"
#include "escape.h"
#include "wrap.h"

#include <math.h>
#include <string.h>

static const char *ranked_base(const struct rank_row *v)
{
	return strrchr(v->path, '/') ? strrchr(v->path, '/') + 1 : v->path;
}

/* v by fmt, or "-" where there is none */
static const char *ranked_number(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* --- for people ------------------------------------------------------------------------ */

static void ranking_text_end(void *doc, FILE *out)
{
	const struct rank_doc *r = doc;
	char name[40], ms[16], ci[16], gbps[16], ref[16];
	size_t ok = 0;
	for (size_t k = 0; k < r->n; k++)
		ok += r->v[k].measured || r->v[k].passed;
	if (r->mode && !strcmp(r->mode, "test"))
		fprintf(out, "gpulab " CMD_GRADE " %s %s: %zu kernels, %zu passed the gate, %zu failed\n\n", options_long(OPT_TEST),
			r->challenge, r->n, ok, r->n - ok);
	else
		fprintf(out, "gpulab " CMD_GRADE " %s: %zu kernels, %zu measured, %zu failed\n\n", r->challenge, r->n, ok, r->n - ok);
	fprintf(out, "%4s  %-36s %11s %7s %10s %7s\n", "rank", "kernel", "median ms", "+-%", "GB/s", "of ref");
	for (size_t k = 0; k < r->n; k++) {
		const struct rank_row *v = &r->v[k];
		escape_into(name, sizeof name, ranked_base(v));
		if (v->passed)
			fprintf(out, "%4s  %-36s %s\n", "ok", name, "passed the gate (nothing timed)");
		else if (!v->measured)
			fprintf(out, "%4s  %-36s %s\n", "-", name, v->failure);
		else
			fprintf(out, "%4zu  %-36s %11s %7s %10s %7s\n", k + 1, name,
				ranked_number(ms, sizeof ms, "%.4f", v->median_ms), ranked_number(ci, sizeof ci, "%.2f", v->ci_pct),
				ranked_number(gbps, sizeof gbps, "%.1f", v->gbps),
				ranked_number(ref, sizeof ref, "%.0f%%", v->ref_share * 100));
	}
	if (ok < r->n)
		fprintf(out, "\nfailures, in full:\n");
	for (size_t k = 0; k < r->n; k++)
		if (!r->v[k].measured && !r->v[k].passed) {
			char label[300];
			int col = snprintf(label, sizeof label, "  %s (exit %d): ", escape_into(name, sizeof name, ranked_base(&r->v[k])),
					   r->v[k].status);
			fputs(label, out);
			wrap_words(out, r->v[k].shown, &col,
				   &(struct wrap){ .width = WRAP_WIDTH, .indent = col });
			fputc('\n', out);
		}
}

const struct writer ranking_table = { .for_people = 1, .end = ranking_text_end };

/* --- CSV and Markdown: a row a kernel ------------------------------------------------------ */

static void ranking_cells(const struct rank_doc *r, FILE *out, const struct cell_style *style)
{
	char rank[24], ms[32], ci[32], gbps[32], ref[32], status[16];
	for (size_t k = 0; k < r->n; k++) {
		const struct rank_row *v = &r->v[k];
		snprintf(rank, sizeof rank, v->measured ? "%zu" : "", k + 1);
		snprintf(status, sizeof status, v->measured ? "" : "%d", v->status);
		const char *cells[] = { rank, v->path, v->measured ? ranked_number(ms, sizeof ms, "%.6g", v->median_ms) : "",
					v->measured ? ranked_number(ci, sizeof ci, "%.4g", v->ci_pct) : "",
					v->measured ? ranked_number(gbps, sizeof gbps, "%.6g", v->gbps) : "",
					v->measured ? ranked_number(ref, sizeof ref, "%.6g", v->ref_share) : "", status,
					v->measured ? "" : v->failure, v->measured ? "" : v->reason };
		cells_row(out, style, cells, sizeof cells / sizeof cells[0]);
	}
}

static void ranking_csv_end(void *doc, FILE *out)
{
	fputs("rank,kernel,median_ms,ci_pct,gbps,ref_share,exit,failure,reason\n", out);
	ranking_cells(doc, out, &csv_cells);
}

const struct writer ranking_csv = { .end = ranking_csv_end };

static void ranking_md_end(void *doc, FILE *out)
{
	static const char *const names[] = { "rank:", "kernel", "median ms:", "+-%:", "GB/s:", "of ref:", "exit:",
					     "failure", "reason" };
	md_header(out, names, sizeof names / sizeof names[0]);
	ranking_cells(doc, out, &md_cells);
}

const struct writer ranking_markdown = { .end = ranking_md_end };

/* --- JSON ------------------------------------------------------------------------------------ */

/* The member's fields: "challenge": ..., "kernels": [...] */
static void ranking_fields(const struct rank_doc *r, FILE *out)
{
	fputs("\"challenge\": ", out);
	emit_json(out, r->challenge);
	fputs(", \"kernels\": [", out);
	for (size_t k = 0; k < r->n; k++) {
		const struct rank_row *v = &r->v[k];
		fprintf(out, "%s{\"kernel\": ", k ? ", " : "");
		emit_json(out, v->path);
		emit_json_number(out, "rank", v->measured, (double)(k + 1));
		/* its share of the reference at its n and type, as the table says it */
		emit_json_number(out, "ref_share", v->measured && v->ref_share > 0, v->ref_share);
		emit_json_number(out, "exit", !v->measured, (double)v->status);
		emit_json_string(out, "failure", v->measured ? NULL : v->failure);
		emit_json_string(out, "reason", v->measured ? NULL : v->reason);
		if (v->passed)
			fputs(", \"passed\": true", out);
		fputc('}', out);
	}
	fputc(']', out);
	if (r->mode) /* after the kernels: a reader of 2.1's members finds them where they were */
		emit_json_string(out, "mode", r->mode);
}

void ranking_member(const struct rank_doc *r, FILE *out)
{
	fputc('{', out);
	ranking_fields(r, out);
	fputc('}', out);
}

/* one document: the member's fields, schema first */
static void ranking_json_end(void *doc, FILE *out)
{
	fputs("{\"schema\": \"gpulab-grade/1\", ", out);
	ranking_fields(doc, out);
	fputs("}\n", out);
}

const struct writer ranking_json = { .end = ranking_json_end };

#include "command_names.h"
#include "emit/standings.h"

#include "emit/field.h"
#include "escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A share for people: "73%", or "-". */
static const char *standing_pct(char *buf, size_t len, double share)
{
	if (isfinite(share))
		snprintf(buf, len, "%.0f%%", 100 * share);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* A share for programs: its digits as grade's CSV has them, or "". */
static const char *standing_digits(char *buf, size_t len, double share)
{
	if (isfinite(share))
		snprintf(buf, len, "%.6g", share);
	else
		buf[0] = 0;
	return buf;
}

/* A try in a word or a share: the share (pct: for people), "fail",
 * "pass" (grade --test's), or "-" where not graded in that record. */
static const char *standing_try_text(char *buf, size_t len, const struct board_try *t, int pct)
{
	if (!t->present)
		return snprintf(buf, len, "-"), buf;
	if (t->measured)
		return pct ? standing_pct(buf, len, t->share) : standing_digits(buf, len, t->share);
	return snprintf(buf, len, "%s", t->passed ? "pass" : "fail"), buf;
}

/* The student's history, a try a record, into buf, space-separated. */
static const char *standing_history(char *buf, size_t len, const struct board_gpu *g, const struct board_student *s,
				    int pct)
{
	char one[32];
	size_t used = 0;
	buf[0] = 0;
	for (size_t r = 0; r < g->nrecords && used < len; r++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", r ? " " : "",
					 standing_try_text(one, sizeof one, &s->tries[r], pct));
	return buf;
}

static const char *standing_date(const struct board_doc *b, const struct board_gpu *g, size_t at)
{
	return b->records[g->records[at]].date;
}

/* The day of date, escaped for a terminal, into buf (at least 44 bytes:
 * ten bytes each escaped as \\xNN at the most). */
static const char *standing_day(char *buf, size_t len, const char *date)
{
	char day[11];
	return escape_into(buf, len, board_day(day, date));
}

/* --- for people --------------------------------------------------------------------------- */

static void standing_people_row(FILE *out, const struct board_doc *b, const struct board_gpu *g,
				const struct board_student *s)
{
	char name[26], best[16], first[16], latest[16], change[24] = "-", rank[16] = "-", history[1024], on[48] = "-";
	double by;
	if (s->rank) {
		snprintf(rank, sizeof rank, "%zu", s->rank);
		standing_day(on, sizeof on, standing_date(b, g, s->best_at));
	}
	if (board_changed(s, &by))
		snprintf(change, sizeof change, "%+.0f pt", 100 * by);
	fprintf(out, "%4s  %-24s %6s  %-10s %6s %7s %8s  %s\n", rank, escape_into(name, sizeof name, s->name),
		standing_pct(best, sizeof best, s->best), on, standing_pct(first, sizeof first, s->first),
		standing_pct(latest, sizeof latest, s->latest), change, standing_history(history, sizeof history, g, s, 1));
}

/* Who improved from their first share to their latest, by how much. */
static void standing_improved(FILE *out, const struct board_gpu *g)
{
	char name[64];
	double by;
	int said = 0;
	fputs("improved, first to latest:", out);
	for (size_t i = 0; i < g->nstudents; i++)
		if (board_changed(&g->students[i], &by) && by > 0)
			fprintf(out, "%s %s (%+.0f pt)", said++ ? "," : "", escape_into(name, sizeof name, g->students[i].name),
				100 * by);
	fputs(said ? "\n" : " none\n", out);
}

static void standing_text_end(void *doc, FILE *out)
{
	const struct board_doc *b = doc;
	char challenge[64];
	fprintf(out, "gpulab " CMD_BOARD " %s: %zu record%s, %zu GPU model%s; a share is of the reference, a change in points "
		"of it\n", escape_into(challenge, sizeof challenge, b->challenge), b->nrecords, b->nrecords == 1 ? "" : "s", b->ngpus, b->ngpus == 1 ? "" : "s");
	for (size_t d = 0; d < b->ngpus; d++) {
		const struct board_gpu *g = &b->gpus[d];
		char dev[64], day[48];
		fprintf(out, "\n%s: %zu record%s, %s", escape_into(dev, sizeof dev, g->device), g->nrecords,
			g->nrecords == 1 ? "" : "s", standing_day(day, sizeof day, standing_date(b, g, 0)));
		if (g->nrecords > 1)
			fprintf(out, " to %s", standing_day(day, sizeof day, standing_date(b, g, g->nrecords - 1)));
		fputc('\n', out);
		fprintf(out, "%4s  %-24s %6s  %-10s %6s %7s %8s  %s\n", "rank", "student", "best", "on", "first", "latest",
			"change", "history");
		for (size_t i = 0; i < g->nstudents; i++)
			standing_people_row(out, b, g, &g->students[i]);
		standing_improved(out, g);
	}
}

const struct writer standings_table = { .for_people = 1, .end = standing_text_end };

/* --- CSV and Markdown: a row a student and GPU ---------------------------------------------- */

static void standing_cells(const struct board_doc *b, FILE *out, const struct cell_style *style, int pct)
{
	char rank[24], best[32], first[32], latest[32], change[32], history[1024];
	double by;
	for (size_t d = 0; d < b->ngpus; d++)
		for (size_t i = 0; i < b->gpus[d].nstudents; i++) {
			const struct board_gpu *g = &b->gpus[d];
			const struct board_student *s = &g->students[i];
			int changed = board_changed(s, &by);
			rank[0] = 0;
			if (s->rank)
				snprintf(rank, sizeof rank, "%zu", s->rank);
			change[0] = 0;
			if (changed && pct)
				snprintf(change, sizeof change, "%+.0f pt", 100 * by);
			else if (changed)
				snprintf(change, sizeof change, "%.6g", by);
			const char *cells[] = { g->device, rank, s->name,
						pct ? standing_pct(best, sizeof best, s->best) : standing_digits(best, sizeof best, s->best),
						s->rank ? standing_date(b, g, s->best_at) : "",
						pct ? standing_pct(first, sizeof first, s->first) : standing_digits(first, sizeof first, s->first),
						pct ? standing_pct(latest, sizeof latest, s->latest)
						    : standing_digits(latest, sizeof latest, s->latest),
						change, standing_history(history, sizeof history, g, s, pct) };
			cells_row(out, style, cells, sizeof cells / sizeof cells[0]);
		}
}

static void standing_csv_end(void *doc, FILE *out)
{
	fputs("device,rank,student,best,best_date,first,latest,change,history\n", out);
	standing_cells(doc, out, &csv_cells, 0);
}

const struct writer standings_csv = { .end = standing_csv_end };

static void standing_md_end(void *doc, FILE *out)
{
	static const char *const names[] = { "GPU", "rank:", "student", "best:", "on", "first:", "latest:", "change:",
					     "history" };
	const struct board_doc *b = doc;
	fputs("gpulab " CMD_BOARD " ", out);
	md_cell(out, b->challenge);
	fputs(": a share is of the reference, a change in points of it\n\n", out);
	md_header(out, names, sizeof names / sizeof names[0]);
	standing_cells(doc, out, &md_cells, 1);
}

const struct writer standings_markdown = { .end = standing_md_end };

/* --- JSON ------------------------------------------------------------------------------------ */

static void standing_json_try(FILE *out, const struct board_doc *b, const struct board_gpu *g, size_t r,
			      const struct board_try *t)
{
	if (!t->present) {
		fputs("null", out);
		return;
	}
	fputs("{\"record\": ", out);
	emit_json(out, b->records[g->records[r]].path);
	emit_json_number(out, "rank", t->grade_rank > 0, (double)t->grade_rank);
	emit_json_number(out, "ref_share", t->measured, t->share);
	fprintf(out, ", \"passed\": %s", t->measured || t->passed ? "true" : "false");
	emit_json_string(out, "failure", t->measured || t->passed ? NULL : t->failure);
	fputc('}', out);
}

static void standing_json_student(FILE *out, const struct board_doc *b, const struct board_gpu *g,
				  const struct board_student *s)
{
	double by = NAN;
	int changed = board_changed(s, &by);
	fputs("{\"student\": ", out);
	emit_json(out, s->name);
	emit_json_number(out, "rank", s->rank > 0, (double)s->rank);
	emit_json_number(out, "best", s->rank > 0, s->best);
	emit_json_string(out, "best_date", s->rank ? standing_date(b, g, s->best_at) : NULL);
	emit_json_number(out, "first", s->rank > 0, s->first);
	emit_json_string(out, "first_date", s->rank ? standing_date(b, g, s->first_at) : NULL);
	emit_json_number(out, "latest", isfinite(s->latest), s->latest);
	emit_json_string(out, "latest_date", s->latest_at != BOARD_NONE ? standing_date(b, g, s->latest_at) : NULL);
	emit_json_number(out, "change", changed, by);
	fputs(", \"history\": [", out);
	for (size_t r = 0; r < g->nrecords; r++) {
		fputs(r ? ", " : "", out);
		standing_json_try(out, b, g, r, &s->tries[r]);
	}
	fputs("]}", out);
}

static void standing_json_board(FILE *out, const struct board_doc *b, const struct board_gpu *g)
{
	fputs("{\"device\": ", out);
	emit_json(out, g->device);
	fputs(", \"records\": [", out);
	for (size_t r = 0; r < g->nrecords; r++) {
		fputs(r ? ", " : "", out);
		emit_json(out, b->records[g->records[r]].path);
	}
	fputs("], \"students\": [\n", out);
	for (size_t i = 0; i < g->nstudents; i++) {
		fputs("      ", out);
		standing_json_student(out, b, g, &g->students[i]);
		fputs(i + 1 < g->nstudents ? ",\n" : "\n", out);
	}
	fputs("    ]}", out);
}

static void standing_json_end(void *doc, FILE *out)
{
	const struct board_doc *b = doc;
	fputs("{\"schema\": \"" BOARD_SCHEMA "\", \"challenge\": ", out);
	emit_json(out, b->challenge);
	fputs(",\n  \"records\": [\n", out);
	for (size_t r = 0; r < b->nrecords; r++) {
		fputs("    {\"path\": ", out);
		emit_json(out, b->records[r].path);
		emit_json_string(out, "date", b->records[r].date);
		emit_json_string(out, "device", b->records[r].device);
		emit_json_string(out, "mode", b->records[r].test ? "test" : "ranked");
		fputs(r + 1 < b->nrecords ? "},\n" : "}\n", out);
	}
	fputs("  ],\n  \"boards\": [\n", out);
	for (size_t d = 0; d < b->ngpus; d++) {
		fputs("    ", out);
		standing_json_board(out, b, &b->gpus[d]);
		fputs(d + 1 < b->ngpus ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

const struct writer standings_json = { .end = standing_json_end };

#include "draw/boards.h"

#include "escape.h"
#include "exitcode.h"
#include "records/board_read.h"

#include <math.h>
#include <string.h>

/* A history's picture: SPARK_W by SPARK_H px, its records spread evenly
 * across it, so that the table fits 1280 px with its other columns. */
#define SPARK_W 160.0
#define SPARK_H 40.0
#define SPARK_PAD 6.0
#define SPARK_BLUE "#0072B2"
#define SPARK_RED "#a33b00"

/* The day of date (board_day), as HTML text: a record's date is its
 * writer's word, so it is escaped like any other. */
void day_html(FILE *out, const char *date)
{
	char day[11];
	fput_html(out, board_day(day, date));
}

/* The top of the board's pictures: its best share, and at least the
 * reference (1), so that every student's is drawn to one scale. */
static double spark_top(const struct board_gpu *g)
{
	double top = 1;
	for (size_t i = 0; i < g->nstudents; i++)
		if (g->students[i].best > top)
			top = g->students[i].best;
	return top;
}

static double spark_x(const struct board_gpu *g, size_t r)
{
	if (g->nrecords < 2)
		return SPARK_W / 2;
	return SPARK_PAD + (SPARK_W - 2 * SPARK_PAD) * (double)r / (double)(g->nrecords - 1);
}

static double spark_y(double share, double top)
{
	return SPARK_H - SPARK_PAD - (SPARK_H - 2 * SPARK_PAD) * share / top;
}

/* The picture's words, for a screen reader: each record's share or
 * failure, oldest first. */
static void spark_words(FILE *out, const struct board_doc *b, const struct board_gpu *g, const struct board_student *s)
{
	int said = 0;
	for (size_t r = 0; r < g->nrecords; r++) {
		const struct board_try *t = &s->tries[r];
		if (!t->present)
			continue;
		fputs(said++ ? "; " : "", out);
		day_html(out, b->records[g->records[r]].date);
		fputs(": ", out);
		if (t->measured)
			fprintf(out, "%.0f%%", 100 * t->share);
		else
			fput_html(out, t->passed ? "passed the gate" : t->failure ? t->failure : "failed");
	}
}

/* The marks: a dot for each share (joined by a line), a cross for a
 * failure at the foot, a ring for a gate passed (grade --test). */
static void spark_marks(FILE *out, const struct board_gpu *g, const struct board_student *s, double top)
{
	int any = 0;
	fputs("<polyline fill=\"none\" stroke=\"" SPARK_BLUE "\" stroke-width=\"2\" points=\"", out);
	for (size_t r = 0; r < g->nrecords; r++)
		if (s->tries[r].measured)
			fprintf(out, "%s%.1f,%.1f", any++ ? " " : "", spark_x(g, r), spark_y(s->tries[r].share, top));
	fputs("\"/>\n", out);
	for (size_t r = 0; r < g->nrecords; r++) {
		const struct board_try *t = &s->tries[r];
		double x = spark_x(g, r), y = SPARK_H - SPARK_PAD;
		if (t->measured)
			fprintf(out, "<circle class=\"try\" data-share=\"%.17g\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"" SPARK_BLUE
				"\"/>\n", t->share, x, spark_y(t->share, top));
		else if (t->present && t->passed)
			fprintf(out, "<circle class=\"pass\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"" SPARK_BLUE
				"\"/>\n", x, y);
		else if (t->present)
			fprintf(out, "<path class=\"fail\" d=\"M%.1f,%.1fl6,6m0,-6l-6,6\" stroke=\"" SPARK_RED
				"\" stroke-width=\"2\"/>\n", x - 3, y - 3);
	}
}

/* Student s's history as a small chart, in a cell. */
static void spark(FILE *out, const struct board_doc *b, const struct board_gpu *g, size_t gi, size_t si)
{
	const struct board_student *s = &g->students[si];
	double top = spark_top(g), w = SPARK_W, ref = spark_y(1, top);
	char id[48];
	snprintf(id, sizeof id, "b%zu-s%zu", gi + 1, si + 1);
	fprintf(out, "<td class=\"text spark\"><svg id=\"%s\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\" aria-labelledby=\"%s-title %s-desc\">\n<title id=\"%s-title\">", id, w, SPARK_H, w, SPARK_H, id,
		id, id);
	fput_html(out, s->name);
	fprintf(out, "'s history</title>\n<desc id=\"%s-desc\">", id);
	spark_words(out, b, g, s);
	fprintf(out, "</desc>\n<line class=\"reference\" x1=\"0\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
		"stroke-dasharray=\"3 3\"/>\n", w, ref, ref);
	spark_marks(out, g, s, top);
	fputs("</svg></td>", out);
}

/* A share's cell: a whole percent, the record's digits in its title. */
static void share_cell(FILE *out, int have, double share)
{
	if (have)
		fprintf(out, "<td title=\"%.17g\">%.0f%%</td>", share, 100 * share);
	else
		fputs("<td>\u2013</td>", out);
}

static void student_row(FILE *out, const struct board_doc *b, const struct board_gpu *g, size_t gi, size_t si)
{
	const struct board_student *s = &g->students[si];
	double by;
	fputs("<tr data-student=\"", out);
	fput_html(out, s->name);
	if (s->rank)
		fprintf(out, "\" data-rank=\"%zu\" data-best=\"%.17g\"><td>%zu</td>", s->rank, s->best, s->rank);
	else
		fputs("\"><td>\u2013</td>", out);
	fputs("<td class=\"text\">", out);
	fput_html(out, s->name);
	fputs("</td>", out);
	share_cell(out, s->rank > 0, s->best);
	fputs("<td class=\"text\">", out);
	day_html(out, s->rank ? b->records[g->records[s->best_at]].date : "\u2013");
	fputs("</td>", out);
	share_cell(out, s->rank > 0, s->first);
	share_cell(out, isfinite(s->latest), s->latest);
	if (board_changed(s, &by))
		fprintf(out, "<td title=\"%.17g\">%+.0f pt</td>", 100 * by, 100 * by);
	else
		fputs("<td>\u2013</td>", out);
	spark(out, b, g, gi, si);
	fputs("</tr>\n", out);
}

static void improved_line(FILE *out, const struct board_gpu *g)
{
	double by;
	int said = 0;
	fputs("<p class=\"improved\">Improved from their first share to their latest: ", out);
	for (size_t i = 0; i < g->nstudents; i++)
		if (board_changed(&g->students[i], &by) && by > 0) {
			fputs(said++ ? ", " : "", out);
			fput_html(out, g->students[i].name);
			fprintf(out, " (%+.0f pt)", 100 * by);
		}
	fputs(said ? ".</p>\n" : "none.</p>\n", out);
}

static void gpu_section(FILE *out, const struct board_doc *b, size_t gi)
{
	const struct board_gpu *g = &b->gpus[gi];
	fprintf(out, "<section class=\"gpu-board\" id=\"board%zu\" data-device=\"", gi + 1);
	fput_html(out, g->device);
	fputs("\">\n<h2>", out);
	fput_html(out, g->device);
	fprintf(out, "</h2>\n<p>%zu record%s of ", g->nrecords, g->nrecords == 1 ? "" : "s");
	fput_html(out, b->challenge);
	fputs(", oldest first:", out);
	for (size_t r = 0; r < g->nrecords; r++) {
		const struct board_record *rec = &b->records[g->records[r]];
		fputs(r ? ", <span title=\"" : " <span title=\"", out);
		fput_html(out, rec->path);
		fputs("\">", out);
		day_html(out, rec->date);
		fprintf(out, "%s</span>", rec->test ? " (test: the gate alone)" : "");
	}
	fputs(".</p>\n<table class=\"standings\"><caption>Each student's share of the reference: the best, the first, "
	      "the latest, and every record's (the dashed line: as fast as the reference)</caption>\n<tr><th>rank</th>"
	      "<th class=\"text\">student</th><th>best</th><th class=\"text\">on</th><th>first</th><th>latest</th>"
	      "<th title=\"the latest share against the first, in points\">change</th><th class=\"text\">history</th></tr>\n",
	      out);
	for (size_t si = 0; si < g->nstudents; si++)
		student_row(out, b, g, gi, si);
	fputs("</table>\n", out);
	improved_line(out, g);
	fputs("</section>\n", out);
}

void boards_draw(FILE *out, const struct board_doc *b)
{
	fputs("<p>A student is a kernel file's name without its directory and .cu; a share is of the challenge's "
	      "reference (100%: as fast). Records of different GPU models are never ranked together: one board each.</p>\n",
	      out);
	for (size_t gi = 0; gi < b->ngpus; gi++)
		gpu_section(out, b, gi);
}

int boards_of_records(FILE *out, char *const *paths, size_t n)
{
	struct board_doc b;
	char err[4096];
	int rc = board_read(&b, paths, n, err, sizeof err);
	fputs("<section class=\"history\" id=\"history\">\n<h2>The class over time, a board per GPU model</h2>\n", out);
	if (!rc) {
		boards_draw(out, &b);
	} else if (rc != EXIT_NOMEM) {
		fputs("<p>No board: ", out);
		fput_html(out, err);
		fputs(".</p>\n", out);
	}
	fputs("</section>\n", out);
	board_free(&b);
	return rc == EXIT_NOMEM ? rc : 0;
}

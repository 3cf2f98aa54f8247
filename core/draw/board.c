#include "command_names.h"
#include "draw/board.h"
#include "draw/boards.h"

#include "draw/choose.h"
#include "draw/chart.h"
#include "draw/numbers.h"
#include "plugins/challenge_dirs.h"
#include "escape.h"
#include "exitcode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most records whose days the history shows as columns; the best
 * and the change count every record. */
#define HISTORY_DAYS 6

static const struct json *grade_of(const struct plot *pl)
{
	return json_get(pl->rec.doc, "grade");
}

int board_is_grade(const struct plot *pl)
{
	return json_type(grade_of(pl)) == JSON_OBJECT;
}

static const char *challenge_of(const struct plot *pl)
{
	return json_string(json_get(grade_of(pl), "challenge"));
}

static const char *kernel_param(const struct plot_point *p)
{
	return json_scalar_text(json_get(json_get(p->row, "params"), "kernel"));
}

/* The file without its directory: what grade's table calls a kernel. */
static const char *file_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* Kernel path's row: the point of try.CHALLENGE whose kernel it is. */
static const struct plot_point *kernel_point(const struct plot *pl, const char *path)
{
	const char *ch = challenge_of(pl);
	for (size_t i = 0; i < pl->n; i++) {
		const struct plot_point *p = &pl->p[i];
		const char *k = kernel_param(p);
		if (k && !strcmp(k, path) && try_exercise_is(p->exercise, ch))
			return p;
	}
	return NULL;
}

/* The challenge's library (a ceiling) and best, measured: its lines. */
static int is_reference(const struct plot_point *p)
{
	return !kernel_param(p) && plot_measured(p) && (p->ceiling || !strcmp(plot_short_name(p->exercise), "best"));
}

static int ranked(const struct json *k)
{
	return json_type(json_get(k, "rank")) == JSON_NUMBER;
}

/* A grade entry's point, where it was ranked (measured); else NULL. */
static const struct plot_point *ranked_point(const struct plot *pl, const struct json *k)
{
	return k && ranked(k) ? kernel_point(pl, json_string(json_get(k, "kernel"))) : NULL;
}

/* --- one record ---------------------------------------------------------------- */

static int board_chart(FILE *out, const struct plot *pl, const char *id)
{
	const struct json *ks = json_get(grade_of(pl), "kernels");
	size_t *pts = malloc((pl->n + 1) * sizeof *pts), *levels = malloc((pl->n + 1) * sizeof *levels);
	struct chart c = { .kind = CHART_BOARD, .pl = pl, .variant = "", .pts = pts, .levels = levels };
	int rc = 0;
	if (!pts || !levels) {
		free(pts);
		free(levels);
		return EXIT_NOMEM;
	}
	for (size_t k = 0; k < json_len(ks) && c.npts < pl->n; k++) {
		const struct plot_point *p = ranked_point(pl, json_index(ks, k));
		if (p)
			pts[c.npts++] = (size_t)(p - pl->p);
	}
	for (size_t i = 0; i < pl->n; i++)
		if (is_reference(&pl->p[i]))
			levels[c.nlevels++] = i;
	fprintf(out, "<figure id=\"%s-figure\">\n<div class=\"plot\">\n", id);
	if (c.npts)
		rc = draw_chart(out, &c, id, 0);
	else
		fputs("<p>No kernel was measured: nothing to draw.</p>\n", out);
	fputs("</div></figure>\n", out);
	free(pts);
	free(levels);
	return rc;
}

/* <tr data-kernel="PATH" data-rank="N"> or data-failure="WHAT". */
static void board_row_open(FILE *out, const struct json *k)
{
	fputs("<tr data-kernel=\"", out);
	fput_html(out, json_string(json_get(k, "kernel")));
	if (ranked(k)) {
		fprintf(out, "\" data-rank=\"%s\">", json_number_text(json_get(k, "rank")));
		return;
	}
	fputs("\" data-failure=\"", out);
	fput_html(out, json_string(json_get(k, "failure")) ? json_string(json_get(k, "failure")) : "failed");
	fputs("\">", out);
}

static void board_row(FILE *out, const struct plot *pl, const struct json *k)
{
	const char *path = json_string(json_get(k, "kernel")), *failure = json_string(json_get(k, "failure"));
	const struct plot_point *p = ranked_point(pl, k);
	board_row_open(out, k);
	numbers_cell(out, k, "rank", 0, 1, "");
	fputs("<td class=\"text\" title=\"", out);
	fput_html(out, path);
	fputs("\">", out);
	fput_html(out, file_of(path));
	fputs("</td>", out);
	if (!ranked(k)) {
		fputs("<td class=\"text flag\" colspan=\"4\">", out);
		fput_html(out, failure ? failure : "failed");
		fputs("</td></tr>\n", out);
		return;
	}
	numbers_cell(out, p ? p->row : NULL, "median_ms", 4, 1, "");
	numbers_cell(out, p ? p->row : NULL, "median_ci_pct", 2, 1, "");
	numbers_cell(out, p ? p->row : NULL, "gbps", 1, 1, "");
	/* grade's own share (the kernel's), as its table: the row's own is
	 * against a point each later kernel's try resumed, not measured */
	numbers_cell(out, json_get(k, "ref_share") ? k : p ? p->row : NULL, "ref_share", 0, 100, "%");
	fputs("</tr>\n", out);
}

/* The ranking as grade's table has it. */
static void ranking(FILE *out, const struct plot *pl)
{
	const struct json *ks = json_get(grade_of(pl), "kernels");
	size_t measured = 0;
	for (size_t k = 0; k < json_len(ks); k++)
		measured += ranked(json_index(ks, k));
	fputs("<table class=\"board\"><caption>gpulab " CMD_GRADE " ", out);
	fput_html(out, challenge_of(pl));
	fprintf(out, ": %zu kernels, %zu measured, %zu failed</caption>\n<tr><th>rank</th><th class=\"text\">kernel</th>"
		"<th>median ms</th><th title=\"half the median's 95%% confidence interval, in %% of it\">\u00b1%%</th>"
		"<th>GB/s</th><th>of ref</th></tr>\n", json_len(ks), measured, json_len(ks) - measured);
	for (size_t k = 0; k < json_len(ks); k++)
		board_row(out, pl, json_index(ks, k));
	fputs("</table>\n", out);
}

/* Each failure's line, as grade prints it under its table. */
static void failures(FILE *out, const struct plot *pl)
{
	const struct json *ks = json_get(grade_of(pl), "kernels");
	int any = 0;
	for (size_t i = 0; i < json_len(ks); i++) {
		const struct json *k = json_index(ks, i), *code = json_get(k, "exit");
		const char *reason = json_string(json_get(k, "reason"));
		if (ranked(k))
			continue;
		fputs(any ? "" : "<h3>Failures, in full</h3>\n<dl class=\"failures\">\n", out);
		fputs("<div><dt>", out);
		fput_html(out, file_of(json_string(json_get(k, "kernel"))));
		if (json_type(code) == JSON_NUMBER)
			fprintf(out, " (exit %s)", json_number_text(code));
		fputs("</dt><dd>", out);
		fput_html(out, reason ? reason : "failed");
		fputs("</dd></div>\n", out);
		any = 1;
	}
	fputs(any ? "</dl>\n" : "", out);
}

int board_write(FILE *out, const struct plot *pl, const char *id)
{
	int rc = board_chart(out, pl, id);
	ranking(out, pl);
	failures(out, pl);
	return rc;
}

/* --- several records: the class over time ------------------------------------------ */

/* Are the n records all grade's, of one challenge, more than one? */
static int one_challenge(const struct plot *pl, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!board_is_grade(&pl[i]) || strcmp(challenge_of(&pl[i]), challenge_of(&pl[0])))
			return 0;
	return n > 1;
}

/* Is record i on record 0's GPU model (or both on none)? */
static int same_model(const struct plot *pl, size_t i)
{
	const char *a = json_string(json_get(json_get(pl[0].rec.doc, "device"), "name"));
	const char *b = json_string(json_get(json_get(pl[i].rec.doc, "device"), "name"));
	return a && b ? !strcmp(a, b) : a == b;
}

static int one_model(const struct plot *pl, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!same_model(pl, i))
			return 0;
	return 1;
}

int board_is_history(const struct plot *pl, size_t n)
{
	return one_challenge(pl, n) && one_model(pl, n);
}

int board_is_class(const struct plot *pl, size_t n)
{
	return one_challenge(pl, n) && !one_model(pl, n);
}

/* A kernel in record pl: its grade entry (NULL where not graded there). */
static const struct json *entry_of(const struct plot *pl, const char *file)
{
	const struct json *ks = json_get(grade_of(pl), "kernels");
	for (size_t k = 0; k < json_len(ks); k++)
		if (!strcmp(file_of(json_string(json_get(json_index(ks, k), "kernel"))), file))
			return json_index(ks, k);
	return NULL;
}

/* The kernel's GB/s in record pl, or NAN where it was not measured. */
static double gbps_in(const struct plot *pl, const char *file)
{
	const struct plot_point *p = ranked_point(pl, entry_of(pl, file));
	return p && plot_measured(p) ? p->gbps : NAN;
}

static const char *date_of(const struct plot *pl)
{
	const char *d = json_string(json_get(pl->rec.doc, "date"));
	return d ? d : "";
}

/* The records' order by date, oldest first (an insertion sort: a class
 * has a record a week). */
static void by_date(const struct plot *pl, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i;
		for (; k > 0 && strcmp(date_of(&pl[order[k - 1]]), date_of(&pl[i])) > 0; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
}

/* Every kernel's file, each once: the latest record's in its order, then
 * those only earlier ones graded. */
static size_t all_kernels(const struct plot *pl, size_t n, const size_t *order, const char **files)
{
	size_t m = 0;
	for (size_t r = n; r-- > 0;) {
		const struct json *ks = json_get(grade_of(&pl[order[r]]), "kernels");
		for (size_t k = 0; k < json_len(ks); k++) {
			const char *f = file_of(json_string(json_get(json_index(ks, k), "kernel")));
			size_t s = 0;
			while (s < m && strcmp(files[s], f))
				s++;
			if (s == m)
				files[m++] = f;
		}
	}
	return m;
}

/* Record pl's cell for the kernel: its GB/s, its failure, or a dash. */
static void day_cell(FILE *out, const struct plot *pl, const char *file)
{
	const struct json *k = entry_of(pl, file);
	const struct plot_point *p = ranked_point(pl, k);
	if (p) {
		numbers_cell(out, p->row, "gbps", 1, 1, "");
	} else if (k && !ranked(k)) {
		fputs("<td class=\"text flag\">", out);
		fput_html(out, json_string(json_get(k, "failure")) ? json_string(json_get(k, "failure")) : "failed");
		fputs("</td>", out);
	} else {
		fputs("<td>\u2013</td>", out);
	}
}

/* The best GB/s before the last record, and in it: did it improve? */
static void best_cells(FILE *out, const struct plot *pl, size_t n, const size_t *order, const char *file, int *improved)
{
	double best = NAN, before = NAN, last = gbps_in(&pl[order[n - 1]], file), change = NAN;
	const char *on = NULL;
	char num[48];
	for (size_t r = 0; r < n; r++) {
		double g = gbps_in(&pl[order[r]], file);
		if (isfinite(g) && !(g <= best))
			best = g, on = date_of(&pl[order[r]]);
		if (isfinite(g) && r + 1 < n && !(g <= before))
			before = g;
	}
	*improved = isfinite(last) && !(last <= before);
	fprintf(out, "<td>%s</td><td class=\"text\">", numbers_text(num, sizeof num, best, 1));
	day_html(out, on ? on : "\u2013");
	fputs("</td>", out);
	if (isfinite(last) && isfinite(before))
		change = 100 * (last / before - 1);
	if (isfinite(change))
		fprintf(out, "<td title=\"%.17g%%\">%s%s%%</td>", change, change > 0 ? "+" : "", numbers_text(num, sizeof num, change, 1));
	else
		fprintf(out, "<td class=\"text\">%s</td>", *improved ? "first measured" : "\u2013");
}

static void history_head(FILE *out, const struct plot *pl, size_t n, const size_t *order, size_t from)
{
	fputs("<table class=\"history\"><caption>", out);
	fput_html(out, challenge_of(&pl[0]));
	fputs(": each kernel's GB/s, record by record, oldest first", out);
	if (from)
		fprintf(out, " (the last %d; the best counts all %zu)", HISTORY_DAYS, n);
	fputs("</caption>\n<tr><th class=\"text\">kernel</th>", out);
	for (size_t r = from; r < n; r++) {
		fputs("<th title=\"", out);
		fput_html(out, pl[order[r]].rec.path);
		fputs("\">", out);
		day_html(out, date_of(&pl[order[r]]));
		fputs("</th>", out);
	}
	fputs("<th>best GB/s</th><th class=\"text\">on</th><th title=\"the last record's GB/s against the best before "
	      "it\">change</th></tr>\n", out);
}

int board_history(FILE *out, const struct plot *pl, size_t n)
{
	size_t total = 0, *order = malloc(n * sizeof *order), from = n > HISTORY_DAYS ? n - HISTORY_DAYS : 0, m, better = 0;
	for (size_t i = 0; i < n; i++)
		total += json_len(json_get(grade_of(&pl[i]), "kernels"));
	const char **files = malloc((total + 1) * sizeof *files);
	int *improved = malloc((total + 1) * sizeof *improved);
	if (!order || !files || !improved) {
		free(order), free(files), free(improved);
		return EXIT_NOMEM;
	}
	by_date(pl, n, order);
	m = all_kernels(pl, n, order, files);
	fputs("<section class=\"history\" id=\"history\">\n<h2>The class over time</h2>\n", out);
	history_head(out, pl, n, order, from);
	for (size_t k = 0; k < m; k++) {
		fputs("<tr><td class=\"text\">", out);
		fput_html(out, files[k]);
		fputs("</td>", out);
		for (size_t r = from; r < n; r++)
			day_cell(out, &pl[order[r]], files[k]);
		best_cells(out, pl, n, order, files[k], &improved[k]);
		better += improved[k];
		fputs("</tr>\n", out);
	}
	fputs("</table>\n<p class=\"improved\">Improved in the last record (", out);
	day_html(out, date_of(&pl[order[n - 1]]));
	fputs("), past their best before it: ", out);
	for (size_t k = 0, said = 0; k < m; k++)
		if (improved[k]) {
			fputs(said++ ? ", " : "", out);
			fput_html(out, files[k]);
		}
	fprintf(out, "%s.</p>\n</section>\n", better ? "" : "none");
	free(order), free(files), free(improved);
	return 0;
}

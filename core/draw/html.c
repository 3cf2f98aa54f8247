#include "config.h"

#include "command_names.h"
#include "draw/html.h"

#include "exitcode.h"
#include "draw/board.h"
#include "draw/boards.h"
#include "draw/summary.h"
#include "draw/busbw.h"
#include "draw/choose.h"
#include "draw/chart.h"
#include "escape.h"
#include "io/outfile.h"
#include "draw/numbers.h"
#include "draw/plot.h"
#include "compare/compare.h"
#include "config/options.h"
#include "draw/tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Readable at 1280 px (a chart with its counters fits beside them), on
 * paper (no page break inside a chart), and with the numbers in columns. */
static const char css[] =
	"body{font:15px/1.45 'DejaVu Sans',Helvetica,Arial,sans-serif;color:#1a1a1a;background:#fff;"
	"max-width:1240px;margin:0 auto;padding:0 20px 40px}\n"
	"h1{font-size:1.6em;margin:20px 0 4px}h2{font-size:1.3em;border-bottom:2px solid #0072B2;margin-top:36px}\n"
	"dl.run{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:4px 20px;margin:8px 0}"
	"dl.run div{display:flex;gap:8px}dl.run .command{grid-column:1/-1}dt{font-weight:bold}dd{margin:0}\n"
	"figure{margin:20px 0}figcaption{font-weight:bold;margin:6px 0}\n"
	".chart-row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}\n"
	".plot{flex:2 1 700px;min-width:0}.plot svg{width:100%;height:auto;display:block}\n"
	/* the counters no narrower than their table (headers broken between
	 * words, <wbr>): beside the chart where both fit, else under it */
	".metrics{flex:1 1 340px;min-width:min-content;overflow-x:auto}.metrics th{overflow-wrap:normal}.wide{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;margin:8px 0}"
	"caption{text-align:left;font-weight:bold;padding:4px 0}\n"
	"th,td{border:1px solid #c8c8c8;padding:3px 6px;text-align:right}th{background:#f0f0f0}"
	"th.text,td.text{text-align:left}\n"
	"td.flag{font-weight:bold;color:#a33b00}code{white-space:pre-wrap;word-break:break-all}\n"
	"table{max-width:100%}td.text{overflow-wrap:anywhere}.metrics td.text{overflow-wrap:normal}p.same{margin:16px 0 4px}\n"
	"details{margin:4px 0 16px}details summary{cursor:pointer;color:#005a8c}\n"
	"table.board td.flag{text-align:left}dl.failures div{margin:6px 0}dl.failures dd{margin-left:24px}\n"
	"td.spark{padding:2px 6px}td.spark svg{display:block}p.improved{margin:4px 0 16px}\n"
	"ul.warnings{border-left:4px solid #a33b00;padding:4px 4px 4px 28px;color:#a33b00}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}figure,table{break-inside:avoid}"
	".plot{flex-basis:100%}section+section{break-before:page}}\n";

/* --- cells ----------------------------------------------------------------------- */

static void text(FILE *out, const char *s)
{
	fput_html(out, s);
}

/* A value of the record as it is written there: a string, a number's
 * digits, or a dash for null or nothing. */
static void value(FILE *out, const struct json *v)
{
	switch (json_type(v)) {
	case JSON_STRING: text(out, json_string(v)); break;
	case JSON_NUMBER: text(out, json_number_text(v)); break;
	case JSON_BOOL: fputs(json_bool(v) ? "yes" : "no", out); break;
	default: fputs("\u2013", out);
	}
}

/* --- the header -------------------------------------------------------------------- */

static void item(FILE *out, const char *label, const struct json *v, const char *unit)
{
	if (!v)
		return;
	fprintf(out, "<div><dt>%s</dt><dd>", label);
	value(out, v);
	fprintf(out, "%s</dd></div>\n", json_type(v) == JSON_NUMBER ? unit : "");
}

static void device_items(FILE *out, const struct json *d)
{
	if (json_type(d) != JSON_OBJECT) {
		fputs("<div><dt>device</dt><dd>none: a run on the host</dd></div>\n", out);
		return;
	}
	item(out, "device", json_get(d, "name"), "");
	item(out, "compute capability", json_get(d, "compute_capability"), "");
	item(out, "peak bandwidth", json_get(d, "peak_gbps"), " GB/s (2 \u00d7 memory clock \u00d7 bus width)");
	item(out, "memory clock", json_get(d, "memory_clock_mhz"), " MHz");
	item(out, "bus width", json_get(d, "bus_width_bits"), " bits");
	item(out, "SM clock ceiling", json_get(d, "max_sm_mhz"), " MHz");
	item(out, "clocks read by", json_get(d, "clocks"), "");
	item(out, "NVIDIA driver", json_get(d, "driver"), "");
	item(out, "CUDA driver", json_get(d, "cuda_driver"), "");
	item(out, "CUDA runtime", json_get(d, "cuda_runtime"), "");
}

static void header(FILE *out, const struct plot *pl)
{
	const struct json *doc = pl->rec.doc, *g = json_get(doc, "gpulab"), *stop = json_get(doc, "stopping");
	char batch[64], exact[64];
	snprintf(batch, sizeof batch, "runs per sample (%s)", options_long(OPT_BATCH));
	snprintf(exact, sizeof exact, " %% (unless an exact %s)", options_short(OPT_REPS));
	fputs("<dl class=\"run\">\n", out);
	device_items(out, json_get(doc, "device"));
	item(out, "gpulab", json_get(g, "version"), "");
	item(out, "revision", json_get(g, "revision"), "");
	item(out, "host", json_get(doc, "host"), "");
	item(out, "date", json_get(doc, "date"), "");
	item(out, "L2 flushed before each run", json_get(doc, "cold"), "");
	item(out, batch, json_get(doc, "batch"), "");
	item(out, "noise limit", json_get(stop, "max_noise_pct"), exact);
	fputs("<div class=\"command\"><dt>command</dt><dd><code>", out);
	text(out, json_string(json_get(doc, "command")));
	fputs("</code></dd></div>\n</dl>\n", out);
}

/* --- tables ------------------------------------------------------------------------ */

/* The counters' labels (the book's names) in order of first appearance. */
static size_t chart_metric_labels(const struct chart *c, const char **labels, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->npts; i++) {
		const struct json *m = c->pl->p[c->pts[i]].metrics;
		for (size_t k = 0; k < json_len(m); k++) {
			size_t s = 0;
			while (s < n && strcmp(labels[s], json_key(m, k)))
				s++;
			if (s == n && n < max)
				labels[n++] = json_key(m, k);
		}
	}
	return n;
}

/* A counter's name, which may break only between its words: after each
 * run of '_' and after each '.' (dram__throughput.avg.pct_of_peak...),
 * never inside one, where a narrow column broke it a letter a line. */
static void label_words(FILE *out, const char *s)
{
	char word[256];
	while (*s) {
		size_t n = strcspn(s, "_.");
		n += strspn(s + n, "_.");
		snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), s);
		text(out, word);
		s += n;
		fputs(*s ? "<wbr>" : "", out);
	}
}

static void metrics_table(FILE *out, const struct chart *c)
{
	const char *labels[64];
	size_t n = chart_metric_labels(c, labels, 64);
	fprintf(out, "<div class=\"metrics\"><table class=\"counters\"><caption>Counters (%s), from untimed runs"
		"</caption>\n<tr><th class=\"text\">exercise</th>", options_long(OPT_METRICS));
	for (size_t k = 0; k < n; k++) {
		fputs("<th title=\"", out);
		text(out, json_string(json_get(json_get(c->pl->p[c->pts[0]].metrics, labels[k]), "metric")));
		fputs("\">", out);
		label_words(out, labels[k]);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t i = 0; i < c->npts; i++) {
		const struct plot_point *p = &c->pl->p[c->pts[i]];
		if (!p->metrics)
			continue;
		fputs("<tr>", out);
		numbers_text_cell(out, plot_short_name(p->exercise));
		for (size_t k = 0; k < n; k++) {
			const struct json *m = json_get(p->metrics, labels[k]);
			double v = json_number(json_get(m, "value"));
			numbers_cell(out, m, "value", v == floor(v) ? 0 : 2, 1, ""); /* counts whole, ratios to two places */
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

/* What the record says went wrong, point by point. */
static void messages(FILE *out, const struct plot *pl)
{
	int any = 0;
	for (size_t i = 0; i < pl->n; i++) {
		const struct plot_point *p = &pl->p[i];
		if (!p->message[0])
			continue;
		fputs(any ? "" : "<h3>Messages</h3>\n<ul class=\"messages\">\n", out);
		fputs("<li>", out);
		text(out, p->exercise);
		fputc(' ', out);
		text(out, p->params);
		fprintf(out, ": <b>%s</b>: ", plot_state_word(p->state));
		text(out, p->message);
		fputs("</li>\n", out);
		any = 1;
	}
	fputs(any ? "</ul>\n" : "", out);
}

/* --- sections ---------------------------------------------------------------------- */

static int figure(FILE *out, const struct chart *c, const char *id)
{
	int rc;
	/* the chart's <title> names it: no caption to say it twice */
	fprintf(out, "<figure id=\"%s-figure\">\n<div class=\"chart-row\"><div class=\"plot\">\n", id);
	rc = draw_chart(out, c, id, 0);
	fputs("</div>\n", out);
	if (c->has_metrics)
		metrics_table(out, c);
	fputs("</div></figure>\n", out);
	tables_chart(out, c);
	return rc;
}

/* A grade's record: its board, and the challenge's own rows (every kernel
 * was timed against them) folded under it. */
static int board_section(FILE *out, const struct plot *pl, size_t r)
{
	char id[32];
	struct chart own = { .kind = CHART_BARS, .pl = pl, .variant = "" };
	int rc;
	snprintf(id, sizeof id, "r%zu-c1", r + 1);
	if ((rc = board_write(out, pl, id)) || !(own.pts = malloc((pl->n + 1) * sizeof *own.pts)))
		return rc ? rc : EXIT_NOMEM;
	for (size_t i = 0; i < pl->n; i++)
		if (!json_get(json_get(pl->p[i].row, "params"), "kernel"))
			own.pts[own.npts++] = i;
	if (own.npts) {
		fputs("<details class=\"own\"><summary>The challenge's own exercises, timed once for every kernel</summary>\n",
		      out);
		tables_chart(out, &own);
		fputs("</details>\n", out);
	}
	free(own.pts);
	messages(out, pl);
	return 0;
}

static int record_section(FILE *out, const struct plot *pl, size_t r)
{
	struct chart *charts;
	size_t n;
	char id[32];
	int rc;
	fprintf(out, "<section class=\"record\" id=\"r%zu\">\n<h2>", r + 1);
	text(out, pl->rec.path);
	fputs("</h2>\n", out);
	header(out, pl);
	if (board_is_grade(pl)) {
		rc = board_section(out, pl, r);
		fputs("</section>\n", out);
		return rc;
	}
	rc = charts_choose(pl, &charts, &n);
	if (!rc && n == 0)
		fputs("<p>This record holds no results.</p>\n", out);
	for (size_t i = 0; !rc && i < n; i++) {
		snprintf(id, sizeof id, "r%zu-c%zu", r + 1, i + 1);
		rc = figure(out, &charts[i], id);
	}
	snprintf(id, sizeof id, "r%zu-busbw", r + 1);
	if (!rc && busbw_drawn(pl))
		rc = busbw_figure(out, pl, id);
	messages(out, pl);
	fputs("</section>\n", out);
	charts_free(charts, n);
	return rc;
}

/* A computed number's cell (compare's): as the terminal has it, the
 * digits it was computed to in the title. */
static void number_td(FILE *out, double v, int decimals, const char *sign, const char *suffix)
{
	char num[48];
	if (!isfinite(v)) {
		fputs("<td>\u2013</td>", out);
		return;
	}
	fprintf(out, "<td title=\"%.17g\">%s%s%s</td>", v, sign, numbers_text(num, sizeof num, v, decimals), suffix);
}

static void pair_row(FILE *out, const struct record_pair *pr)
{
	int have = isfinite(pr->c.ratio);
	fputs("<tr>", out);
	numbers_text_cell(out, json_string(json_get(pr->base->row, "exercise")));
	numbers_text_cell(out, pr->base->params);
	number_td(out, have ? pr->c.base.median : NAN, 4, "", "");
	number_td(out, have ? pr->c.cand.median : NAN, 4, "", "");
	number_td(out, have ? 100 * (pr->c.ratio - 1) : NAN, 1, pr->c.ratio > 1 ? "+" : "", "%");
	number_td(out, pr->c.mw.p, 4, "", "");
	numbers_text_cell(out, record_verdict_word(pr));
	fputs("</tr>\n", out);
}

/* compare's warnings of how the two records were timed (another GPU,
 * --cold, batches) for the n pairs: the lines as they go to a terminal,
 * in a string the caller frees; NULL where out of memory. */
static char *timing_warnings(const struct plot *base, const struct plot *cand, const struct record_pair *pairs, size_t n)
{
	char *lines = NULL;
	size_t size;
	FILE *f = open_memstream(&lines, &size);
	if (!f)
		return NULL;
	compare_conditions(&base->rec, &cand->rec, f);
	compare_batches(&base->rec, &cand->rec, pairs, n, f);
	if (fclose(f)) {
		free(lines);
		return NULL;
	}
	return lines;
}

/* Those warnings on the page, each a line of a list, above the chart:
 * a reader of the page never sees the terminal they went to. */
static void warnings_list(FILE *out, char *lines)
{
	static const char prefix[] = "gpulab: warning: ";
	if (!lines[0])
		return;
	fputs("<ul class=\"warnings\">\n", out);
	char *at;
	for (char *line = strtok_r(lines, "\n", &at); line; line = strtok_r(NULL, "\n", &at)) {
		fputs("<li>", out);
		text(out, strncmp(line, prefix, sizeof prefix - 1) ? line : line + sizeof prefix - 1);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* BASE against NEW, as `gpulab compare` has it, with its warnings of
 * what the two were timed under on the page and to warn (where not
 * NULL). */
static int comparison(FILE *out, struct plot *base, struct plot *cand, FILE *warn)
{
	struct record_pair *pairs = calloc(base->rec.n ? base->rec.n : 1, sizeof *pairs);
	size_t n;
	char *said;
	if (!pairs)
		return EXIT_NOMEM;
	n = record_pair_up(&base->rec, &cand->rec, pairs);
	if (!(said = timing_warnings(base, cand, pairs, n))) {
		free(pairs);
		return EXIT_NOMEM;
	}
	if (warn)
		fputs(said, warn);
	if (n) {
		fputs("<section class=\"comparison\" id=\"compare\">\n<h2>", out);
		text(out, cand->rec.path);
		fputs(" against ", out);
		text(out, base->rec.path);
		fputs("</h2>\n", out);
		warnings_list(out, said);
		fputs("<figure><div class=\"plot\">\n", out);
		draw_comparison(out, pairs, n, "cmp");
		fputs("</div></figure>\n<div class=\"wide\"><table class=\"pairs\"><caption>Medians of GPU time; "
		      "Mann-Whitney U test, two-sided, alpha 0.05 (as gpulab " CMD_COMPARE ")</caption>\n<tr><th class=\"text\">"
		      "exercise</th><th class=\"text\">params</th><th>base ms</th><th>new ms</th><th>change</th><th>p</th>"
		      "<th class=\"text\">verdict</th></tr>\n", out);
		for (size_t i = 0; i < n; i++)
			pair_row(out, &pairs[i]);
		fputs("</table></div>\n</section>\n", out);
	}
	free(said);
	free(pairs);
	return 0;
}

/* gpulab board's boards of the n records (draw/boards.h): 0 or EXIT_NOMEM. */
static int class_boards(FILE *out, const struct plot *pl, size_t n)
{
	char **paths = malloc(n * sizeof *paths);
	int rc;
	if (!paths)
		return EXIT_NOMEM;
	for (size_t i = 0; i < n; i++)
		paths[i] = (char *)pl[i].rec.path;
	rc = boards_of_records(out, paths, n);
	free(paths);
	return rc;
}

/* The page's head, styled, allowing no script and fetching nothing, and
 * its title as its first heading. */
static void page_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
	text(out, title);
	fputs("</title>\n<style>", out);
	fputs(css, out);
	fputs("</style></head>\n<body>\n<h1>", out);
	text(out, title);
	fputs("</h1>\n", out);
}

/* The page, with the comparison's warnings to warn (NULL: none). */
static int report_page(FILE *out, struct plot *pl, size_t n, FILE *warn)
{
	int rc = 0;
	page_head(out, "gpulab " CMD_REPORT);
	fprintf(out, "<p>Made by gpulab %s from %zu record%s. "
		"Each chart has its numbers in a table under it.</p>\n<main>\n", PACKAGE_VERSION, n, n == 1 ? "" : "s");
	if (board_is_history(pl, n))
		rc = board_history(out, pl, n); /* a class on several days: not two runs to pair up */
	else if (board_is_class(pl, n))
		rc = class_boards(out, pl, n);  /* on several GPU models: never ranked together */
	else if (n == 2)
		rc = comparison(out, &pl[0], &pl[1], warn);
	for (size_t i = 0; !rc && i < n; i++)
		rc = record_section(out, &pl[i], i);
	fputs("</main>\n</body></html>\n", out);
	return rc;
}

int report_html(FILE *out, struct plot *pl, size_t n)
{
	return report_page(out, pl, n, NULL);
}

/* -o FILE.svg: the first chart of the first record. */
static int lone_chart(FILE *out, const struct plot *pl, size_t n, FILE *warn)
{
	struct chart *charts;
	size_t nc;
	if (pl[0].nccl && busbw_drawn(&pl[0])) /* what --nccl-tests asked for */
		return draw_busbw(out, &pl[0], pl[0].nccl, "c1", 1);
	int rc = charts_choose(&pl[0], &charts, &nc);
	if (!rc && (n > 1 || nc > 1))
		fprintf(warn, "gpulab: warning: the .svg holds the first of %zu charts; a .html report has them all\n",
			nc + (n > 1 ? n - 1 : 0));
	if (!rc && nc)
		rc = draw_chart(out, &charts[0], "c1", 1);
	charts_free(charts, nc);
	return rc;
}

static int ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);
	return a >= b && !strcasecmp(s + a - b, end);
}

static int write_out(struct plot *pl, size_t n, const char *path, FILE *warn, char *err, size_t len)
{
	struct outfile f;
	char why[512];
	int svg = ends_with(path, ".svg"), rc;
	if ((rc = outfile_open(&f, path, why, sizeof why))) {
		snprintf(err, len, "%s %s: %s", options_short(OPT_OUTPUT), path, why);
		return rc;
	}
	if (svg && n == 2) /* no comparison drawn; but what differs is said, as compare does */
		compare_conditions(&pl[0].rec, &pl[1].rec, warn);
	rc = svg ? lone_chart(f.f, pl, n, warn) : report_page(f.f, pl, n, warn);
	if (rc) {
		outfile_abandon(&f);
		snprintf(err, len, "out of memory drawing the report");
	} else if ((rc = outfile_commit(&f, why, sizeof why))) {
		snprintf(err, len, "%s %s: %s", options_short(OPT_OUTPUT), path, why);
	}
	return rc;
}

int report_write(char *const *paths, size_t n, const char *out_path, const char *nccl_tests, FILE *warn, FILE *summary,
		 char *err, size_t len)
{
	struct plot *pl;
	struct nccl_figures nt = { 0 };
	int rc = 0;
	if (!out_path || !(ends_with(out_path, ".html") || ends_with(out_path, ".htm") || ends_with(out_path, ".svg"))) {
		snprintf(err, len, "report: name the output with %s FILE.html (the report) or %s FILE.svg (its first chart)",
			 options_short(OPT_OUTPUT), options_short(OPT_OUTPUT));
		return EXIT_USAGE;
	}
	if (n == 0) {
		snprintf(err, len, "report: name at least one record (gpulab " CMD_RUN " %s writes them)", options_long(OPT_OUTPUT));
		return EXIT_USAGE;
	}
	if (!(pl = calloc(n, sizeof *pl))) {
		snprintf(err, len, "out of memory");
		return EXIT_NOMEM;
	}
	if (nccl_tests)
		rc = nccl_figures_read(&nt, nccl_tests, err, len);
	for (size_t i = 0; !rc && i < n; i++) {
		rc = plot_read(&pl[i], paths[i], err, len);
		pl[i].nccl = nccl_tests ? &nt : NULL;
	}
	if (!rc)
		rc = write_out(pl, n, out_path, warn, err, len);
	if (!rc && summary)
		report_summary_json(summary, pl, n, out_path, ends_with(out_path, ".svg"));
	for (size_t i = 0; i < n; i++)
		plot_free(&pl[i]);
	free(pl);
	nccl_figures_free(&nt);
	return rc;
}

int board_page_write(const struct board_doc *b, const char *path, char *err, size_t len)
{
	struct outfile f;
	char why[512], title[512];
	int rc;
	if (!ends_with(path, ".html") && !ends_with(path, ".htm")) {
		snprintf(err, len, "board: %s %s: the page is a .html file", options_short(OPT_OUTPUT), path);
		return EXIT_USAGE;
	}
	if ((rc = outfile_open(&f, path, why, sizeof why))) {
		snprintf(err, len, "%s %s: %s", options_short(OPT_OUTPUT), path, why);
		return rc;
	}
	snprintf(title, sizeof title, "gpulab " CMD_BOARD " %s", b->challenge);
	page_head(f.f, title);
	fprintf(f.f, "<p>Made by gpulab %s from %zu grade record%s.</p>\n<main>\n", PACKAGE_VERSION, b->nrecords,
		b->nrecords == 1 ? "" : "s");
	boards_draw(f.f, b);
	fputs("</main>\n</body></html>\n", f.f);
	if ((rc = outfile_commit(&f, why, sizeof why)))
		snprintf(err, len, "%s %s: %s", options_short(OPT_OUTPUT), path, why);
	return rc;
}

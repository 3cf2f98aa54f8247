#include "draw/busbw.h"

#include "exitcode.h"
#include "escape.h"
#include "draw/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LEFT 90
#define TOP 56
#define RIGHT 270
#define BOTTOM 80
#define MAX_SERIES 20

/* A point's busbw in GB/s, and its bytes; 0 where it has none. */
static int busbw_of(const struct plot_point *p, double *bytes, double *bw)
{
	const struct json *notes = json_get(p->row, "notes");
	double algbw = json_number(json_get(notes, "algbw")), bus = json_number(json_get(notes, "busbw"));
	*bytes = json_number(json_get(p->row, "bytes"));
	if (!plot_measured(p) || !(algbw > 0) || !isfinite(bus) || !(*bytes >= 1))
		return 0;
	*bw = p->gbps * bus / algbw;
	return isfinite(*bw);
}

int busbw_drawn(const struct plot *pl)
{
	double b, bw;
	for (size_t i = 0; i < pl->n; i++)
		if (busbw_of(&pl->p[i], &b, &bw))
			return 1;
	return 0;
}

/* The series: gpulab's exercises with a busbw, then nccl-tests'
 * collectives; names[s], and for each whether it is nccl-tests'. */
struct series {
	const char *names[MAX_SERIES];
	int theirs[MAX_SERIES];
	size_t n;
};

static void add_series(struct series *s, const char *name, int theirs)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->theirs[k] == theirs && !strcmp(s->names[k], name))
			return;
	if (s->n < MAX_SERIES)
		s->names[s->n] = name, s->theirs[s->n++] = theirs;
}

/* The colour of series k: nccl-tests' collective takes its gpulab
 * exercise's, where the chart has it. */
static size_t colour_of(const struct series *s, size_t k)
{
	const char *ex = s->theirs[k] ? nccl_exercise_of(s->names[k]) : NULL;
	for (size_t j = 0; ex && j < s->n; j++)
		if (!s->theirs[j] && !strcmp(plot_short_name(s->names[j]), ex))
			return j;
	return k;
}

/* The frame: the sizes' powers of two, and busbw from 0 to the highest. */
static void frame_of(const struct plot *pl, const struct nccl_figures *nt, const char *id, struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY, top = 0, b, bw, step;
	for (size_t i = 0; i < pl->n; i++)
		if (busbw_of(&pl->p[i], &b, &bw))
			lo = fmin(lo, log2(b)), hi = fmax(hi, log2(b)), top = fmax(top, bw);
	for (size_t i = 0; nt && i < nt->n; i++)
		lo = fmin(lo, log2(nt->v[i].bytes)), hi = fmax(hi, log2(nt->v[i].bytes)), top = fmax(top, nt->v[i].busbw);
	top = top > 0 ? top * 1.06 : 1;
	step = svg_nice_step(top);
	*f = (struct frame){ .id = id, .x0 = LEFT, .y0 = TOP, .w = SVG_WIDTH - LEFT - RIGHT, .h = SVG_HEIGHT - TOP - BOTTOM,
			     .ymax = ceil(top / step) * step, .xlo = floor(isfinite(lo) ? lo : 0) - 0.5,
			     .xhi = ceil(isfinite(hi) ? hi : 0) + 0.5 };
}

/* One series' line and marks, through its points in order of size. */
static void draw_line(FILE *out, const struct frame *f, const double *x, const double *y, size_t n, size_t colour,
		      int dashed)
{
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"%s points=\"", svg_colour(colour),
		dashed ? " stroke-dasharray=\"8 4\"" : "");
	for (size_t k = 0; k < n; k++)
		fprintf(out, "%.1f,%.1f ", frame_x(f, x[k]), frame_y(f, y[k]));
	fputs("\"/>\n", out);
	for (size_t k = 0; k < n; k++)
		svg_marker(out, dashed ? 1 : colour, frame_x(f, x[k]), frame_y(f, y[k]), svg_colour(colour), dashed);
}

/* Series k's points, sorted by size, into x and y (room for each). */
static size_t points_of(const struct plot *pl, const struct nccl_figures *nt, const struct series *s, size_t k,
			double *x, double *y)
{
	size_t n = 0;
	double b, bw;
	for (size_t i = 0; !s->theirs[k] && i < pl->n; i++)
		if (!strcmp(pl->p[i].exercise, s->names[k]) && busbw_of(&pl->p[i], &b, &bw))
			x[n] = b, y[n++] = bw;
	for (size_t i = 0; s->theirs[k] && i < nt->n; i++)
		if (!strcmp(nt->v[i].collective, s->names[k]))
			x[n] = nt->v[i].bytes, y[n++] = nt->v[i].busbw;
	for (size_t a = 1; a < n; a++) /* few points: an insertion sort */
		for (size_t c = a; c > 0 && x[c - 1] > x[c]; c--) {
			double t = x[c];
			x[c] = x[c - 1], x[c - 1] = t;
			t = y[c], y[c] = y[c - 1], y[c - 1] = t;
		}
	return n;
}

static void legend(FILE *out, const struct series *s)
{
	char label[96];
	fputs("<g class=\"legend\">\n", out);
	for (size_t k = 0; k < s->n; k++) {
		double x = SVG_WIDTH - RIGHT + 24, y = TOP + 10 + 20 * k;
		size_t c = colour_of(s, k);
		snprintf(label, sizeof label, "%s%.60s", s->theirs[k] ? "nccl-tests " : "",
			 s->theirs[k] ? s->names[k] : plot_short_name(s->names[k]));
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"%s/>\n", x,
			x + 28, y - 4, y - 4, svg_colour(c), s->theirs[k] ? " stroke-dasharray=\"8 4\"" : "");
		svg_marker(out, s->theirs[k] ? 1 : c, x + 14, y - 4, svg_colour(c), s->theirs[k]);
		svg_text(out, x + 36, y, "start", 13, label);
	}
	fputs("</g>\n", out);
}

int draw_busbw(FILE *out, const struct plot *pl, const struct nccl_figures *nt, const char *id, int standalone)
{
	struct series s = { .n = 0 };
	struct frame f;
	double b, bw;
	size_t room = pl->n + (nt ? nt->n : 0) + 1;
	double *x = malloc(room * sizeof *x), *y = malloc(room * sizeof *y);
	if (!x || !y) {
		free(x);
		free(y);
		return EXIT_NOMEM;
	}
	for (size_t i = 0; i < pl->n; i++)
		if (busbw_of(&pl->p[i], &b, &bw))
			add_series(&s, pl->p[i].exercise, 0);
	for (size_t i = 0; nt && i < nt->n; i++)
		add_series(&s, nt->v[i].collective, 1);
	frame_of(pl, nt, id, &f);
	svg_begin(out, &f, "busbw against the size",
		  "A line chart, on a log2 axis of bytes, of each exercise's bus bandwidth in GB/s (nccl-tests' busbw), "
		  "with nccl-tests' own figures dashed where given. The tables below have every number.", standalone);
	fprintf(out, "<g class=\"heading\" font-weight=\"bold\">");
	svg_text(out, LEFT, 24, "start", 16, "busbw against the size, as nccl-tests defines it");
	fputs("</g>\n", out);
	svg_axis_y(out, &f, "busbw, GB/s");
	svg_axis_log2(out, &f, "bytes, as nccl-tests counts them (log\u2082 scale)");
	for (size_t k = 0; k < s.n; k++) {
		size_t n = points_of(pl, nt, &s, k, x, y);
		fputs("<g class=\"series\" data-series=\"", out);
		fput_html(out, s.names[k]);
		fputs("\">\n", out);
		draw_line(out, &f, x, y, n, colour_of(&s, k), s.theirs[k]);
		fputs("</g>\n", out);
	}
	legend(out, &s);
	svg_end(out);
	free(x);
	free(y);
	return 0;
}

/* The table under the chart: every busbw it draws, gpulab's, then
 * nccl-tests'. */
static void busbw_table(FILE *out, const struct plot *pl)
{
	const struct nccl_figures *nt = pl->nccl;
	double b, bw;
	char num[32];
	fputs("<div class=\"wide\"><table>\n<caption>busbw, GB/s</caption>\n<tr><th class=\"text\">exercise</th>"
	      "<th>bytes</th><th>busbw GB/s</th></tr>\n", out);
	for (size_t i = 0; i < pl->n; i++)
		if (busbw_of(&pl->p[i], &b, &bw)) {
			fputs("<tr><td class=\"text\">", out);
			fput_html(out, pl->p[i].exercise);
			fprintf(out, "</td><td>%.0f</td><td>%s</td></tr>\n", b, svg_number(num, sizeof num, bw));
		}
	for (size_t i = 0; nt && i < nt->n; i++) {
		fputs("<tr><td class=\"text\">nccl-tests ", out);
		fput_html(out, nt->v[i].collective);
		fprintf(out, "</td><td>%.0f</td><td>%s</td></tr>\n", nt->v[i].bytes, svg_number(num, sizeof num, nt->v[i].busbw));
	}
	fputs("</table></div>\n", out);
}

int busbw_figure(FILE *out, const struct plot *pl, const char *id)
{
	fprintf(out, "<figure id=\"%s-figure\">\n<div class=\"chart-row\"><div class=\"plot\">\n", id);
	int rc = draw_busbw(out, pl, pl->nccl, id, 0);
	fputs("</div></div></figure>\n", out);
	busbw_table(out, pl);
	return rc;
}

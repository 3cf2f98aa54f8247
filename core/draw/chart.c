#include "draw/chart.h"

#include "exitcode.h"
#include "escape.h"
#include "draw/svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAR_COLOUR "#0072B2"
#define CEILING_COLOUR "#E69F00"
#define PEAK_COLOUR "#000000"
#define MUTED "#767676"

/* The left, top and right margins of the plot area; the right one holds
 * the legend. */
#define LEFT 90
#define TOP 56
#define RIGHT 270

/* --- what every chart shares --------------------------------------------------- */

static int caveat(const struct plot_point *p)
{
	return !p->converged || p->throttled || p->state == PLOT_UNVERIFIED;
}

/* Why a point is not to be trusted, or NULL where it is. */
static const char *caveat_word(const struct plot_point *p)
{
	return p->throttled ? "THROTTLED" : !p->converged ? "NOISY" : p->state == PLOT_UNVERIFIED ? "unverified" : NULL;
}

/* Do all the chart's points come from one plugin?  Then the labels can
 * leave it out. */
static int one_plugin(const struct chart *c)
{
	const char *first = c->pl->p[c->pts[0]].exercise;
	size_t len = (size_t)(plot_short_name(first) - first);
	for (size_t i = 1; i < c->npts; i++)
		if (strncmp(c->pl->p[c->pts[i]].exercise, first, len))
			return 0;
	return len > 0;
}

/* An exercise's name on the chart. */
static const char *name_of(const struct chart *c, const char *exercise)
{
	return one_plugin(c) ? plot_short_name(exercise) : exercise;
}

/* A kernel's file without its directory, on grade's board. */
static const char *kernel_of(const struct plot_point *p)
{
	const char *k = json_scalar_text(json_get(json_get(p->row, "params"), "kernel")), *slash;
	return !k ? p->exercise : (slash = strrchr(k, '/')) && slash[1] ? slash + 1 : k;
}

static const char *label_of(const struct chart *c, const struct plot_point *p)
{
	if (c->kind == CHART_BOARD)
		return p->ceiling || !json_get(json_get(p->row, "params"), "kernel") ? p->exercise : kernel_of(p);
	return name_of(c, p->exercise);
}

/* The top of the y axis: the highest bar, error bar, peak or ceiling. */
static double y_top(const struct chart *c)
{
	double top = 0, step;
	for (size_t i = 0; i < c->npts + c->nlevels; i++) {
		const struct plot_point *p = &c->pl->p[i < c->npts ? c->pts[i] : c->levels[i - c->npts]];
		double hi = plot_measured(p) ? p->gbps * (1 + (isfinite(p->noise_pct) ? p->noise_pct / 100 : 0)) : 0;
		top = hi > top ? hi : top;
	}
	/* the peak, where it is in sight: a compute-bound lesson (divergence)
	 * at a hundredth of it would be a row of slivers under it */
	if (isfinite(c->pl->peak_gbps) && top >= c->pl->peak_gbps / 4)
		top = c->pl->peak_gbps > top ? c->pl->peak_gbps : top;
	top = top > 0 ? top * 1.06 : 1;
	step = svg_nice_step(top);
	return ceil(top / step) * step;
}

static void frame_for(const struct chart *c, const char *id, double bottom, struct frame *f)
{
	*f = (struct frame){ .id = id, .x0 = LEFT, .y0 = TOP, .w = SVG_WIDTH - LEFT - RIGHT,
			     .h = SVG_HEIGHT - TOP - bottom, .ymax = y_top(c) };
}

/* The device's peak, as a line, where the axis reaches it. */
static void draw_peak(FILE *out, const struct chart *c, const struct frame *f, double *last, int outside)
{
	char label[64], value[32];
	const struct json *dev = json_get(c->pl->rec.doc, "device");
	if (!isfinite(c->pl->peak_gbps) || c->pl->peak_gbps <= 0 || c->pl->peak_gbps > f->ymax)
		return;
	snprintf(label, sizeof label, "device peak %s GB/s", svg_number(value, sizeof value, c->pl->peak_gbps));
	svg_level(out, f, c->pl->peak_gbps, "peak", PEAK_COLOUR, json_number_text(json_get(dev, "peak_gbps")), label,
		  last, outside);
}

/* The chart's title above the plot, and what was measured on what. */
static void draw_heading(FILE *out, const struct chart *c, const char *title)
{
	const char *device = json_string(json_get(json_get(c->pl->rec.doc, "device"), "name"));
	fprintf(out, "<g class=\"heading\" font-weight=\"bold\">");
	svg_text(out, LEFT, 24, "start", 16, title);
	fputs("</g>\n", out);
	svg_text(out, LEFT, 44, "start", 13, device ? device : "on the host, no GPU");
}

/* A description for screen readers: what is drawn, and what is flagged. */
static void describe(const struct chart *c, const char *kind, char *buf, size_t len)
{
	size_t bad = 0, failed = 0;
	char peak[32];
	for (size_t i = 0; i < c->npts; i++) {
		const struct plot_point *p = &c->pl->p[c->pts[i]];
		failed += !plot_measured(p);
		bad += plot_measured(p) && caveat(p);
	}
	snprintf(buf, len, "%s of %zu points in GB/s%s%s%s. %zu not measured (FAILED, ERROR, skipped or not run), %zu measured "
		 "but NOISY, THROTTLED or unverified. The table below the chart has every number.", kind, c->npts,
		 isfinite(c->pl->peak_gbps) ? "; the device's peak is " : "",
		 isfinite(c->pl->peak_gbps) ? svg_number(peak, sizeof peak, c->pl->peak_gbps) : "",
		 isfinite(c->pl->peak_gbps) ? " GB/s" : "", failed, bad);
}

/* The key to the marks, under the legend at y. */
static void draw_key(FILE *out, const char *id, double y, int sweep)
{
	double x = SVG_WIDTH - RIGHT + 24;
	fputs("<g class=\"key\" font-size=\"12\">\n", out);
	svg_text(out, x, y, "start", 12, sweep ? "band: \u00b11 s.d. of the runs" : "whisker: \u00b11 s.d. of the runs");
	if (sweep)
		svg_marker(out, 0, x + 6, y + 16, MUTED, 1);
	else
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"" MUTED "\"/>"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"url(#%s-hatch)\" stroke=\"#1a1a1a\"/>\n",
			x - 1, y + 9, x - 1, y + 9, id);
	svg_text(out, x + 18, y + 20, "start", 12, sweep ? "hollow: NOISY, THROTTLED" : "hatched: NOISY, THROTTLED");
	svg_text(out, x + 18, y + 36, "start", 12, "or unverified");
	svg_cross(out, x + 6, y + 52, 5);
	svg_text(out, x + 18, y + 56, "start", 12, "FAILED or ERROR: no GB/s");
	fputs("</g>\n", out);
}

/* data-* attributes: the point's numbers as the record writes them, so
 * what is drawn can be checked against it. */
static void data_attrs(FILE *out, const struct plot_point *p)
{
	static const char *const keys[] = { "gbps", "noise_pct", "speedup", "ref_share" };
	fputs(" data-exercise=\"", out);
	fput_html(out, p->exercise);
	fputs("\" data-status=\"", out);
	fput_html(out, plot_state_word(p->state));
	fputc('"', out);
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const char *text = json_number_text(json_get(p->row, keys[k]));
		if (text)
			fprintf(out, " data-%s=\"%s\"", keys[k], text); /* digits, '.', 'e', '+', '-' only */
	}
	if (p->variant[0]) {
		fputs(" data-variant=\"", out);
		fput_html(out, p->variant);
		fputc('"', out);
	}
}

/* A tooltip: the point in one line. */
static void point_title(FILE *out, const struct plot_point *p)
{
	char gbps[32];
	fputs("<title>", out);
	fput_html(out, p->exercise);
	fputc(' ', out);
	fput_html(out, p->params);
	fputs(": ", out);
	if (plot_measured(p))
		fprintf(out, "%s GB/s", svg_number(gbps, sizeof gbps, p->gbps));
	else
		fput_html(out, plot_state_word(p->state));
	if (caveat_word(p))
		fprintf(out, ", %s", caveat_word(p));
	fputs("</title>", out);
}

/* Where there is no bar or point: a cross for FAILED and ERROR, and the
 * word, standing up from the axis at x. */
static void draw_missing(FILE *out, const struct frame *f, const struct plot_point *p, double x)
{
	double base = f->y0 + f->h;
	fputs("<g class=\"missing\"", out);
	data_attrs(out, p);
	fputc('>', out);
	point_title(out, p);
	int fault = p->state != PLOT_SKIPPED && p->state != PLOT_NOT_RUN; /* those two are no fault of the point's */
	if (fault)
		svg_cross(out, x, base - 10, 6);
	fprintf(out, "<g fill=\"%s\">", fault ? "#D55E00" : MUTED);
	svg_text_rotated(out, x + 4, base - 22, -90, "start", 12, plot_state_word(p->state));
	fputs("</g></g>\n", out);
}

/* --- bars ---------------------------------------------------------------------- */

/* The whisker of +-1 relative standard deviation around a bar's top. */
static void draw_whisker(FILE *out, const struct frame *f, const struct plot_point *p, double cx)
{
	double lo, hi;
	if (!isfinite(p->noise_pct) || p->noise_pct <= 0)
		return;
	lo = frame_y(f, p->gbps * (1 - p->noise_pct / 100 > 0 ? 1 - p->noise_pct / 100 : 0));
	hi = frame_y(f, p->gbps * (1 + p->noise_pct / 100));
	fprintf(out, "<path class=\"whisker\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"#1a1a1a\" "
		"stroke-width=\"1.5\" fill=\"none\"/>\n", cx, lo, hi, cx - 4, lo, cx - 4, hi);
}

/* Speedup and share of the reference over a bar, as far as there is room. */
static void bar_labels(FILE *out, const struct plot_point *p, double cx, double top, double room)
{
	char text[48], num[32];
	double y = top - 8;
	if (caveat_word(p)) {
		fputs("<g font-weight=\"bold\">", out);
		svg_text_rotated(out, cx, y, room < 70 ? -90 : 0, room < 70 ? "start" : "middle", 11, caveat_word(p));
		fputs("</g>\n", out);
		return;
	}
	if (room < 30)
		return;
	if (isfinite(p->ref_share) && room >= 34) {
		snprintf(text, sizeof text, "%.0f%%", 100 * p->ref_share);
		svg_text(out, cx, y, "middle", 11, text);
		y -= 14;
	}
	if (isfinite(p->speedup)) {
		snprintf(text, sizeof text, "%s\u00d7", svg_number(num, sizeof num, p->speedup));
		svg_text(out, cx, y, "middle", 11, text);
	}
}

/* One bar: measured, its height; else the mark of what went wrong. */
static void draw_bar(FILE *out, const struct frame *f, const struct plot_point *p, double x, double width,
		     const char *colour, int labels)
{
	double top, base = f->y0 + f->h;
	if (!plot_measured(p)) {
		draw_missing(out, f, p, x + width / 2);
		return;
	}
	top = frame_y(f, p->gbps);
	fputs("<g class=\"bar\"", out);
	data_attrs(out, p);
	fputc('>', out);
	point_title(out, p);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", x, top, width,
		base - top, colour);
	if (caveat(p)) {
		fprintf(out, "<rect class=\"caveat\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" stroke=\"#1a1a1a\" "
			"stroke-width=\"1.5\"", x, top, width, base - top);
		svg_hatch_fill(out, f);
		fputs("/>\n", out);
	}
	draw_whisker(out, f, p, x + width / 2);
	if (labels)
		bar_labels(out, p, x + width / 2, frame_y(f, p->gbps * (1 + (isfinite(p->noise_pct) ? p->noise_pct / 100 : 0))),
			   width / 0.7);
	fputs("</g>\n", out);
}

/* The byte where character k of s starts (UTF-8), or its end. */
static size_t char_at(const char *s, size_t k)
{
	size_t at = 0;
	for (size_t n = 0; s[at]; at++)
		if (((unsigned char)s[at] & 0xC0) != 0x80 && n++ == k)
			return at;
	return at;
}

/* Under the bars, each exercise's name, slanted to fit: cut short, with
 * an ellipsis, where it would run past the picture's left edge or its
 * bottom margin (at 13 px a character is about 7 px, 5.4 across at 40
 * degrees: 6.2 leaves room); the bar's title and the table have it whole. */
static void x_label(FILE *out, const struct frame *f, double cx, const char *label)
{
	char cut[256];
	size_t room = (size_t)fmax(4, fmin(36, (cx + 4) / 6.2)); /* at most 36 characters: 144 bytes */
	if (label[char_at(label, room)]) {
		snprintf(cut, sizeof cut, "%.*s\u2026", (int)char_at(label, room - 1), label);
		label = cut;
	}
	svg_text_rotated(out, cx + 4, f->y0 + f->h + 14, -40, "end", 13, label);
}

/* The next ceiling below bound (the highest for INFINITY), or NULL. */
static const struct plot_point *next_ceiling(const struct chart *c, double bound, size_t *at)
{
	const struct plot_point *best = NULL;
	int board = c->kind == CHART_BOARD; /* its levels, every one a line; else the ceilings among the bars */
	size_t last = *at; /* the one drawn before: of those at its bound, only the later ones are next */
	for (size_t i = 0; i < (board ? c->nlevels : c->npts); i++) {
		const struct plot_point *p = &c->pl->p[board ? c->levels[i] : c->pts[i]];
		if ((p->ceiling || board) && plot_measured(p) && (p->gbps < bound || (p->gbps == bound && i > last))
		    && (!best || p->gbps > best->gbps)) {
			best = p;
			*at = i;
		}
	}
	return best;
}

/* The peak and the measured ceilings (copies, the library) as lines at
 * their GB/s, from the highest down, so their labels stack. */
static void draw_levels(FILE *out, const struct chart *c, const struct frame *f, int outside)
{
	char label[160], num[32];
	double last = -1e9, bound = INFINITY;
	size_t at = 0;
	const struct plot_point *p;
	draw_peak(out, c, f, &last, outside);
	/* a lesson has one or two ceilings; a record of thousands draws eight */
	for (int k = 0; k < 8 && (p = next_ceiling(c, bound, &at)); k++) {
		bound = p->gbps;
		snprintf(label, sizeof label, "%.100s%s%.60s %s GB/s", label_of(c, p), p->variant[0] ? " " : "", p->variant,
			 svg_number(num, sizeof num, p->gbps));
		svg_level(out, f, p->gbps, "ceiling", "#9a6700", json_number_text(json_get(p->row, "gbps")), label, &last,
			  outside);
	}
}

/* What the board's bars and lines are. */
static void board_legend(FILE *out, const struct frame *f)
{
	double y = f->y0 + f->h + 24, x = SVG_WIDTH - RIGHT + 24;
	fputs("<g class=\"legend\">\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"" BAR_COLOUR "\"/>\n", x, y - 11);
	svg_text(out, x + 22, y, "start", 13, "a kernel's GB/s, median run");
	svg_text(out, x, y + 24, "start", 12, "lines: the challenge's library");
	svg_text(out, x, y + 40, "start", 12, "and best, timed with the kernels");
	svg_text(out, x, y + 64, "start", 12, "over a bar: speedup over the");
	svg_text(out, x, y + 80, "start", 12, "baseline, and share of the reference");
	fputs("</g>\n", out);
	draw_key(out, f->id, y + 104, 0);
}

static void draw_bars(FILE *out, const struct chart *c, const struct frame *f)
{
	double slot = f->w / (double)c->npts;
	for (size_t i = 0; i < c->npts; i++) {
		const struct plot_point *p = &c->pl->p[c->pts[i]];
		double x = f->x0 + i * slot;
		draw_bar(out, f, p, x + 0.15 * slot, 0.7 * slot, p->ceiling ? CEILING_COLOUR : BAR_COLOUR, 1);
		if (slot >= 9 || i % (size_t)ceil(9 / slot) == 0)
			x_label(out, f, x + slot / 2, label_of(c, p));
	}
	if (c->kind == CHART_BOARD) {
		board_legend(out, f);
		return;
	}
	double y = f->y0 + f->h + 24, x = SVG_WIDTH - RIGHT + 24;
	fputs("<g class=\"legend\">\n", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"" BAR_COLOUR "\"/>\n", x, y - 11);
	svg_text(out, x + 22, y, "start", 13, "GB/s, median run");
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"" CEILING_COLOUR "\"/>\n", x, y + 9);
	svg_text(out, x + 22, y + 20, "start", 13, "ceiling: a copy or library");
	svg_text(out, x, y + 44, "start", 12, "over a bar: speedup over the");
	svg_text(out, x, y + 60, "start", 12, "baseline, and share of the reference");
	fputs("</g>\n", out);
	draw_key(out, f->id, y + 84, 0);
}

static void draw_grouped(FILE *out, const struct chart *c, const struct frame *f, const char **names)
{
	size_t ng = chart_distinct(c, 0, names), nv;
	const char **variants = names + ng;
	nv = chart_distinct(c, 1, variants);
	double group = f->w / (double)ng, width = 0.8 * group / (double)nv;
	for (size_t i = 0; i < c->npts; i++) {
		const struct plot_point *p = &c->pl->p[c->pts[i]];
		size_t g = chart_slot(p, 0, names, ng), v = chart_slot(p, 1, variants, nv);
		draw_bar(out, f, p, f->x0 + g * group + 0.1 * group + v * width, width, svg_colour(v), 0);
	}
	for (size_t g = 0; g < ng; g++)
		x_label(out, f, f->x0 + (g + 0.5) * group, name_of(c, names[g]));
	fputs("<g class=\"legend\">\n", out);
	for (size_t v = 0; v < nv && v < 16; v++) {
		double y = TOP + 10 + 20 * v, x = SVG_WIDTH - RIGHT + 24;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, y - 11, svg_colour(v));
		svg_text(out, x + 22, y, "start", 13, variants[v]);
	}
	fputs("</g>\n", out);
	draw_key(out, f->id, TOP + 20 + 20 * (nv < 16 ? nv : 16), 0);
}

/* --- sweeps -------------------------------------------------------------------- */

/* The points of series s (indices into pl->p) in order of size. */
static size_t series_points(const struct chart *c, const char *name, size_t *v)
{
	size_t n = 0;
	for (size_t i = 0; i < c->npts; i++)
		if (!strcmp(c->pl->p[c->pts[i]].exercise, name)) {
			size_t k = n++;
			/* the sizes come in order: an insertion sort does next to nothing */
			for (; k > 0 && c->pl->p[v[k - 1]].x > c->pl->p[c->pts[i]].x; k--)
				v[k] = v[k - 1];
			v[k] = c->pts[i];
		}
	return n;
}

/* The x range: the powers of two around the sizes. */
static void sweep_range(const struct chart *c, struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < c->npts; i++) {
		double x = c->pl->p[c->pts[i]].x;
		if (isfinite(x))
			lo = fmin(lo, log2(x)), hi = fmax(hi, log2(x));
	}
	if (!isfinite(lo))
		lo = hi = 0;
	/* half a power of two of room, so no point sits on the y axis */
	f->xlo = floor(lo) - 0.5, f->xhi = ceil(hi) + 0.5;
}

/* The noise band and the line through a run of measured points v[a..b). */
static void draw_run(FILE *out, const struct frame *f, const struct plot *pl, const size_t *v, size_t a, size_t b,
		     size_t s)
{
	fprintf(out, "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.18\" points=\"", svg_colour(s));
	for (size_t k = a; k < b; k++) {
		const struct plot_point *p = &pl->p[v[k]];
		fprintf(out, "%.1f,%.1f ", frame_x(f, p->x), frame_y(f, p->gbps * (1 + fmax(p->noise_pct, 0) / 100)));
	}
	for (size_t k = b; k-- > a;) {
		const struct plot_point *p = &pl->p[v[k]];
		fprintf(out, "%.1f,%.1f ", frame_x(f, p->x), frame_y(f, p->gbps * fmax(1 - fmax(p->noise_pct, 0) / 100, 0)));
	}
	fprintf(out, "\"/>\n<polyline class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"", svg_colour(s));
	if (svg_dash(s)[0])
		fprintf(out, " stroke-dasharray=\"%s\"", svg_dash(s));
	fputs(" points=\"", out);
	for (size_t k = a; k < b; k++)
		fprintf(out, "%.1f,%.1f ", frame_x(f, pl->p[v[k]].x), frame_y(f, pl->p[v[k]].gbps));
	fputs("\"/>\n", out);
}

static void draw_sweep_point(FILE *out, const struct frame *f, const struct plot_point *p, size_t s)
{
	double x = frame_x(f, p->x), y;
	if (!plot_measured(p)) {
		draw_missing(out, f, p, x);
		return;
	}
	y = frame_y(f, p->gbps);
	fputs("<g class=\"point\"", out);
	data_attrs(out, p);
	fprintf(out, " data-n=\"%.0f\">", p->x);
	point_title(out, p);
	/* no word over the point: a sweep has many, and the words would
	 * cover the line; the hollow marker, the key and the table say it */
	svg_marker(out, s, x, y, svg_colour(s), caveat(p));
	fputs("</g>\n", out);
}

/* One series: its lines (broken where a point was not measured), its
 * points, and for a ceiling its best as a level. */
static void draw_series(FILE *out, const struct chart *c, const struct frame *f, const char *name, size_t s, size_t *v,
			double *last)
{
	size_t n = series_points(c, name, v), a = 0;
	const struct plot_point *best = NULL;
	char label[160], num[32];
	fputs("<g class=\"series\" data-series=\"", out);
	fput_html(out, name);
	fputs("\">\n", out);
	for (size_t k = 0; k <= n; k++)
		if (k == n || !plot_measured(&c->pl->p[v[k]]) || !isfinite(c->pl->p[v[k]].x)) {
			if (k > a)
				draw_run(out, f, c->pl, v, a, k, s);
			a = k + 1;
		}
	for (size_t k = 0; k < n; k++) {
		const struct plot_point *p = &c->pl->p[v[k]];
		if (isfinite(p->x))
			draw_sweep_point(out, f, p, s);
		if (p->ceiling && plot_measured(p) && (!best || p->gbps > best->gbps))
			best = p;
	}
	if (best) {
		snprintf(label, sizeof label, "%.100s best %s GB/s", label_of(c, best), svg_number(num, sizeof num, best->gbps));
		svg_level(out, f, best->gbps, "ceiling", svg_colour(s), json_number_text(json_get(best->row, "gbps")), label,
			  last, 0);
	}
	fputs("</g>\n", out);
}

static void draw_sweep(FILE *out, const struct chart *c, struct frame *f, const char **names, size_t *v)
{
	size_t ns = chart_distinct(c, 0, names), shown = ns < 20 ? ns : 20;
	char more[64];
	double last = -1e9;
	svg_axis_log2(out, f, "n, elements (log\u2082 scale)");
	draw_peak(out, c, f, &last, 0);
	for (size_t s = 0; s < ns; s++)
		draw_series(out, c, f, names[s], s, v, &last);
	fputs("<g class=\"legend\">\n", out);
	for (size_t s = 0; s < shown; s++)
		svg_legend_entry(out, SVG_WIDTH - RIGHT + 24, TOP + 10 + 20 * s, s, name_of(c, names[s]));
	if (shown < ns) {
		snprintf(more, sizeof more, "and %zu more: see the table", ns - shown);
		svg_text(out, SVG_WIDTH - RIGHT + 24, TOP + 10 + 20 * shown, "start", 12, more);
	}
	fputs("</g>\n", out);
	draw_key(out, f->id, TOP + 40 + 20 * shown, 1);
}

/* --- the chart ------------------------------------------------------------------- */

int draw_chart(FILE *out, const struct chart *c, const char *id, int standalone)
{
	char title[400], desc[1024];
	struct frame f;
	const char **names = malloc(2 * (c->npts ? c->npts : 1) * sizeof *names);
	size_t *v = malloc((c->npts ? c->npts : 1) * sizeof *v);
	if (!names || !v || !c->npts) {
		free(names);
		free(v);
		return c->npts ? EXIT_NOMEM : 0;
	}
	frame_for(c, id, c->kind == CHART_SWEEP ? 80 : 190, &f);
	chart_title(c, title, sizeof title);
	describe(c, c->kind == CHART_SWEEP   ? "A line chart, on a log2 axis of sizes,"
		    : c->kind == CHART_BOARD ? "A bar chart of the kernels graded, fastest first, with the challenge's library "
					       "and best as lines,"
					     : "A bar chart", desc, sizeof desc);
	if (c->kind == CHART_SWEEP)
		sweep_range(c, &f);
	svg_begin(out, &f, title, desc, standalone);
	draw_heading(out, c, title);
	svg_axis_y(out, &f, "GB/s");
	if (c->kind == CHART_SWEEP)
		draw_sweep(out, c, &f, names, v);
	else if (c->kind == CHART_GROUPED)
		draw_grouped(out, c, &f, names);
	else
		draw_bars(out, c, &f);
	if (c->kind != CHART_SWEEP)
		draw_levels(out, c, &f, c->kind == CHART_BARS || c->kind == CHART_BOARD);
	svg_end(out);
	free(names);
	free(v);
	return 0;
}

/* --- two records --------------------------------------------------------------- */

static const char *verdict_colour(const struct record_pair *pr)
{
	switch (pr->verdict) {
	case STATS_FASTER: return "#009E73";
	case STATS_SLOWER: return "#D55E00";
	default: return MUTED;
	}
}

/* One pair's bar, from no change to its change in time. */
static void draw_ratio(FILE *out, const struct frame *f, const struct record_pair *pr, double x, double width,
		       double lim)
{
	double mid = f->y0 + f->h / 2, change = 100 * (pr->c.ratio - 1);
	double y = mid - fmax(fmin(change, lim), -lim) / lim * f->h / 2;
	const char *ex = json_string(json_get(pr->base->row, "exercise"));
	fputs("<g class=\"ratio\" data-exercise=\"", out);
	fput_html(out, ex);
	fputs("\" data-verdict=\"", out);
	fput_html(out, record_verdict_word(pr));
	fprintf(out, "\" data-ratio=\"%.6f\"><title>", pr->c.ratio);
	fput_html(out, ex);
	fputc(' ', out);
	fput_html(out, pr->base->params);
	fprintf(out, ": %+.1f%% time, %s</title>", change, record_verdict_word(pr));
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>", x, fmin(y, mid), width,
		fabs(y - mid), verdict_colour(pr));
	if (pr->verdict != STATS_FASTER && pr->verdict != STATS_SLOWER && pr->verdict != STATS_SAME) {
		fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, fmin(y, mid), width, fabs(y - mid));
		svg_hatch_fill(out, f);
		fputs("/>", out);
	}
	fputs("</g>\n", out);
}

static const char *pair_exercise(const struct record_pair *pr)
{
	return json_string(json_get(pr->base->row, "exercise"));
}

/* The pairs of one exercise, from i on: consecutive in a record. */
static size_t group_end(const struct record_pair *pairs, size_t n, size_t i)
{
	size_t e = i + 1;
	while (e < n && !strcmp(pair_exercise(&pairs[e]), pair_exercise(&pairs[i])))
		e++;
	return e;
}

/* The labels under the bars: one per exercise, under its group of bars
 * (a line between groups), never a point's parameters (its bar's title
 * and the table have them); where groups crowd, only those at least
 * PAIR_LABEL_GAP from the last one shown, so rotated labels never touch. */
#define PAIR_LABEL_GAP 18.0
static void pair_labels(FILE *out, const struct frame *f, const struct record_pair *pairs, size_t n, double slot)
{
	double last = -1e9;
	for (size_t i = 0, e; i < n; i = e) {
		e = group_end(pairs, n, i);
		double x0 = f->x0 + (double)i * slot, cx = f->x0 + (double)(i + e) / 2 * slot;
		if (i > 0)
			fprintf(out, "<line class=\"group\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#bdbdbd\"/>\n",
				x0, x0, f->y0, f->y0 + f->h);
		if (cx - last < PAIR_LABEL_GAP)
			continue;
		x_label(out, f, cx, plot_short_name(pair_exercise(&pairs[i])));
		last = cx;
	}
}

static void compare_legend(FILE *out)
{
	static const char *const words[][2] = { { "#009E73", "faster, with confidence" },
						{ "#D55E00", "slower, with confidence" },
						{ MUTED, "no significant change" } };
	double x = SVG_WIDTH - RIGHT + 24;
	fputs("<g class=\"legend\">\n", out);
	for (size_t k = 0; k < 3; k++) {
		fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, TOP - 1 + 20 * (int)k,
			words[k][0]);
		svg_text(out, x + 22, TOP + 10 + 20 * k, "start", 13, words[k][1]);
	}
	svg_text(out, x, TOP + 74, "start", 12, "hatched: too few samples to say");
	svg_text(out, x, TOP + 94, "start", 12, "Mann-Whitney U, alpha 0.05");
	fputs("</g>\n", out);
}

/* The axis of change in time: 0 in the middle, +-lim at the edges. */
static void change_axis(FILE *out, const struct frame *f, double lim)
{
	char text[32];
	for (int k = -2; k <= 2; k++) {
		double y = f->y0 + f->h / 2 - k * f->h / 4;
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", f->x0, f->x0 + f->w,
			y, y, k ? "#d9d9d9" : "#1a1a1a");
		snprintf(text, sizeof text, "%+g%%", k * lim / 2);
		svg_text(out, f->x0 - 8, y + 4, "end", 13, text);
	}
	svg_text_rotated(out, f->x0 - 62, f->y0 + f->h / 2, -90, "middle", 14, "change in median time (down: faster)");
}

void draw_comparison(FILE *out, const struct record_pair *pairs, size_t n, const char *id)
{
	struct frame f = { .id = id, .x0 = LEFT, .y0 = TOP, .w = SVG_WIDTH - LEFT - RIGHT, .h = SVG_HEIGHT - TOP - 190 };
	double lim = 5, slot = f.w / (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++)
		if (isfinite(pairs[i].c.ratio))
			lim = fmax(lim, fmin(1000, 110 * fabs(pairs[i].c.ratio - 1)));
	lim = ceil(lim / 5) * 5;
	svg_begin(out, &f, "NEW against BASE: change in median time per point",
		  "A bar per point both records have: up is slower, down faster; green faster and orange slower with "
		  "confidence (Mann-Whitney U, alpha 0.05), grey no significant change, hatched too few samples to say. "
		  "The table below has every number.", 0);
	change_axis(out, &f, lim);
	fputs("<g class=\"heading\" font-weight=\"bold\">", out);
	svg_text(out, LEFT, 24, "start", 16, "NEW against BASE: change in median time");
	fputs("</g>\n", out);
	compare_legend(out);
	for (size_t i = 0; i < n; i++)
		if (isfinite(pairs[i].c.ratio))
			draw_ratio(out, &f, &pairs[i], f.x0 + (i + 0.15) * slot, 0.7 * slot, lim);
	pair_labels(out, &f, pairs, n, slot);
	svg_end(out);
}

#include "draw/svg.h"

#include "escape.h"

#include <math.h>

#define INK "#1a1a1a"
#define GRID "#d9d9d9"
#define FAIL_COLOUR "#D55E00"

double frame_x(const struct frame *f, double size)
{
	double span = f->xhi - f->xlo;
	return f->x0 + (span > 0 ? (log2(size) - f->xlo) / span : 0.5) * f->w;
}

double frame_y(const struct frame *f, double v)
{
	return f->y0 + f->h - (f->ymax > 0 ? v / f->ymax : 0) * f->h;
}

double svg_nice_step(double max)
{
	double raw = (max > 0 ? max : 1) / 6, unit = pow(10, floor(log10(raw))), m = raw / unit;
	return unit * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

const char *svg_colour(size_t i)
{
	static const char *const okabe_ito[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
						 "#56B4E9", "#D55E00", "#000000" };
	return okabe_ito[i % 7];
}

const char *svg_dash(size_t i)
{
	static const char *const dashes[] = { "", "8 4", "2 3" };
	return dashes[i / 7 % 3];
}

const char *svg_number(char *buf, size_t len, double v)
{
	double a = fabs(v);
	snprintf(buf, len, a >= 1e6 ? "%.3g" : a >= 100 ? "%.1f" : a >= 1 ? "%.2f" : a > 0 ? "%.4f" : "%.0f", v);
	return buf;
}

void svg_begin(FILE *out, const struct frame *f, const char *title, const char *desc, int standalone)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart\" viewBox=\"0 0 %d %d\" "
		"width=\"%d\" height=\"%d\" role=\"img\" aria-labelledby=\"%s-title %s-desc\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\" fill=\"" INK "\">\n<title id=\"%s-title\">",
		f->id, SVG_WIDTH, SVG_HEIGHT, SVG_WIDTH, SVG_HEIGHT, f->id, f->id, f->id);
	fput_html(out, title);
	fprintf(out, "</title>\n<desc id=\"%s-desc\">", f->id);
	fput_html(out, desc);
	/* white stripes over whatever colour lies under them */
	fprintf(out, "</desc>\n<defs><pattern id=\"%s-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"8\" fill=\"#ffffff\" fill-opacity=\"0.75\"/>"
		"</pattern></defs>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", f->id, SVG_WIDTH, SVG_HEIGHT);
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_hatch_fill(FILE *out, const struct frame *f)
{
	fprintf(out, " fill=\"url(#%s-hatch)\"", f->id);
}

void svg_text_rotated(FILE *out, double x, double y, double degrees, const char *anchor, int size, const char *s)
{
	/* a white halo under the letters keeps a label readable over a line or a bar */
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" paint-order=\"stroke\" "
		"stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\"", x, y, anchor, size);
	if (degrees != 0)
		fprintf(out, " transform=\"rotate(%.0f %.1f %.1f)\"", degrees, x, y);
	fputc('>', out);
	fput_html(out, s);
	fputs("</text>\n", out);
}

void svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *s)
{
	svg_text_rotated(out, x, y, 0, anchor, size, s);
}

void svg_axis_y(FILE *out, const struct frame *f, const char *label)
{
	double step = svg_nice_step(f->ymax);
	char num[32];
	fputs("<g class=\"axis-y\">\n", out);
	for (double v = 0; v <= f->ymax * (1 + 1e-9); v += step) {
		double y = frame_y(f, v);
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" GRID "\"/>\n", f->x0,
			f->x0 + f->w, y, y);
		snprintf(num, sizeof num, "%g", v);
		svg_text(out, f->x0 - 8, y + 4, "end", 13, num);
	}
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" INK "\"/>\n", f->x0, f->x0,
		f->y0, f->y0 + f->h);
	svg_text_rotated(out, f->x0 - 62, f->y0 + f->h / 2, -90, "middle", 14, label);
	fputs("</g>\n", out);
}

void svg_axis_log2(FILE *out, const struct frame *f, const char *label)
{
	int every = f->xhi - f->xlo > 16 ? 4 : f->xhi - f->xlo > 8 ? 2 : 1;
	char text[16];
	fputs("<g class=\"axis-x\">\n", out);
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" INK "\"/>\n", f->x0,
		f->x0 + f->w, f->y0 + f->h, f->y0 + f->h);
	for (int e = (int)ceil(f->xlo); e <= (int)floor(f->xhi); e++) {
		double x = frame_x(f, ldexp(1, e));
		if (e % every)
			continue;
		fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"" INK "\"/>\n", x, x,
			f->y0 + f->h, f->y0 + f->h + 6);
		snprintf(text, sizeof text, "2^%d", e);
		svg_text(out, x, f->y0 + f->h + 22, "middle", 13, text);
	}
	svg_text(out, f->x0 + f->w / 2, f->y0 + f->h + 48, "middle", 14, label);
	fputs("</g>\n", out);
}

void svg_level(FILE *out, const struct frame *f, double v, const char *cls, const char *colour, const char *value,
	       const char *label, double *last, int outside)
{
	double y = frame_y(f, v), ly = outside ? y + 4 : y - 5;
	ly = ly < *last + 14 ? *last + 14 : ly;
	*last = ly;
	fprintf(out, "<g class=\"%s\" data-gbps=\"", cls);
	fput_html(out, value);
	fprintf(out, "\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"10 4 2 4\"/>\n", f->x0, f->x0 + f->w, y, y, colour);
	svg_text(out, outside ? f->x0 + f->w + 8 : f->x0 + f->w - 4, ly, outside ? "start" : "end", 12, label);
	fputs("</g>\n", out);
}

void svg_marker(FILE *out, size_t series, double x, double y, const char *colour, int hollow)
{
	const char *fill = hollow ? "#ffffff" : colour;
	switch (series % 3) {
	case 0:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"", x, y);
		break;
	case 1:
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\"", x - 4, y - 4);
		break;
	default:
		fprintf(out, "<path d=\"M%.1f %.1fl5 8.5h-10z\"", x, y - 5.5);
	}
	fprintf(out, " fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>\n", fill, colour);
}

void svg_legend_entry(FILE *out, double x, double y, size_t series, const char *label)
{
	const char *colour = svg_colour(series), *dash = svg_dash(series);
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"%s%s%s/>\n",
		x, x + 28, y - 4, y - 4, colour, dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
	svg_marker(out, series, x + 14, y - 4, colour, 0);
	svg_text(out, x + 36, y, "start", 13, label);
}

void svg_cross(FILE *out, double x, double y, double r)
{
	fprintf(out, "<path d=\"M%.1f %.1fl%.1f %.1fm0 %.1fl%.1f %.1f\" stroke=\"" FAIL_COLOUR "\" stroke-width=\"3\"/>\n",
		x - r, y - r, 2 * r, 2 * r, -2 * r, -2 * r, 2 * r);
}

/*
 * SVG for the report's charts: the frame and its axes, lines, marks and
 * text.  Every string that comes from a record goes through fput_html;
 * styling is by presentation attributes, so a chart looks the same
 * inline in the page and on its own as a .svg file.
 */
#ifndef GPULAB_SVG_H
#define GPULAB_SVG_H

#include <stdio.h>

/* The canvas every chart is drawn on, in SVG units: it fits a 1280 px
 * wide window with the page's margins. */
#define SVG_WIDTH 1200
#define SVG_HEIGHT 560

/* Where the data go, and the values at its edges. */
struct frame {
	const char *id;          /* the chart's prefix for element ids: "c1" */
	double x0, y0, w, h;     /* the plot area */
	double ymax;             /* the value at the top; the bottom is 0 */
	double xlo, xhi;         /* log2 of the sizes at the left and right edges */
};

double frame_x(const struct frame *f, double size); /* a size on the log2 axis */
double frame_y(const struct frame *f, double v);

/* Top and tick step for an axis reaching max: 1, 2 or 5 times a power of
 * ten, about 6 ticks. */
double svg_nice_step(double max);

/* The Okabe-Ito colours, told apart with the commonest colour blindness;
 * yellow is left out, too faint on white for a line. */
const char *svg_colour(size_t i);
const char *svg_dash(size_t i);   /* "" or a stroke-dasharray, for more lines than colours */

/* <svg> with its <title> and <desc> (a screen reader's name and
 * description of the chart), and the hatching that marks points not to
 * be trusted.  standalone: the XML declaration of a .svg file first. */
void svg_begin(FILE *out, const struct frame *f, const char *title, const char *desc, int standalone);
void svg_end(FILE *out);

/* The fill that hatches what lies under it: the frame's pattern. */
void svg_hatch_fill(FILE *out, const struct frame *f);

/* Escaped text; anchor is start, middle or end; weight 0 or 1 (bold). */
void svg_text(FILE *out, double x, double y, const char *anchor, int size, const char *s);
void svg_text_rotated(FILE *out, double x, double y, double degrees, const char *anchor, int size, const char *s);

/* The y axis: grid, ticks, numbers and label ("GB/s"). */
void svg_axis_y(FILE *out, const struct frame *f, const char *label);

/* The x axis of sizes, a tick at each power of two. */
void svg_axis_log2(FILE *out, const struct frame *f, const char *label);

/* A horizontal line across the plot at v: the device's peak or a
 * measured ceiling.  cls names its kind, value is v as written in the
 * record.  Its label goes at the right end, inside the plot or (outside)
 * just past it, and at least a line below *last, the previous label's
 * baseline, which it updates: levels drawn from the highest down never
 * write over each other. */
void svg_level(FILE *out, const struct frame *f, double v, const char *cls, const char *colour, const char *value,
	       const char *label, double *last, int outside);

/* A mark for point i of a series: circle, square or triangle by i;
 * hollow for a point not to be trusted. */
void svg_marker(FILE *out, size_t series, double x, double y, const char *colour, int hollow);

/* A legend entry at (x, y): a short line in colour and dash, then label. */
void svg_legend_entry(FILE *out, double x, double y, size_t series, const char *label);

/* A cross: where a FAILED or ERROR point would be. */
void svg_cross(FILE *out, double x, double y, double r);

/* Numbers for people: "4814.3", "0.0222", "3.2e+06". */
const char *svg_number(char *buf, size_t len, double v);

#endif

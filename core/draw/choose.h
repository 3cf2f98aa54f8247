/*
 * Which charts a record makes, chosen from what it holds; drawing is
 * draw.c's.  A sweep over sizes is a line chart of GB/s against n, one
 * per combination of the other parameters that vary; a run at one size
 * whose exercises also ran with other parameters (block sizes, types,
 * shapes) is grouped bars; a run at one size is bars, in the order run,
 * which for a whole plugin is its lesson order.
 */
#ifndef GPULAB_DRAW_CHOOSE_H
#define GPULAB_DRAW_CHOOSE_H

#include "draw/plot.h"

/* CHART_BOARD: grade's kernels as bars in rank order, each labelled by
 * its file, and the challenge's references (levels) as lines. */
enum chart_kind { CHART_SWEEP, CHART_BARS, CHART_GROUPED, CHART_BOARD };

struct chart {
	enum chart_kind kind;
	const struct plot *pl;
	const char *variant;    /* a sweep's other parameters, "" for all */
	size_t *pts;            /* its points, indices into pl->p, in the order run */
	size_t npts;
	const size_t *levels;   /* CHART_BOARD: the points drawn as lines, not bars */
	size_t nlevels;
	int has_metrics;
};

/* The charts of pl: 0, or EXIT_NOMEM.  charts_free() either way. */
int charts_choose(const struct plot *pl, struct chart **out, size_t *n);
void charts_free(struct chart *c, size_t n);

/* The distinct exercises (by_variant 0) or variants (1) among c's points,
 * in the order first run, into names (room for c->npts); how many. */
size_t chart_distinct(const struct chart *c, int by_variant, const char **names);

/* The index in names of point p's exercise or variant. */
size_t chart_slot(const struct plot_point *p, int by_variant, const char **names, size_t n);

/* "GB/s against n", "GB/s by exercise", ... for titles and captions. */
void chart_title(const struct chart *c, char *buf, size_t len);

#endif

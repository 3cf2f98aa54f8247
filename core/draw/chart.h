/* Drawing the charts chart.c chose, as SVG. */
#ifndef GPULAB_DRAW_CHART_H
#define GPULAB_DRAW_CHART_H

#include "draw/choose.h"
#include "records/record.h"

#include <stdio.h>

/* Chart c as one <svg> with the element ids prefixed by id; standalone
 * for a .svg file of its own.  0, or EXIT_NOMEM. */
int draw_chart(FILE *out, const struct chart *c, const char *id, int standalone);

/* The ratios of matched points of two records, as bars around no change,
 * coloured by the Mann-Whitney verdict. */
void draw_comparison(FILE *out, const struct record_pair *pairs, size_t n, const char *id);

#endif

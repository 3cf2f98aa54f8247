/* What `gpulab report` says once its page is written (draw/summary.c). */
#ifndef GPULAB_DRAW_SUMMARY_H
#define GPULAB_DRAW_SUMMARY_H

#include "draw/plot.h"

#include <stdio.h>

/* The file written (a page, or with svg its first chart), what it shows
 * and each of the n records read, as one JSON document
 * (gpulab-report/1). */
void report_summary_json(FILE *out, const struct plot *pl, size_t n, const char *path, int svg);

#endif

/* The counters' table under the report's table (counters.c). */
#ifndef GPULAB_EMIT_COUNTERS_H
#define GPULAB_EMIT_COUNTERS_H

#include "emit/result.h"

#include <stdio.h>

/* Every row's --metrics values, its name in namew columns; nothing where
 * no row has any. */
void print_metrics_table(const struct report *r, FILE *out, int namew);

/* "label = source", what a label read, within 100 columns where its
 * names allow: a ratio too long for one line goes on at its " / ",
 * under its first counter (one was 130 columns under learn smem-pad). */
void print_metric_source(FILE *out, const char *label, const char *source);

#endif

/* The counters' table under the report's table (counters.c). */
#ifndef GPULAB_EMIT_COUNTERS_H
#define GPULAB_EMIT_COUNTERS_H

#include "emit/report.h"

#include <stdio.h>

/* Every row's --metrics values, its name in namew columns; nothing where
 * no row has any. */
void print_metrics_table(const struct report *r, FILE *out, int namew);

#endif

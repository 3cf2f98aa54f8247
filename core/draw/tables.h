/*
 * The table under a chart, for people: the columns of the terminal's
 * compact table (exercise, type, n, median ms, +-%, GB/s, %peak, speedup,
 * of ref, status) with its decimals (draw/numbers.h), the parameters all
 * its rows share said once above it, and --wide's other columns (params,
 * min and max ms, runs, noise, host ms, what each exercise chose and
 * noted) folded in a <details> under it, so that it fits a 1280 px page.
 */
#ifndef GPULAB_TABLES_H
#define GPULAB_TABLES_H

#include "draw/choose.h"

#include <stdio.h>

void tables_chart(FILE *out, const struct chart *c);

#endif

/*
 * What --metrics asks for: the chapters' nvprof names, resolved to the
 * Nsight Compute metrics that replace them, or raw Nsight Compute names.
 * Some nvprof metrics were ratios of two counters (transactions per
 * request); such a column divides two collected metrics.
 */
#ifndef GPULAB_METRICS_H
#define GPULAB_METRICS_H

#include <stddef.h>
#include <stdio.h>

#define MAX_METRIC_COLS 32
#define MAX_METRIC_NAME 128

struct metric_col {
	char label[MAX_METRIC_NAME];   /* as asked: an alias or a raw name */
	int num, den;                  /* indexes into raw; den -1 for none */
};

struct metric_set {
	struct metric_col cols[MAX_METRIC_COLS];
	size_t ncols;
	/* the distinct metrics to collect, each once */
	char raw[2 * MAX_METRIC_COLS][MAX_METRIC_NAME];
	const char *raw_ptrs[2 * MAX_METRIC_COLS];
	size_t nraw;
};

/* Resolve a comma-separated list.  "default" stands for defaults (the
 * exercise's own list; NULL if it declares none).  Returns 0, or
 * EXIT_USAGE with one line in err naming the entry at fault. */
int metrics_resolve(struct metric_set *s, const char *list, const char *defaults, char *err, size_t len);

/* Column i's value from the collected raw values: NaN where a ratio's
 * denominator is zero. */
double metrics_value(const struct metric_set *s, const double *raw, size_t i);

/* The Nsight Compute name behind column i ("a / b" for a ratio). */
const char *metrics_source(const struct metric_set *s, size_t i, char *buf, size_t len);

/* The alias table, for `gpulab metrics`. */
void metrics_print_aliases(FILE *out);

/* A book's nvprof name and what it reads now: metric, or metric / per. */
struct metric_alias {
	const char *name, *metric, *per, *what;
};

/* Every name --metrics takes, *n of them (`gpulab metrics --format json`). */
const struct metric_alias *metrics_aliases(size_t *n);

#endif

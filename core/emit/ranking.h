/* grade's ranking (learn/grade.c), as writers (emit/writer.h): the table,
 * CSV, Markdown, and JSON (gpulab-grade/1, whose kernels are the
 * record's grade member too). */
#ifndef GPULAB_EMIT_RANKING_H
#define GPULAB_EMIT_RANKING_H

#include "emit/writer.h"

#include <stdio.h>

/* One kernel, in the ranking's order: measured, or why not. */
struct rank_row {
	const char *path;
	int measured;
	int passed;              /* grade --test: it passed the gate (nothing is measured) */
	int status;              /* try's exit status, where it failed */
	double median_ms, ci_pct, gbps, ref_share; /* NaN: none */
	const char *failure;     /* in a word or two, where it failed ... */
	const char *reason;      /* ... and the line that says why, as it was written ... */
	char shown[1200];        /* ... and as the terminal shows it (escaped, once) */
};

struct rank_doc {
	const char *challenge;
	const struct rank_row *v;
	size_t n;
	const char *mode;        /* "ranked" (timed at the benchmark sizes) or "test" (the gate alone) */
};

extern const struct writer ranking_table, ranking_csv, ranking_json, ranking_markdown;

/* The record's "grade" member: {"challenge": ..., "mode": ..., "kernels": [...]}. */
void ranking_member(const struct rank_doc *r, FILE *out);

#endif

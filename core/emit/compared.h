/* What `gpulab compare` prints, as its writers (emit/writer.h) take it:
 * plain names and numbers, which compare/compare.c fills from the two
 * records, so that the writers of every format are emit/'s. */
#ifndef GPULAB_EMIT_COMPARED_H
#define GPULAB_EMIT_COMPARED_H

#include "emit/writer.h"

#include <stddef.h>
#include <stdio.h>

/* A pair of points, the row being written. */
struct compared_pair {
	const char *base_ex, *new_ex; /* each side's exercise */
	char both[256];               /* as rows name them: "new vs base" where they differ */
	int two;                      /* the sides' exercises differ */
	int have;                     /* has a ratio (and medians) */
	const char *params;
	double base_ms, new_ms, ratio;
	double p;                     /* the U test's; NaN: none */
	const char *verdict;          /* in words */
};

/* A point of one side left unmatched. */
struct compared_unmatched {
	const char *which;            /* "base" or "new" */
	const char *ex, *params;
};

/* The writers' document: the records as named, the options that shape
 * the output, row i's pair as it is written, the unmatched points
 * before the footer, and how many pairs are slower than --fail-above
 * allows, counted as rows go. */
struct compared {
	const char *base_path, *base_exercise, *new_path, *new_exercise; /* an exercise: NULL, the whole record */
	double min_change;            /* --min-change; 0: none */
	double fail_above;            /* --fail-above; -1: none */
	struct compared_pair pair;
	const struct compared_unmatched *unmatched;
	size_t nunmatched;
	int slow;
};

/* Each unmatched point to fn, first: none said before. */
static inline void compared_each_unmatched(const struct compared *c, FILE *out,
					   void (*fn)(FILE *out, const char *which, const char *ex, const char *params,
						      int first))
{
	for (size_t i = 0; i < c->nunmatched; i++)
		fn(out, c->unmatched[i].which, c->unmatched[i].ex, c->unmatched[i].params, i == 0);
}

/* compare's writers, one per format, in table.c, csv.c, json.c and
 * markdown.c; writer.c's compare_writer picks one. */
extern const struct writer compare_table, compare_csv, compare_json, compare_markdown;

#endif

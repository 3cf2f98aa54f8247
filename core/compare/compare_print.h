/* What `gpulab compare` prints, one writer per format (compare_print.c). */
#ifndef GPULAB_RECORDS_COMPARE_PRINT_H
#define GPULAB_RECORDS_COMPARE_PRINT_H

#include "config/options.h"
#include "emit/writer.h"
#include "records/record.h"

/* The writers' document: the records, their pairs (row i is pair i), and
 * how many are slower than --fail-above allows, counted as rows go. */
struct compare_doc {
	const struct record *a, *b;
	const struct options *o;
	const struct record_pair *pairs;
	size_t n;
	int slow;
};

/* compare's writer for format f. */
const struct writer *compare_writer(enum format f);

#endif

/*
 * The one check of a record read back (docs/record.md): every reader
 * (compare, report, run --resume) reads through record_take, which calls
 * this, so what one refuses all refuse, with the same line:
 * "run.json: result 4 (reduce.best): "median_ms": "bogus": expected a
 * number or null".  The run's own fields (host, date, command, gpulab,
 * device) and every result's fields are checked against the ranges of
 * docs/record.schema.json: times and rates non-negative, counts whole,
 * the status one of the six words, every sample a number of at least 0.
 */
#ifndef GPULAB_VALIDATE_H
#define GPULAB_VALIDATE_H

#include "records/json.h"

#include <stddef.h>

/* 0, or EXIT_USAGE with one line naming path (and the result, from 1,
 * and its exercise) in err. */
int record_check_head(const char *path, const struct json *doc, char *err, size_t len);
int record_check_row(const char *path, size_t result, const struct json *row, char *err, size_t len);

/* A journal's closing line at `line`, end its {"end": ...}'s object:
 * "interrupted" true or false, "interruption" a string where it is true
 * and null where false, and "points" the count of the point lines the
 * journal holds.  0, or EXIT_USAGE with one line naming path and the
 * line in err. */
int record_check_end(const char *path, size_t line, const struct json *end, size_t points, char *err, size_t len);

/* The status words a result may have, in the order of enum plot_state. */
extern const char *const record_status_words[6];

#endif

/*
 * Numbers for people on the report's page: what the terminal's table
 * prints (its decimals, its units), never more than NUMBERS_DIGITS
 * significant digits, and the record's exact value one step away, in the
 * cell's title.  A size that is a power of two is 2^k, as it is typed.
 */
#ifndef GPULAB_NUMBERS_H
#define GPULAB_NUMBERS_H

#include "records/json.h"

#include <stddef.h>
#include <stdio.h>

#define NUMBERS_DIGITS 5

/* v with the given decimals, fewer where it would have more than
 * NUMBERS_DIGITS significant digits, and past that in thousands (k, M,
 * G, T, P): 0.0056, 123.46, 16.777M. */
const char *numbers_text(char *buf, size_t len, double v, int decimals);

/* A size: 2^24 where a power of two from 2^10 on, else numbers_text. */
const char *numbers_size(char *buf, size_t len, double n);

/* A cell of row[key] times scale, with the decimals and suffix ("%",
 * "\u00d7"), its title the record's own digits; a dash for null or none. */
void numbers_cell(FILE *out, const struct json *row, const char *key, int decimals, double scale, const char *suffix);

/* A cell of row[key] as a size (numbers_size), its title the exact count. */
void numbers_size_cell(FILE *out, const struct json *row, const char *key);

/* A cell of text, left-aligned, escaped. */
void numbers_text_cell(FILE *out, const char *s);

#endif

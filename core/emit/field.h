/* Writing fields of the machine formats, the same way everywhere:
 * CSV as RFC 4180 has it, JSON as RFC 8259 has it, Markdown's pipe tables
 * as GitHub renders them. */
#ifndef GPULAB_EMIT_H
#define GPULAB_EMIT_H

#include <stddef.h>
#include <stdio.h>

/* A CSV field, always quoted, quotes doubled: a comma, a quote or a line
 * break inside cannot shift the columns. */
void emit_csv(FILE *out, const char *s);

/* A JSON string, with quotes, backslashes and control bytes escaped. */
void emit_json(FILE *out, const char *s);

/* A double as JSON that reads back as the same double: the shortest of
 * %.15g, %.16g and %.17g that does; a whole number of at most 2^64 in
 * plain digits, exactly its value (1048576, never 1.04858e+06).  null
 * for NaN or infinity. */
void emit_json_double(FILE *out, double v);

/* The same into buf (at least 32 bytes). */
const char *json_double_text(char *buf, size_t len, double v);

/* `, "key": v` with v a number (emit_json_double), or null where there
 * is none (JSON has no NaN or infinity). */
void emit_json_number(FILE *out, const char *key, int have, double v);

/* `, "key": "s"`, escaped as emit_json does, or null where s is NULL. */
void emit_json_string(FILE *out, const char *key, const char *s);

/* Markdown: text in a table cell: escaped as error lines are, and '|' as "\|". */
void md_cell(FILE *out, const char *s);

/* A table's first two lines: the column names, and under each "---", or
 * "---:" for a name that ends in ':' (a number column, right-aligned). */
void md_header(FILE *out, const char *const *names, size_t n);

/* A table of text cells in CSV or Markdown, each written as that format
 * escapes it: what the commands whose data is a few columns of words
 * print (info, config, check, the learn map, metrics). */
struct cell_style {
	void (*cell)(FILE *out, const char *s);
	const char *open, *sep, *close;  /* around a row, between cells */
	int md;                          /* Markdown's header, with its rule */
};
extern const struct cell_style csv_cells, md_cells;

/* The column names (a name ending in ':' is a number's, right-aligned
 * in Markdown), then each row of n cells. */
void cells_header(FILE *out, const struct cell_style *c, const char *const *names, size_t n);
void cells_row(FILE *out, const struct cell_style *c, const char *const *v, size_t n);

#endif

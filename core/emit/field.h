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

/* `, "key": v` with v a number, or null where there is none (JSON has
 * no NaN or infinity). */
void emit_json_number(FILE *out, const char *key, int have, double v);

/* `, "key": "s"`, escaped as emit_json does, or null where s is NULL. */
void emit_json_string(FILE *out, const char *key, const char *s);

/* Markdown: text in a table cell: escaped as error lines are, and '|' as "\|". */
void md_cell(FILE *out, const char *s);

/* A table's first two lines: the column names, and under each "---", or
 * "---:" for a name that ends in ':' (a number column, right-aligned). */
void md_header(FILE *out, const char *const *names, size_t n);

#endif

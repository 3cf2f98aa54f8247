/*
 * gpulab board's page (board -o FILE.html): one board per GPU model of a
 * class's grade records, each student's best, first and latest share
 * and their history drawn small, a dot a record (emit/board_doc.h).
 */
#ifndef GPULAB_DRAW_BOARDS_H
#define GPULAB_DRAW_BOARDS_H

#include "emit/board_doc.h"

#include <stdio.h>

/* The boards, a <section class="gpu-board"> each, for a page's body. */
void boards_draw(FILE *out, const struct board_doc *b);

/* gpulab report of grade records on several GPU models: the boards of
 * the n records at paths read again by gpulab board's reader, in a
 * section; where it refuses them (a record without its date), a line
 * that says why.  0, or EXIT_NOMEM. */
int boards_of_records(FILE *out, char *const *paths, size_t n);

/* The first ten bytes of a record's date (its day), escaped for HTML. */
void day_html(FILE *out, const char *date);

#endif

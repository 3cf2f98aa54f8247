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

#endif

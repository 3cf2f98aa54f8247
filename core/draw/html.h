/*
 * `gpulab report RECORD.json... -o FILE`: run records as pictures.  A
 * .html FILE is one page that fetches nothing (inline SVG and CSS, no
 * script, and a Content-Security-Policy that would stop either): per
 * record, a header saying what ran on what, and each chart chart.c
 * chooses with the table of its numbers under it, and its counters
 * beside it.  Two records that share points also get the ratios
 * `gpulab compare` computes.  A .svg FILE is the first chart alone.
 *
 * Every record is read and checked before a byte is written, and the
 * file is written whole or not at all (io/outfile.h).
 */
#ifndef GPULAB_HTML_H
#define GPULAB_HTML_H

#include <stddef.h>
#include <stdio.h>

/* 0; or EXIT_USAGE (a record that cannot be read or is not one, an
 * nccl-tests output that is not one, an output that cannot be written)
 * or EXIT_NOMEM, with one line in err.  nccl_tests (NULL: none) is
 * nccl-tests' output, drawn beside every record's busbw.  Warnings (a
 * .svg that shows only the first of several charts) go to warn.  Once
 * it is written, summary (NULL: none) gets what was drawn from what, as
 * one JSON document (draw/summary.h). */
int report_write(char *const *paths, size_t n, const char *out_path, const char *nccl_tests, FILE *warn, FILE *summary,
		 char *err, size_t len);

struct plot;

/* The page of the n records pl, to out: 0 or EXIT_NOMEM. */
int report_html(FILE *out, struct plot *pl, size_t n);

struct board_doc;

/* gpulab board -o FILE.html: the boards of b (draw/boards.h) as one page
 * like the report's, written whole or not at all.  0; or EXIT_USAGE (a
 * FILE not .html, or one that cannot be written) with one line in err. */
int board_page_write(const struct board_doc *b, const char *path, char *err, size_t len);

#endif

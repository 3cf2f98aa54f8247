/* The one word-wrapper of every 100-column paragraph gpulab prints: the
 * terminal table's (emit/table.c), list's (emit/list.c), learn's
 * (learn/learn.c) and metrics' (run/metrics.c). */
#ifndef GPULAB_WRAP_H
#define GPULAB_WRAP_H

#include <stdio.h>

#define WRAP_WIDTH 100

struct wrap {
	int width;      /* no word past this column (where one fits on its line) */
	int indent;     /* a new line's indent */
	int gap;        /* spaces before the first word, where it stays on its line */
	char sep;       /* the words' separator: ' ' (0 too), or '\t' for words with spaces */
	int cut;        /* a word longer than a line is cut (the table), not left to cross the edge */
	int keep_first; /* the first word stays on its line, however long (list's names) */
	int escaped;    /* the words come from a plugin: printed as fput_escaped does */
};

/* The words of text, from column *col on, wrapped as w says; *col is
 * where the last line ends.  Columns are UTF-8 characters.  It ends no
 * line: its caller does. */
void wrap_words(FILE *out, const char *text, int *col, const struct wrap *w);

#endif

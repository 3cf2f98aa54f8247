/* The run's journal, -o's format (docs/record.md, "On disk"), as one
 * writer: its lines made from the report (their members are
 * emit/json.c's), each into out, which session/output.c appends to the
 * journal (emit/journal.h) when the session says: it holds the lines of
 * a run until one of its points is measured, so that a run that measures
 * none leaves an earlier record as it was.
 *   header  the header line
 *   point   row i's line
 *   extras  the rows of a resumed record kept that no point of this run is
 *   end     the closing line, naming the points the journal holds */
#ifndef GPULAB_EMIT_JOURNAL_LINES_H
#define GPULAB_EMIT_JOURNAL_LINES_H

#include "emit/report.h"

#include <stdio.h>

void report_journal_header(const struct report *r, FILE *out);
void report_journal_point(const struct report *r, size_t i, FILE *out);
void report_journal_extras(const struct report *r, FILE *out);
void report_journal_end(const struct report *r, size_t points, FILE *out);

#endif

/* The run's journal, -o's format (docs/record.md, "On disk"), as one
 * writer: each line made from the report here (its members are
 * emit/json.c's) and appended to the journal (emit/journal.h) in the same
 * call, as the run goes:
 *   begin  the header, with the rows a resumed record kept (their text,
 *          and r->extra's), written with the first entry
 *   point  row i
 *   end    the closing line, naming the points the journal holds
 * Each returns 0, EXIT_NOMEM, or journal_append's EXIT_USAGE with why in
 * err. */
#ifndef GPULAB_EMIT_JOURNAL_LINES_H
#define GPULAB_EMIT_JOURNAL_LINES_H

#include "emit/journal.h"
#include "emit/report.h"

int journal_begin(struct journal *j, const struct report *r);
int journal_point(struct journal *j, const struct report *r, size_t i, char *err, size_t len);
int journal_end(struct journal *j, const struct report *r, size_t points, char *err, size_t len);

#endif

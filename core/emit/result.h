/* The report of a run: a table for people, CSV and JSON for programs,
 * Markdown to paste; one writer each (emit/writer.h). */
#ifndef GPULAB_REPORT_H
#define GPULAB_REPORT_H

#include "emit/report.h"

#include <stdint.h>
#include <stdio.h>

/* The report printed as the run goes: report_begin before any point runs
 * (the table's title and header, CSV's header), report_point as each is
 * done (its row, and above the first of a sweep its header; nothing for
 * a point kept from a resumed record, or not run), report_end after the
 * last (the table's footers, CSV's rows not run, or the whole JSON). */
void report_begin(struct report *r, FILE *out);
void report_point(struct report *r, size_t i, FILE *out);
void report_end(const struct report *r, FILE *out);

/* All three at once. */
void report_print(const struct report *r, FILE *out);

/* The journal's lines (docs/record.md): the header; row i; the rows of
 * a resumed record kept that no point of this run is; the closing line,
 * naming how many points the journal holds. */
void report_journal_header(const struct report *r, FILE *out);
void report_journal_point(const struct report *r, size_t i, FILE *out);
void report_journal_extras(const struct report *r, FILE *out);
void report_journal_end(const struct report *r, size_t points, FILE *out);

/* "samples_ms"'s array: at most keep of v's samples (0: REPORT_SAMPLES_KEPT,
 * UINT_MAX: all, --samples all), a uniform random subset in the order
 * taken (report_sample_kept), seeded by n, so that the same samples keep
 * the same subset.  Each exact (emit_json_double).  runs, the median,
 * its interval, min and max are computed from all of them. */
void report_samples(FILE *out, const double *v, size_t n, unsigned keep);

/* `, "samples_kept": N` (or "all") for the bound keep (as above). */
void report_samples_kept(FILE *out, unsigned keep);

/* Selection sampling: keep the next of `left` samples, `need` of them
 * still to keep?  state: the generator's, seeded by the caller. */
int report_sample_kept(uint64_t *state, uint64_t left, uint64_t need);

/* Does the report's format print rows as they come (not JSON)? */
int report_streams(const struct report *r);

/* Is format f's report the table for people, around which a command may
 * say more on stdout (not CSV, JSON or Markdown, read by programs or
 * pasted)? */
int report_for_people(enum format f);

#endif

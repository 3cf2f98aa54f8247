/* A writer: what one command prints in one format, in five steps.  Each
 * command (run's report, compare, list) has one writer per format, found
 * by the format alone; nothing outside the writers asks which format it
 * is.  A step may be NULL: that format prints nothing there.
 *   begin   before any row: a title, the column names
 *   header  above row i, where a group starts (a sweep's keys)
 *   row     row i, as it comes
 *   footer  after the last row: legends, what was not run or matched
 *   end     the document's close (JSON's whole record, for the report) */
#ifndef GPULAB_EMIT_WRITER_H
#define GPULAB_EMIT_WRITER_H

#include "emit/report.h"

#include <stddef.h>
#include <stdio.h>

struct writer {
	int for_people;  /* the terminal table: what a command says around it (a
			  * resumed run, a gate passed) goes to stdout too */
	int streams;     /* prints rows as they come, not all at the end */
	void (*begin)(void *doc, FILE *out);
	void (*header)(void *doc, size_t i, FILE *out);
	void (*row)(void *doc, size_t i, FILE *out);
	void (*footer)(void *doc, FILE *out);
	void (*end)(void *doc, FILE *out);
};

static inline void writer_begin(const struct writer *w, void *doc, FILE *out)
{
	if (w->begin)
		w->begin(doc, out);
}

/* Row i, and above it its group's header where one starts. */
static inline void writer_row(const struct writer *w, void *doc, size_t i, FILE *out)
{
	if (w->header)
		w->header(doc, i, out);
	if (w->row)
		w->row(doc, i, out);
}

/* The footer, then the end. */
static inline void writer_end(const struct writer *w, void *doc, FILE *out)
{
	if (w->footer)
		w->footer(doc, out);
	if (w->end)
		w->end(doc, out);
}

/* The run's report, through its format's writer (emit/writer.c, the one
 * place the format is asked). */
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

/* Does the report's format print rows as they come (not JSON)? */
int report_streams(const struct report *r);

/* Is format f's report the table for people, around which a command may
 * say more on stdout (not CSV, JSON or Markdown, read by programs or
 * pasted)? */
int report_for_people(enum format f);

/* `gpulab compare`'s writer for format f (emit/compared.h). */
const struct writer *compare_writer(enum format f);

/* `gpulab list`'s writer for format f (emit/list.h). */
const struct writer *list_writer(enum format f);

/* metrics', info's and new's writers for format f (emit/facts.h); NULL
 * for a format the command does not print.  info's table is NULL too:
 * run/device.c prints it, peers and clocks with it. */
const struct writer *metrics_writer(enum format f);
const struct writer *info_writer(enum format f);
const struct writer *new_writer(enum format f);

/* `gpulab check`'s for format f: JSON's; NULL for its lines, which
 * session/plan_check.c prints as the plans are called. */
const struct writer *check_writer(enum format f);

/* `gpulab grade`'s ranking's for format f (emit/ranking.h). */
const struct writer *grade_writer(enum format f);

/* `gpulab board`'s for format f (emit/standings.h). */
const struct writer *board_writer(enum format f);

/* `gpulab config`'s writer for format f (emit/configured.h). */
const struct writer *config_writer(enum format f);

/* The cells of a table in format f, for a writer above emit/ (the learn
 * map): CSV's or Markdown's, or NULL for the others. */
struct cell_style;
const struct cell_style *cells_for(enum format f);

#endif

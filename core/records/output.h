/*
 * --output FILE, the record a run writes as it goes: a journal
 * (docs/record.md, "On disk"; records/schema.h's RECORD_JOURNAL_SCHEMA)
 * of a header line and the points a resumed record kept, a line appended
 * as each point is done, and the points not run with the closing line,
 * naming the points it holds.  Its lines are made here from the report
 * (their members are emit/json.c's, as the JSON document's) and written
 * through io/journal.h, the one file a run writes; the session says when.
 * It holds the lines of a run until one of its points is measured, so
 * that a run that measures none leaves an earlier record as it was.
 */
#ifndef GPULAB_RECORDS_OUTPUT_H
#define GPULAB_RECORDS_OUTPUT_H

#include "emit/report.h"
#include "io/journal.h"

/* --output FILE: checked and locked before anything runs (a device, a
 * FIFO, a directory, another run's record: one line, exit 2, nothing
 * run); the journal it becomes is appended to as each point is done
 * (io/journal.h). */
struct record_out {
	const char *path;   /* -o as given, for messages; NULL: no record */
	struct journal j;
	struct report json; /* the run's report, as the record has it */
	size_t lines;       /* points in the journal */
	int writable;       /* no write has failed: one failure is said once */
	int carries;        /* resumed: every measured point of FILE is in this record */
	char *held;         /* lines not yet written: no point measured yet (below) */
	size_t nheld, held_lines;
};

/* FILE checked and locked (path NULL: no record); what it holds must be
 * a record, unless `resuming` (--resume reads it).  0, or the exit code,
 * said. */
int output_open(struct record_out *out, const char *path, int resuming);

/* The header and the points kept, written with the first entry; resumed:
 * r's points kept and extra are all FILE's measured points. */
int output_begin(struct record_out *out, const struct report *r, unsigned samples_keep, int resumed);

/* Point i's row, appended as it is done.  Only a measured point (ok or
 * unverified) replaces an earlier record: the rows before the first are
 * held, and written with it. */
int output_point(struct record_out *out, size_t i);

/* The points not run and the closing line, one entry; nothing where a
 * signal stopped the run before its first entry.  A run that measured
 * no point leaves an earlier record as it was, saying so where it went
 * to its end, unless it carries all that record's measured points; it
 * writes one where there was none. */
int output_end(struct record_out *out, const struct report *r, int by_signal);

/* Is FILE this run's record now (its first entry written)?  Was there a
 * record at FILE when it was opened?  Both 0 without --output. */
int output_committed(const struct record_out *out);
int output_replaces(const struct record_out *out);

void output_close(struct record_out *out);

#endif

/* The report of a run: a table for people, CSV and JSON for programs,
 * Markdown to paste; one writer each (emit/writer.h). */
#ifndef GPULAB_REPORT_H
#define GPULAB_REPORT_H

#include "run/clocks.h"
#include "run/device.h"
#include "run/job.h"

#include <stdint.h>
#include <stdio.h>

/* The JSON record's format, documented by docs/record.schema.json; the
 * number changes with any change a reader must know of. */
#define REPORT_SCHEMA "gpulab-record/1.4"
/* The journal -o writes (docs/record.md, "On disk"): a header line, a
 * line per point, a closing line. */
#define REPORT_JOURNAL_SCHEMA "gpulab-record/2.0"
/* A point's samples kept in a record unless --samples all: a uniform
 * random subset of this many where it took more. */
#define REPORT_SAMPLES_KEPT 4096
/* What a reader takes: this major, and any minor of it ("gpulab-record/1"
 * or "gpulab-record/1.N"), since a minor only adds fields. */
#define REPORT_SCHEMA_MAJOR "gpulab-record/1"

/* Where the table's columns are, fixed before the first row is printed,
 * and what it has printed so far (report_begin fills it). */
struct table_layout {
	int namew, paramw, with_host;
	int labelw;                 /* the compact table's widest row label: a name,
				     * and the keys of its own a sweep changes */
	long last;                  /* the last row printed; -1 none */
};

struct rank_place;

struct report {
	enum format format;
	const struct device_info *dev;
	int cold;
	unsigned batch;             /* --batch: runs per timed sample; 0 or 1: one */
	const struct job *jobs;
	size_t njobs;
	const struct clocks *clk;   /* NULL without a GPU */
	const char *command;        /* the command line, as typed */
	int samples;                /* JSON: the samples of every row */
	unsigned samples_keep;      /* --samples N or all: the most a point keeps; 0: REPORT_SAMPLES_KEPT,
				     * UINT_MAX: all */
	int wide;                   /* table: every column (--wide); else those that fit 100 */
	struct stopping stop;       /* the noise criterion the rows without -r ran to */
	const char *interruption;   /* why the run stopped before its last point (a
				     * signal, a lost device); NULL: it did not */
	char *const *extra;         /* --resume: rows of the record resumed that no
				     * point of this run is, as JSON text, kept after its own */
	size_t nextra;
	const struct rank_place *ranks; /* under a launcher: every rank's place, in rank order */
	size_t nranks;
	struct table_layout layout;
};

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

/* The report of a run: what every writer of it (emit/writer.h) is given,
 * the rows' jobs and what is said around them.  The record's schema is
 * records/'s (records/schema.h), which writes and reads every record:
 * the JSON document names the one it is given. */
#ifndef GPULAB_EMIT_REPORT_H
#define GPULAB_EMIT_REPORT_H

#include "run/clocks.h"
#include "run/device.h"
#include "run/job.h"

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
	const char *schema;         /* JSON: the record's schema name (records/schema.h) */
	const struct device_info *dev;
	int cold;
	unsigned batch;             /* --batch: runs per timed sample; 0 or 1: one */
	const struct job *jobs;
	size_t njobs;
	const struct clocks *clk;   /* NULL without a GPU */
	const char *command;        /* the command line, as typed */
	int samples;                /* JSON: the samples of every row */
	unsigned samples_keep;      /* --samples N or all: the most a point keeps; 0: JSON_SAMPLES_KEPT,
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

#endif

/* The report of a run: a table for people, CSV and JSON for programs. */
#ifndef GPULAB_REPORT_H
#define GPULAB_REPORT_H

#include "run/clocks.h"
#include "run/device.h"
#include "run/job.h"

#include <stdio.h>

/* The JSON record's format, documented by docs/record.schema.json; the
 * number changes with any change a reader must know of. */
#define REPORT_SCHEMA "gpulab-record/1"

struct report {
	enum format format;
	const struct device_info *dev;
	int cold;
	unsigned batch;             /* --batch: runs per timed sample; 0 or 1: one */
	const struct job *jobs;
	size_t njobs;
	const struct clocks *clk;   /* NULL without a GPU */
	const char *command;        /* the command line, as typed */
	int samples;                /* JSON: every sample of every row */
	struct stopping stop;       /* the noise criterion the rows without -r ran to */
};

void report_print(const struct report *r, FILE *out);

#endif

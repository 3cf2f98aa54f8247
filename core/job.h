/*
 * One exercise to run: its parameters resolved from the command line, the
 * INI files and its own defaults (in that order), the context handed to
 * the plugin, and the result it ends with.
 */
#ifndef GPULAB_JOB_H
#define GPULAB_JOB_H

#include "settings.h"
#include "match.h"
#include "metrics.h"
#include "options.h"

#define MAX_NOTES 8

struct note {
	char name[32];
	double value;
};

enum outcome { OUTCOME_OK, OUTCOME_UNVERIFIED, OUTCOME_WRONG, OUTCOME_ERROR };

struct result {
	double gpu_med, gpu_min, gpu_max;   /* ms, over the timed repetitions */
	double host_med;                    /* ms; 0 without a host step */
	double total_med;                   /* ms, median of gpu + host */
	double gbps;                        /* bytes over the median GPU time */
	enum outcome outcome;
	int exitcode;                       /* for OUTCOME_ERROR */
	char message[1024];                 /* why, for anything but OK */
	struct note notes[MAX_NOTES];
	int nnotes;
	/* --metrics: the raw values collected, over `passes` profiled runs */
	double raw[2 * MAX_METRIC_COLS];
	unsigned passes;
	int profiled;
};

struct job {
	struct pick pick;
	const struct options *opt;
	const struct config *cfg;
	unsigned reps, warmup;
	struct metric_set metrics;          /* ncols 0 without --metrics */
	struct gpulab_ctx ctx;
	struct result res;
};

/* Resolve the parameters and call the exercise's plan().  Returns 0, or
 * an exit code with the reason in job->res.message. */
int job_plan(struct job *j, const struct pick *p, const struct options *o, const struct config *c);

/* "plugin.exercise" */
const char *job_name(const struct job *j, char *buf, size_t len);

#endif

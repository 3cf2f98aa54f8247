/*
 * One point of an exercise to run: its parameters' values, taken from
 * its sweep (config/sweep.h, where each key's source and every value was
 * resolved once), the context handed to the plugin, and the result it
 * ends with.
 */
#ifndef GPULAB_JOB_H
#define GPULAB_JOB_H

#include "config/settings.h"
#include "config/sweep.h"
#include "plugins/match.h"
#include "run/metrics.h"
#include "config/options.h"
#include "config/params.h"

#define MAX_NOTES 8
#define MAX_DEVICES 16

struct note {
	char name[32];
	double value;
};

/* SKIPPED: refused in plan, in a run of several exercises; the others ran.
 * NOT_RUN: not reached, with why in the message: the run was stopped by
 * a signal, the device was lost before it, or the record was written
 * while the run was still going. */
enum outcome { OUTCOME_OK, OUTCOME_UNVERIFIED, OUTCOME_WRONG, OUTCOME_ERROR, OUTCOME_SKIPPED, OUTCOME_NOT_RUN };

/* Why a point stopped repeating (see struct stopping); stop_reason_name
 * gives the word the reports use. */
enum stop_reason { STOP_COUNT, STOP_NOISE, STOP_STABLE, STOP_TIMEOUT, STOP_MAX_RUNS };
const char *stop_reason_name(enum stop_reason why);

/* How the samples were timed (run/hold.h): events around a held run, the
 * GPU's work alone; events around an unheld one, because its run() waited
 * for the GPU; or the host clock, for a host-only exercise. */
enum timing_mode { TIMING_HELD, TIMING_UNHELD, TIMING_HOST };
const char *timing_mode_name(enum timing_mode how);

/* The clocks over a job's timed repetitions, where NVML could read them. */
struct clock_stats {
	unsigned samples;                   /* 0: unknown */
	unsigned sm_min, sm_max, mem_mhz;   /* MHz */
	double sm_mean;
	unsigned throttled;                 /* samples under the threshold, or slowed down */
	unsigned long long reasons;         /* every slowdown NVML gave, OR-ed */
};

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
	struct clock_stats clocks;
	double *samples;                    /* the GPU ms of every timed run, in order; job_free frees */
	unsigned nsamples;
	double noise;                       /* relative standard deviation of the samples */
	int converged;                      /* stopped with noise <= the limit, or at an exact count */
	double median_lo, median_hi;        /* the GPU median's 95% interval (stats.h); NaN: too few samples */
	int lost;                           /* the run left the device unusable (a sticky CUDA
					     * error): no later point can run */
	int by_peer;                        /* under a launcher: failed because another rank did */
	enum stop_reason stopped_by;
	enum timing_mode timing;
	/* Where the point's wall time went, in s, each step with the ranks'
	 * agreement after it: setup (streams, the exercise's setup), sampling
	 * (warm-ups and timed runs), verify (the CPU check), and the rest
	 * (counters' passes, teardown).  A point's time past its samples
	 * shows here, not in any time it reports. */
	struct wall_split {
		double setup, sampling, verify, rest;
	} wall;
};

/* One resolved parameter: what the reports record of it. */
struct job_param {
	struct gpulab_param decl;           /* generic ones with the exercise's default */
	int generic;                        /* enum generic, or -1 for the exercise's own */
	char def[32];                       /* decl.def's text for n and block */
	struct param_value value;
	const char *axis;                   /* its value, or the list or range of them, as given */
	size_t values;                      /* values on that axis: more than 1 in a sweep */
	char text[GPULAB_PATH_MAX + 1];     /* the effective value, as param_format writes it */
	char chosen[64];                    /* what the exercise said an automatic value came to
					     * (ctx->chose), as param_format writes it; "" none */
	char where[256];                    /* where it came from: "-n", "-p rows", "FILE:LINE", "default" */
	int defaulted;                      /* from the declared default, not a user */
};

struct job {
	struct pick pick;
	const struct options *opt;
	unsigned reps, warmup;
	int exact_reps;                     /* reps was asked for: take exactly that many */
	unsigned batch;                     /* runs per timed sample: --batch, or 1 where the exercise
					     * cannot repeat without its reset (unbatched) */
	int unbatched;                      /* --batch was asked for and this exercise cannot take it */
	double stop_noise;                  /* else: the noise it was repeated down to */
	struct job_param *params;           /* the generic keys it takes, then its own */
	size_t nparams;
	size_t point, points;               /* which point of the exercise's sweep, of how many */
	void *opts;                         /* the exercise's parameter struct: ctx.params */
	struct metric_set metrics;          /* ncols 0 without --metrics */
	int devices[MAX_DEVICES];           /* ctx.devices and ctx.streams point here */
	struct CUstream_st *streams[MAX_DEVICES];
	unsigned gave_up;                   /* times the stream hold gave up (run/measure.c) */
	int in_setup;                       /* between setup()'s call and return: ctx.chose's time */
	char bad_choice[512];               /* why ctx.chose refused a choice (the plugin's
					     * bug); "" none */
	struct gpulab_ctx ctx;
	struct result res;
	const char *kept;                   /* --resume: the point's row in the record resumed,
					     * as JSON text, kept as it was; NULL: run it */
};

/* Point `point` of the exercise's sweep s (0 for none): its parameters'
 * values, and the exercise's plan().  Returns 0, or an exit code with
 * the reason in job->res.message (which, like every message of a job,
 * does not name it): EXIT_PARAM where the exercise refuses its
 * parameters.  j->points is then the number of points of the sweep, if
 * the resolution got through every axis. */
int job_plan(struct job *j, const struct pick *p, const struct sweep *s, const struct options *o, size_t point);

/* Free what job_plan() allocated. */
void job_free(struct job *j);

/* The rerun of this job's row: "gpulab run plugin.exercise -n ... -p ...". */
void job_command(const struct job *j, int cold, unsigned batch, char *buf, size_t len);

/* "plugin.exercise" */
const char *job_name(const struct job *j, char *buf, size_t len);

/* The point the job runs, for a message: its size and element type,
 * "n=31 int" or "rows=33 cols=31 float". */
const char *job_case(const struct job *j, char *buf, size_t len);

/* The job's resolved parameter called key, or NULL. */
const struct job_param *job_param_find(const struct job *j, const char *key);

#endif

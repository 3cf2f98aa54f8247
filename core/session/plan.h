/*
 * A session's jobs: every chosen exercise's sweep resolved once and made
 * into jobs, each planned before any runs, and the refusals that skip a
 * job or fail the run.
 */
#ifndef GPULAB_SESSION_PLAN_H
#define GPULAB_SESSION_PLAN_H

#include "config/options.h"
#include "config/settings.h"
#include "config/sweep.h"
#include "plugins/match.h"
#include "run/job.h"

#include <gpulab/plugin.h>

/* Every key on the command line means something to at least one chosen
 * exercise: 0, or EXIT_USAGE, said. */
int check_cli_keys(const struct options *o, const struct selection *s);

/* Does the job run on the device (not skipped, not host-only)? */
int job_needs_gpu(const struct job *j);

/* Is j the run's one point: an exercise named alone, or the only job? */
int job_alone(const struct job *j, size_t njobs);

/* Refusal rc of job j: in a run of several exercises the job is skipped
 * (0); an exercise named alone, or the only one, fails the run (rc, said). */
int job_refused(struct job *j, int rc, size_t njobs);

/* Every pick's sweep (*sweeps, one per pick) and room for all their
 * points (*jobs, *n of them).  0, or the exit code, said. */
int make_jobs(const struct options *o, const struct config *c, const struct selection *s, struct sweep **sweeps,
	      struct job **jobs, size_t *n);

/* Free n jobs and nsweeps sweeps, as make_jobs (or try's gate) made
 * them; either array may be NULL. */
void free_jobs(struct job *jobs, size_t n, struct sweep *sweeps, size_t nsweeps);

/* Each plugin's baseline and reference moved to the front, to be
 * measured before the rows that compare with them. */
void yardsticks_first(struct selection *s);

/* Plan every job before any runs (g: under a launcher).  0, or the exit
 * code that fails the run, said. */
int plan_all(const struct options *o, const struct selection *s, const struct sweep *sweeps, struct job *jobs,
	     size_t n, const struct gpulab_group *g);

#endif

/*
 * The GPU a session runs on: opened where any job needs it (under a
 * launcher, the rank's own), every job checked against what only the
 * device can tell, and the profiler --metrics needs.
 */
#ifndef GPULAB_SESSION_GPU_H
#define GPULAB_SESSION_GPU_H

#include "run/device.h"
#include "run/job.h"
#include "run/profile.h"

#include <gpulab/plugin.h>

/* Each job's block size and memory against device d: a job it cannot
 * take is refused (plan.h's job_refused).  0, or the exit code, said. */
int check_device(struct job *jobs, size_t n, const struct device_info *d);

/* --metrics: CUPTI, permission and every metric checked before anything
 * runs; *p NULL without it.  0, or the exit code, said. */
int open_job_profiler(const struct job *jobs, size_t n, struct profiler **p);

/* The device into *d where any job needs one (*have then 1).  0, or the
 * exit code, said. */
int open_job_device(const struct job *jobs, size_t n, struct device_info *d, int *have,
		    const struct gpulab_group *g);

#endif

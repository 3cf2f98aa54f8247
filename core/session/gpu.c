/*
 * The GPU a session runs on (session/gpu.h): opened where a job needs
 * it, every job checked against what only it can tell, and the profiler
 * for --metrics.
 */
#include "session/gpu.h"

#include "exitcode.h"
#include "fail.h"
#include "session/plan.h"
#include "session/ranks.h"

/* What only the device can tell: the block size limit, and whether the
 * job's memory and the L2 flush buffer fit what is free.  0, or
 * EXIT_PARAM with the reason in the job's message. */
static int device_refuses(struct job *j, const struct device_info *d, size_t free_b)
{
	size_t flush = 2 * d->l2_bytes;
	if (j->ctx.block > (unsigned)d->max_threads_per_block) {
		snprintf(j->res.message, sizeof j->res.message, "block size %u exceeds this GPU's limit of %d threads",
			 j->ctx.block, d->max_threads_per_block);
		return EXIT_PARAM;
	}
	if (j->ctx.device_bytes > free_b || flush > free_b - j->ctx.device_bytes) { /* no sum to overflow */
		snprintf(j->res.message, sizeof j->res.message,
			 "%llu elements need %.2f GiB of device memory, but only %.2f GiB are free",
			 (unsigned long long)j->ctx.elements,
			 ((double)j->ctx.device_bytes + flush) / 1073741824.0, free_b / 1073741824.0);
		return EXIT_PARAM;
	}
	return 0;
}

int check_device(struct job *jobs, size_t n, const struct device_info *d)
{
	size_t free_b = device_free_bytes();
	for (size_t i = 0; i < n; i++) {
		int rc = job_needs_gpu(&jobs[i]) ? device_refuses(&jobs[i], d, free_b) : 0;
		if (rc && (rc = job_refused(&jobs[i], rc, n)))
			return rc;
	}
	return 0;
}

/* --metrics: CUPTI, permission and every metric checked before anything
 * runs, so a bad name costs no time. */
int open_job_profiler(const struct job *jobs, size_t n, struct profiler **p)
{
	char err[1024], name[256];
	int rc;
	*p = NULL;
	if (n == 0 || jobs[0].metrics.ncols == 0)
		return 0; /* --metrics is for every job or none */
	if ((rc = profiler_open(p, err, sizeof err)))
		return fail(rc, "%s", err);
	for (size_t i = 0; i < n; i++)
		if (job_needs_gpu(&jobs[i])
		    && (rc = profiler_check(*p, jobs[i].metrics.raw_ptrs, jobs[i].metrics.nraw, err, sizeof err))) {
			profiler_close(*p);
			return fail(rc, "%s: %s", job_name(&jobs[i], name, sizeof name), err);
		}
	return 0;
}

/* The device, where any job needs one: under a launcher the rank's own. */
int open_job_device(const struct job *jobs, size_t n, struct device_info *d, int *have,
		    const struct gpulab_group *g)
{
	char err[512];
	int rc;
	*have = 0;
	for (size_t i = 0; i < n && !*have; i++)
		*have = job_needs_gpu(&jobs[i]);
	if (*have && !g && (rc = device_open(d, err, sizeof err)))
		return fail(rc, "%s", err);
	if (*have && g && (rc = device_open_at(d, (int)g->local_rank, err, sizeof err)))
		return rank_device_missing(g, d, rc, err);
	return 0;
}

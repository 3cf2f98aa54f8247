/*
 * A session: the exercises `gpulab run` chose, each sweep made into jobs
 * and every job planned before any runs (session/plan.h), then run on the
 * device, their rows printed and their record written as each is done,
 * resumed from that record where asked.  Under a launcher, the session is
 * one rank's.
 */
#ifndef GPULAB_SESSION_H
#define GPULAB_SESSION_H

#include "config/options.h"
#include "config/settings.h"
#include "config/sweep.h"
#include "plugins/match.h"
#include "plugins/registry.h"
#include "run/job.h"

#include <gpulab/plugin.h>

struct session {
	struct sweep *sweeps;             /* one per pick, in the order they run */
	size_t nsweeps;
	struct job *jobs;                 /* every point of every sweep */
	size_t njobs;
	const struct gpulab_group *group; /* the launched job this rank joined; NULL: none */
	struct options mine;              /* under a launcher: the options this rank runs with */
};

/* Plan and run the exercises s chose (reordered: baselines first) with
 * the options o, the configuration c and the plugins r.  The run's exit
 * code; every failure said.  session_free after, whatever it returned. */
int session_run(struct session *ss, const struct options *o, const struct config *c, const struct registry *r,
		struct selection *s);

/* Leave the launched job, if any, and free the jobs and sweeps. */
void session_free(struct session *ss);

#endif

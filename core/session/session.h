/*
 * A session: a list of planned jobs (session/plan.h) run on the device,
 * their rows printed and their record written as each is done, resumed
 * from that record where asked.
 */
#ifndef GPULAB_SESSION_H
#define GPULAB_SESSION_H

#include "config/options.h"
#include "run/job.h"

#include <gpulab/plugin.h>

/* Run the n planned jobs (g: under a launcher).  The exit code. */
int run_all(const struct options *o, struct job *jobs, size_t n, const struct gpulab_group *g);

#endif

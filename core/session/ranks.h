/*
 * A session under a launcher: the ranks joined and checked to be started
 * alike, every rank's machine and GPU for rank 0's record, and what a
 * rank says of its own failures.
 */
#ifndef GPULAB_SESSION_RANKS_H
#define GPULAB_SESSION_RANKS_H

#include "config/options.h"
#include "plugins/registry.h"
#include "run/device.h"
#include "run/group.h"
#include "run/job.h"

#include <gpulab/plugin.h>

/* A rank whose device would not open: why, said; its exit code. */
int rank_device_missing(const struct gpulab_group *g, const struct device_info *d, int rc, const char *err);

/* Job j failed on a rank but rank 0: said on stderr. */
void say_rank_failed(const struct gpulab_group *g, const struct job *j);

/* Every rank's place, into *places (NULL but under a launcher of two or
 * more ranks; to free).  0, or the exit code. */
int rank_places(const struct gpulab_group *g, const struct device_info *d, int gpu, struct rank_place **places);

/* Join the launched job, if any (*g NULL where there is none): *mine is
 * the options this rank runs with.  0, or the exit code, said. */
int join_ranks(const struct options *o, const struct registry *r, const struct gpulab_group **g,
	       struct options *mine);

#endif

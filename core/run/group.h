/*
 * The ranks of a launched job (mpirun, srun: one process per GPU), as the
 * core uses them.  A launcher plugin provides them (plugin.h's `join`);
 * the core itself knows nothing of MPI.  Without a launcher every call
 * here is a no-op, and gpulab runs as one process for all its GPUs.
 *
 * What keeps the ranks in step: each makes the same calls in the same
 * order, and every decision a rank could make alone (stop sampling, a
 * signal came, a step failed) is made on values first maxed over all.
 */
#ifndef GPULAB_GROUP_H
#define GPULAB_GROUP_H

#include "plugins/registry.h"

#include <gpulab/plugin.h>
#include <stddef.h>
#include <stdint.h>

/* One rank's machine and GPU, as the record lists them. */
struct rank_place {
	char host[64];
	char device[96];
	char bus_id[32];
	int ordinal;
};

/* Join the ranks if a launcher started this process: *g is then set
 * (else NULL).  0, or EXIT_RANKS where the launcher's ranks cannot meet. */
int group_join(const struct registry *r, const struct gpulab_group **g);

/* Does this process print and write?  Rank 0 does; so does a lone gpulab. */
int group_speaks(const struct gpulab_group *g);

/* v[0..n) maxed over the ranks; 0, or -1 where the group failed. */
int group_max(const struct gpulab_group *g, double *v, size_t n);

/* The worst of the ranks' codes (the largest), which every rank then
 * holds; a group that failed counts as EXIT_RANKS. */
int group_worst(const struct gpulab_group *g, int rc);

/* Were the ranks started alike (gpulab's version, the command line)?
 * 0, or EXIT_RANKS on every rank, the differing ones saying how. */
int group_alike(const struct gpulab_group *g, const char *what);

/* A base for the "random" seeds, rank 0's, on every rank (never 0);
 * 0, or EXIT_RANKS. */
int group_seed_base(const struct gpulab_group *g, uint64_t *base);

/* Every rank's place, in rank order, into places[size]; 0, or EXIT_RANKS. */
int group_places(const struct gpulab_group *g, const struct rank_place *mine, struct rank_place *places);

/* The run is over. */
void group_leave(const struct gpulab_group *g);

#endif

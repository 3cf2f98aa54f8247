/*
 * busbw against the size, as nccl-tests draws its collectives: for a
 * record whose rows note algbw and busbw (the multigpu plugin's), one
 * line an exercise, at the bytes nccl-tests counts, with nccl-tests' own
 * figures beside them, dashed, where `gpulab report --nccl-tests FILE`
 * gave them.  busbw is the row's GB/s (algbw, from gpulab's median)
 * times the exercise's bus factor, the ratio of its two notes, as
 * bench/busbw.py reads it.
 */
#ifndef GPULAB_BUSBW_H
#define GPULAB_BUSBW_H

#include "draw/plot.h"
#include "records/nccltests.h"

#include <stdio.h>

/* Has some measured point of pl a busbw? */
int busbw_drawn(const struct plot *pl);

/* The chart as one <svg>, ids prefixed by id (standalone: a .svg file of
 * its own), nccl-tests' figures beside where nt holds any (NULL: none).
 * 0, or EXIT_NOMEM. */
int draw_busbw(FILE *out, const struct plot *pl, const struct nccl_figures *nt, const char *id, int standalone);

/* For the report page: the chart in a figure, and under it a table of
 * what it draws (pl->nccl beside, where given).  0, or EXIT_NOMEM. */
int busbw_figure(FILE *out, const struct plot *pl, const char *id);

#endif

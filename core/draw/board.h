/*
 * `gpulab report` of `gpulab grade`'s records (their grade member,
 * docs/record.md): a leaderboard for a class.  One record: its kernels
 * as bars, fastest first, with the challenge's library and best rows as
 * lines; the ranking as grade's table has it (rank, kernel, median ms,
 * +-%, GB/s, of ref), and each kernel that failed with its line in full.
 * Several records of one challenge on one GPU model (the same class on
 * other days): each kernel's result on each day, its best, and who
 * improved.  On several GPU models, never ranked together: gpulab
 * board's boards, one per model (draw/boards.h).
 */
#ifndef GPULAB_BOARD_H
#define GPULAB_BOARD_H

#include "draw/plot.h"

#include <stdio.h>

/* Is pl a grade's record? */
int board_is_grade(const struct plot *pl);

/* The board of grade record pl under its header, its chart's ids
 * prefixed by id: 0, or EXIT_NOMEM. */
int board_write(FILE *out, const struct plot *pl, const char *id);

/* Are the n records all grade's, of one challenge, and more than one?
 * board_is_history: and on one GPU model (device.name) too;
 * board_is_class: and on more than one. */
int board_is_history(const struct plot *pl, size_t n);
int board_is_class(const struct plot *pl, size_t n);

/* Each kernel of the n records, day by day: 0, or EXIT_NOMEM. */
int board_history(FILE *out, const struct plot *pl, size_t n);

#endif

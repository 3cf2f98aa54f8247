/*
 * nccl-tests' figures read back: the output of all_reduce_perf and its
 * siblings (one or several runs, appended to one file), each row's size
 * and its out-of-place time and busbw, so that `gpulab report` can draw
 * them beside gpulab's collectives.  The file is the user's, so the
 * reader is bounded and refuses with one line naming the file and line.
 */
#ifndef GPULAB_NCCLTESTS_H
#define GPULAB_NCCLTESTS_H

#include <stddef.h>

/* One row: a collective ("all_reduce", from its "Collective test
 * starting: all_reduce_perf" line) at a size, out of place. */
struct nccl_figure {
	char collective[32];
	double bytes, us, busbw;
};

struct nccl_figures {
	struct nccl_figure *v;
	size_t n;
};

/* The most bytes and rows read: far more than any run of nccl-tests. */
#define NCCL_TESTS_MAX_BYTES (16u << 20)
#define NCCL_TESTS_MAX_ROWS 100000

/* Parse text (len bytes, named name in messages).  0, or EXIT_USAGE with
 * one line in err (a row before any collective, a row whose numbers do
 * not read, no row at all) or EXIT_NOMEM; nccl_figures_free either way. */
int nccl_figures_parse(struct nccl_figures *f, const char *name, const char *text, size_t len, char *err, size_t errlen);

/* The same, from the file at path. */
int nccl_figures_read(struct nccl_figures *f, const char *path, char *err, size_t errlen);

void nccl_figures_free(struct nccl_figures *f);

/* The gpulab exercise a collective is measured beside ("all_reduce":
 * "allreduce_nccl"), or NULL for one gpulab has not. */
const char *nccl_exercise_of(const char *collective);

#endif

/*
 * The GPU suite's way to verify: one gpulab process runs a whole sweep
 * (-r 1 -w 0, the record written as it goes to a journal), and every
 * point of the journal is read back.  A process costs a CUDA context
 * (most of a second); a point costs its kernel and its CPU reference.
 */
#ifndef GPULAB_TESTS_GPU_SWEEP_H
#define GPULAB_TESTS_GPU_SWEEP_H

#include "testutil.h"

/* May a skipped point's message stand?  `row` is the point's journal line. */
typedef int (*skip_allowed)(const char *message, const char *row);

struct sweep_check {
	int status;            /* gpulab's exit code */
	int points, verified, skipped;
	int bad;               /* points neither verified nor skipped for an allowed reason */
	char command[2048];    /* the command as a shell would take it */
	char report[32768];    /* each bad point: exercise, status, message, and its rerun line */
	char err[8192];        /* gpulab's stderr */
	char *journal;         /* the journal's text, until the next run */
};

/* gpulab ARGS (NULL-terminated) -r 1 -w 0 --quiet -o TMP, through `wrapper`
 * with env added: every point line of the journal into c. */
void sweep_check_run(const char *wrapper, char *const env[], char *const args[], skip_allowed ok,
		     struct sweep_check *c);

/* run_suite, then "NAME: wall S s": each GPU program's own time, for
 * the suite's budget (make check -j runs them side by side). */
struct Suite;
int run_gpu_suite(struct Suite *s, const char *name);

/* The GPU lock, as checked fixtures (gpu_sweep.c): a test that times or
 * counts takes the GPU alone, one that only verifies shares it; the
 * teardown prints how long the test waited and ran. */
void gpu_shared(void);
void gpu_alone(void);
void gpu_times(void);

/* The message Check prints for a failed sweep: the command, the counts,
 * the bad points and stderr. */
#define SWEEP_FMT "%s\nexit %d: %d points, %d verified, %d skipped, %d bad\n%s%s"
#define SWEEP_ARGS(c) (c)->command, (c)->status, (c)->points, (c)->verified, (c)->skipped, (c)->bad, (c)->report, (c)->err
#define SWEEP_WHY(c) SWEEP_FMT, SWEEP_ARGS(c)

#endif

/* Running one planned job on the GPU: warm-up, timed repetitions with
 * CUDA events, verification. */
#ifndef GPULAB_BENCH_H
#define GPULAB_BENCH_H

#include "run/clocks.h"
#include "run/device.h"
#include "run/hold.h"
#include "run/job.h"
#include "run/profile.h"

struct bench {
	const struct device_info *dev;
	int cold;              /* flush L2 before every repetition */
	unsigned batch;        /* runs per timed sample, back to back; 0 or 1: one */
	int unheld;            /* runs go unheld: under --profile, since a profiler
				* runs kernels one at a time and a held stream
				* would only wait out the hold's timeout; in try's
				* gate, which times nothing, and whose one run of
				* a module just loaded would wait out the hold
				* (hold_run) and run again */
	int verify;
	struct profiler *prof; /* for --metrics */
	const struct clocks *clk; /* NVML, where it can be had */
	struct stopping stop;  /* when a point without an exact -r has enough samples */
	double watchdog_s;     /* --watchdog: the longest one run may take; -1: not given */
	void *flush_buf;       /* twice the L2, allocated on first use */
	size_t flush_bytes;
	struct hold *hold;     /* opened on first use; NULL: runs go unheld */
	const struct gpulab_group *group; /* the ranks under a launcher (run/group.h); NULL alone */
	int hold_tried;
};

/* Fills j->res; with j->metrics, also the counters of extra runs after
 * the timed ones.  Returns 0, or the exit code the job earns. */
int bench_run(struct bench *b, struct job *j);

void bench_free(struct bench *b);

#endif

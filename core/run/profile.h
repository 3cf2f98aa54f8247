/*
 * Hardware counters for one exercise, read in-process through CUPTI's
 * range profiler: the exercise's run() is one range, replayed once per
 * pass the metrics need.  A build without CUPTI has the same interface,
 * and every call says so.
 */
#ifndef GPULAB_PROFILE_H
#define GPULAB_PROFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct profiler;

/* One pass: prepare() runs outside the range (restore the input, flush
 * L2), launch() inside it, and returns only when the GPU is done. */
struct profile_target {
	int (*prepare)(void *arg);
	int (*launch)(void *arg);
	void *arg;
};

/* 0 if this build can read counters; else EXIT_METRICS, saying why in err.
 * Needs no device. */
int profiler_built(char *err, size_t len);

/* Open CUPTI's profiler on the current device (its context must exist).
 * Fails with EXIT_METRICS, and one line in err, when this build has no
 * CUPTI or this user may not read the counters. */
int profiler_open(struct profiler **out, char *err, size_t len);

/* 0 if this GPU has every metric; else EXIT_METRICS, naming the first it
 * lacks. */
int profiler_check(struct profiler *p, const char *const *metrics, size_t n, char *err, size_t len);

/* Replay t until every metric is read; values[i] for metrics[i].  Returns
 * 0, EXIT_METRICS for a CUPTI failure, or what a step of t returned. */
int profiler_collect(struct profiler *p, const char *const *metrics, size_t n, const struct profile_target *t,
		     double *values, unsigned *passes, char *err, size_t len);

void profiler_close(struct profiler *p);

#ifdef __cplusplus
}
#endif

#endif

/*
 * A session's points, run in turn: each row printed and the record
 * written as it is done, until the last, a signal, or a lost device.
 */
#ifndef GPULAB_SESSION_POINTS_H
#define GPULAB_SESSION_POINTS_H

#include "config/options.h"
#include "emit/writer.h"
#include "records/output.h"
#include "run/measure.h"
#include "run/job.h"

/* Every point still to run, marked "not run" until it has: a record
 * written meanwhile says it was not reached. */
void mark_pending(struct job *jobs, size_t n);

/* Run them; the first failure's exit code, or 0. */
int run_points(const struct options *o, struct bench *b, struct report *r, struct job *jobs, size_t n,
	       struct record_out *out);

#endif

/*
 * How a session ends: why it stopped before its last point (a signal, a
 * lost device), what the points not run and stderr say then, the record
 * written a last time, and the exit code.
 */
#ifndef GPULAB_SESSION_FINISH_H
#define GPULAB_SESSION_FINISH_H

#include "config/options.h"
#include "emit/writer.h"
#include "records/output.h"
#include "run/job.h"

/* After the last point, a signal or a lost device: the run's exit code. */
int session_finish(const struct options *o, struct report *r, struct job *jobs, size_t n, int worst,
		   struct record_out *out);

#endif

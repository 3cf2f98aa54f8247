/*
 * A session resumed from its record: --resume's points kept from -o FILE
 * (records/resume.h matches them), marked so in the jobs and the report.
 */
#ifndef GPULAB_SESSION_RESUMED_H
#define GPULAB_SESSION_RESUMED_H

#include "config/options.h"
#include "emit/writer.h"
#include "records/resume.h"
#include "run/job.h"

/* Keep the points FILE has; say how many.  0, or the exit code, said. */
int resume_from(const struct options *o, struct report *r, struct job *jobs, struct resume *res);

#endif

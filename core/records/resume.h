/*
 * `gpulab run ... -o FILE --resume`: the record FILE holds read back,
 * and this run's points matched against it as `gpulab compare` matches
 * points (records/record.h: the exercise and the parameters that define
 * a point).  A point FILE has, measured or failed, is kept as it is
 * there; one it lacks, or holds as "not run", runs again.  FILE's points
 * this run does not plan are kept too, after its own.  A record from
 * another device, another gpulab, or timed otherwise (--cold, --batch)
 * is refused: its points and these would not be one measurement.
 */
#ifndef GPULAB_RESUME_H
#define GPULAB_RESUME_H

#include "records/record.h"

struct resume {
	struct record old;   /* FILE as read */
	struct record plan;  /* this run's points, as the record it would write */
	char **kept;         /* for each planned point, its row in FILE as JSON text, or NULL: run it */
	size_t nkept;
	char **extra;        /* FILE's rows that no planned point is, not "not run", as JSON text */
	size_t nextra;
};

/* Match plan (the record of this run's planned points, none run, in the
 * order they run) against old, FILE's record, which path names in
 * messages; both trees are the resume's from then on, even on failure.
 * 0; or EXIT_USAGE (not a record, another device or gpulab) or
 * EXIT_NOMEM, with one line naming path in err.  resume_free either way. */
int resume_take(struct resume *r, const char *path, struct json *old, struct json *plan, char *err, size_t len);

/* The same, reading old from path. */
int resume_load(struct resume *r, const char *path, struct json *plan, char *err, size_t len);

void resume_free(struct resume *r);

#endif

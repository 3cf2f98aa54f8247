/*
 * `gpulab run ... -o FILE --resume`: the record FILE holds read back,
 * and this run's planned points matched against its rows.  A point is
 * its exercise and the typed values of the parameters that define it (the
 * seed, reps and warmup aside, as `gpulab compare` has it); FILE's values
 * are read with the planned point's declarations and compared as values,
 * so that n written 1024 or "2^10", or keys in another order, are the
 * same point, and the plan is never written out as text to be matched.
 * A point FILE holds measured (ok, or unverified: --no-verify's) is kept
 * as it is there; one it lacks, or holds FAILED, ERROR, skipped or not
 * run, runs again, its new row in place of FILE's.  FILE's points this
 * run does not plan are kept too, after its own, whatever their status.  A record from another device,
 * another gpulab, or timed otherwise (--cold, --batch) is refused: its
 * points and these would not be one measurement.
 */
#ifndef GPULAB_RESUME_H
#define GPULAB_RESUME_H

#include "config/params.h"
#include "records/record.h"

#include <gpulab/plugin.h>

/* One key of a planned point's exercise: its declaration (its name, and
 * the type its values compare by) and, where given, its value. */
struct resume_param {
	const struct gpulab_param *decl;
	int given;                  /* 0: not resolved (the point was refused before it) */
	struct param_value value;
};

/* A planned point: its exercise ("plugin.exercise") and every key that
 * exercise takes, in the same order for all its points. */
struct resume_point {
	const char *exercise;
	const struct resume_param *params;
	size_t nparams;
};

/* This run as FILE must have been made for its points to be kept. */
struct resume_plan {
	const struct resume_point *points; /* in the order they run */
	size_t n;
	const char *device;         /* its UUID where NVML gave one, else its name; "the host": no GPU */
	const char *version, *revision; /* gpulab's */
	int cold;
	unsigned batch;             /* 1: no --batch */
};

struct resume {
	struct record old;   /* FILE as read */
	char **kept;         /* for each planned point, its row in FILE as JSON text, or NULL: run it */
	size_t nplan, nkept;
	char **extra;        /* FILE's rows that no planned point is, not "not run", as JSON text */
	size_t nextra;
	const struct ondisk *lines; /* while matching: FILE's lines, to copy rows from; else NULL */
	const char *text;
};

/* Match plan against old, FILE's record, which path names in messages;
 * the tree is the resume's from then on, even on failure.  0; or
 * EXIT_USAGE (not a record, another device or gpulab) or EXIT_NOMEM,
 * with one line naming path in err.  resume_free either way. */
int resume_take(struct resume *r, const char *path, struct json *old, const struct resume_plan *plan, char *err,
		size_t len);

/* The same, reading old from path: a journal's rows copied as written,
 * and its tree freed once matched (r->old then holds no tree). */
int resume_load(struct resume *r, const char *path, const struct resume_plan *plan, char *err, size_t len);

void resume_free(struct resume *r);

#endif

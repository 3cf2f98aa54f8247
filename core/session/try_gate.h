/*
 * The gate `gpulab try` runs a learner's kernel through before timing it:
 * each case the challenge declares (plugins/gate.h), for every element
 * type, and the point to be timed, each planned before any runs, then run
 * once, verified and not timed.  A kernel that faults poisons the CUDA
 * context, so it stops at the first case that is not right.
 */
#ifndef GPULAB_SESSION_TRY_GATE_H
#define GPULAB_SESSION_TRY_GATE_H

#include "config/options.h"
#include "config/settings.h"
#include "config/sweep.h"
#include "plugins/gate.h"
#include "plugins/match.h"
#include "run/job.h"

/* What a gate plans: its cases and the point to be timed (try), the
 * cases alone (--test), or the point alone (a template's compile). */
enum gate_part { GATE_ALL, GATE_CASES, GATE_POINT };

struct gate {
	enum gate_part part;   /* set before gate_plan */
	struct options *opts;  /* one per case */
	struct sweep *sweeps;  /* one per case */
	struct gate_case *cases;
	struct job *jobs;      /* every point of every case, in order */
	size_t ncases, njobs;
};

/* Add -p key=value to o, after the user's: the last one given wins.
 * 0, or EXIT_USAGE, said. */
int set_param(struct options *o, const char *key, const char *value);

/* Plan every case of pick p's gate with the user's options.  0, or the
 * exit code, said (naming the challenge). */
int gate_plan(struct gate *g, const struct options *user, const struct config *c, const struct pick *p,
	      const char *challenge);

/* Run the planned cases in order; 0, or the exit code of the first that
 * is not right, said (naming the challenge and file). */
int gate_run(struct gate *g, const struct options *user, const char *challenge, const char *file);

void gate_free(struct gate *g);

#endif

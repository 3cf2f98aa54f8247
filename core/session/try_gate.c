/*
 * The gate `gpulab try` runs a learner's kernel through before timing it
 * (session/try_gate.h): every case planned, then each run once, verified
 * and not timed, stopping at the first that is not right.
 */
#include "session/try_gate.h"

#include "exitcode.h"
#include "fail.h"
#include "run/measure.h"
#include "run/device.h"
#include "session/plan.h"

#include <stdio.h>
#include <stdlib.h>

/* Add -p key=value to o, after the user's: the last one given wins. */
int set_param(struct options *o, const char *key, const char *value)
{
	if (o->nparams == MAX_KEYVALS)
		return fail(EXIT_USAGE, "%s: more than %d keys", options_short(OPT_PARAM), MAX_KEYVALS);
	o->params[o->nparams++] = (struct keyval){ key, value };
	return 0;
}

/* The options of gate case `i` (or, past the declared cases, the point
 * to be timed): one verified run, no warm-up, nothing measured. */
static int gate_options(const struct options *user, const struct gpulab_exercise *e, size_t i, struct gate_case *c,
			struct options *g)
{
	char err[512];
	*g = *user;
	options_hand(g, &generic_params[GEN_REPS], &(struct param_value){ .u = 1 }, 1);
	options_hand(g, &generic_params[GEN_WARMUP], &(struct param_value){ .u = 0 }, 1);
	g->verify = 1;
	g->cold = 0;
	g->metrics = NULL;
	if (i == gate_count(e->gate))
		return 0; /* the user's own point, in the user's types */
	if (options_hand_text(g, &generic_params[GEN_TYPE], dtypes_text(e->dtypes, "int,float"), err, sizeof err)
	    || gate_case_at(e->gate, i, c, err, sizeof err))
		return fail(EXIT_PLUGIN, "try: %s", err); /* the registry checked it: never */
	for (int k = 0; k < c->nkeys; k++) {
		int gk = exercise_generic_key(e, c->kv[k].key);
		if (gk >= 0 && options_hand_text(g, &generic_params[gk], c->kv[k].value, err, sizeof err))
			return fail(EXIT_PLUGIN, "try: %s", err);
		else if (gk < 0 && set_param(g, c->kv[k].key, c->kv[k].value))
			return EXIT_USAGE;
	}
	return 0;
}

void gate_free(struct gate *g)
{
	free_jobs(g->jobs, g->njobs, g->sweeps, g->ncases);
	free(g->cases);
	free(g->opts);
}

/* Plan every case before any runs: a kernel that does not compile, or a
 * case it cannot take, costs no GPU time and needs no GPU. */
int gate_plan(struct gate *g, const struct options *user, const struct config *c, const struct pick *p,
	      const char *challenge)
{
	char point[512];
	size_t total = 0, k = 0;
	int rc;
	size_t cases = gate_count(p->ex->gate), first = g->part == GATE_POINT ? cases : 0;
	g->ncases = cases + 1 - first - (g->part == GATE_CASES);
	g->opts = calloc(g->ncases + 1, sizeof *g->opts);
	g->cases = calloc(g->ncases + 1, sizeof *g->cases);
	g->sweeps = calloc(g->ncases + 1, sizeof *g->sweeps);
	if (!g->opts || !g->cases || !g->sweeps)
		return fail(EXIT_NOMEM, "out of memory");
	for (size_t i = 0; i < g->ncases; i++) {
		if ((rc = gate_options(user, p->ex, first + i, &g->cases[i], &g->opts[i])))
			return rc;
		sweep_resolve(&g->sweeps[i], p->plugin->name, p->ex, &g->opts[i], c);
		total += sweep_points(&g->sweeps[i]);
	}
	if (total > PARAM_MAX_POINTS || !(g->jobs = calloc(total + 1, sizeof *g->jobs)))
		return fail(EXIT_USAGE, "try: a gate of %zu points is too many; sweep fewer values", total);
	g->njobs = total;
	for (size_t i = 0; i < g->ncases; i++)
		for (size_t pt = 0, pts = sweep_points(&g->sweeps[i]); pt < pts; pt++, k++)
			if ((rc = job_plan(&g->jobs[k], p, &g->sweeps[i], &g->opts[i], pt)))
				return rc == EXIT_PARAM ? fail(rc, "try %s: %s: %s", challenge,
							       job_case(&g->jobs[k], point, sizeof point), g->jobs[k].res.message)
							: fail(rc, "try %s: %s", challenge, g->jobs[k].res.message);
	return 0;
}

/* Run the gate's points in order; stop at the first that is not right. */
int gate_run(struct gate *g, const struct options *user, const char *challenge, const char *file)
{
	struct device_info d;
	char err[512], point[512];
	int rc, gpu = 0;
	for (size_t i = 0; i < g->njobs; i++)
		gpu |= !(g->jobs[i].pick.ex->flags & GPULAB_HOST_ONLY);
	if (gpu && (rc = device_open(&d, err, sizeof err)))
		return fail(rc, "%s", err);
	struct bench b = { .dev = gpu ? &d : NULL, .unheld = 1, .verify = 1, .stop = user->stop, .watchdog_s = user->watchdog };
	for (size_t i = 0; i < g->njobs; i++) {
		struct job *j = &g->jobs[i];
		rc = bench_run(&b, j);
		job_case(j, point, sizeof point);
		if (j->res.outcome == OUTCOME_WRONG)
			rc = fail(EXIT_WRONG, "try %s: %s fails the gate at %s: %s; nothing was timed", challenge, file, point,
				  j->res.message);
		else if (rc)
			rc = fail(rc, "try %s: %s at %s: %s; nothing was timed", challenge, file, point, j->res.message);
		if (rc)
			break;
	}
	bench_free(&b);
	return rc;
}

/*
 * gpulab try CHALLENGE FILE.cu: a learner's kernel on the bench.  The
 * challenge is an exercise of the `try` plugin, which compiles FILE at
 * run time; this command runs the exercise's gate first (its edge cases,
 * for every element type, and the point to be timed, each verified and
 * none timed), and only then the exercise beside the plugin it is a
 * challenge of, so the learner's row lands in that plugin's table.
 *
 * A kernel that faults poisons the CUDA context, so the gate stops at its
 * first failure and says which case it was, with the exit code that
 * failure earns (8 for a fault or a trap); nothing was measured, so no
 * record is written, even with -o.  One that never ends is stopped by
 * the watchdog (run/watchdog.h).  The gate runs each point once: a
 * kernel that faults only on a later run of its module passes it, and
 * fails in the timed run, which keeps what it measured (cmd_run).
 */
#include "config.h"

#include "cli/commands.h"
#include "emit/result.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "run/bench.h"
#include "run/device.h"
#include "plugins/gate.h"
#include "run/job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GPULAB_TEMPLATES
#define GPULAB_TEMPLATES "/usr/share/gpulab/try"
#endif

/* try CHALLENGE --template: the starting file, as installed. */
static int print_template(const char *challenge)
{
	const char *dir = getenv("GPULAB_TEMPLATES");
	char path[4200], buf[4096];
	size_t n;
	if (!param_valid_name(challenge))
		return fail(EXIT_USAGE, "try: '%s' is not a challenge name (reduce, transpose, sum_matrix)", challenge);
	snprintf(path, sizeof path, "%s/%s.cu", dir && *dir ? dir : GPULAB_TEMPLATES, challenge);
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(EXIT_NOMATCH, "try: no template for '%s' (%s)", challenge, path);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

/* Add -p key=value to o, after the user's: the last one given wins. */
static int set_param(struct options *o, const char *key, const char *value)
{
	if (o->nparams == MAX_KEYVALS)
		return fail(EXIT_USAGE, "-p: more than %d keys", MAX_KEYVALS);
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
	g->generic[GEN_REPS] = "1";
	g->generic[GEN_WARMUP] = "0";
	g->verify = 1;
	g->cold = 0;
	g->metrics = NULL;
	if (i == gate_count(e->gate))
		return 0; /* the user's own point, in the user's types */
	g->generic[GEN_TYPE] = dtypes_text(e->dtypes, "int,float");
	if (gate_case_at(e->gate, i, c, err, sizeof err))
		return fail(EXIT_PLUGIN, "try: %s", err); /* the registry checked it: never */
	for (int k = 0; k < c->nkeys; k++) {
		int gk = exercise_generic_key(e, c->kv[k].key);
		if (gk >= 0)
			g->generic[gk] = c->kv[k].value;
		else if (set_param(g, c->kv[k].key, c->kv[k].value))
			return EXIT_USAGE;
	}
	return 0;
}

struct gate {
	struct options *opts;  /* one per case */
	struct sweep *sweeps;  /* one per case */
	struct gate_case *cases;
	struct job *jobs;      /* every point of every case, in order */
	size_t ncases, njobs;
};

static void gate_free(struct gate *g)
{
	for (size_t i = 0; g->jobs && i < g->njobs; i++)
		job_free(&g->jobs[i]);
	free(g->jobs);
	for (size_t i = 0; g->sweeps && i < g->ncases; i++)
		sweep_free(&g->sweeps[i]);
	free(g->sweeps);
	free(g->cases);
	free(g->opts);
}

/* Plan every case before any runs: a kernel that does not compile, or a
 * case it cannot take, costs no GPU time and needs no GPU. */
static int gate_plan(struct gate *g, const struct options *user, const struct config *c, const struct pick *p,
		     const char *challenge)
{
	char point[512];
	size_t total = 0, k = 0;
	int rc;
	g->ncases = gate_count(p->ex->gate) + 1;
	g->opts = calloc(g->ncases, sizeof *g->opts);
	g->cases = calloc(g->ncases, sizeof *g->cases);
	g->sweeps = calloc(g->ncases, sizeof *g->sweeps);
	if (!g->opts || !g->cases || !g->sweeps)
		return fail(EXIT_NOMEM, "out of memory");
	for (size_t i = 0; i < g->ncases; i++) {
		if ((rc = gate_options(user, p->ex, i, &g->cases[i], &g->opts[i])))
			return rc;
		sweep_resolve(&g->sweeps[i], p->plugin->name, p->ex, &g->opts[i], c);
		total += sweep_points(&g->sweeps[i]);
	}
	if (total > PARAM_MAX_POINTS || !(g->jobs = calloc(total, sizeof *g->jobs)))
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
static int gate_run(struct gate *g, const struct options *user, const char *challenge, const char *file)
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

/* Is a plugin called `name` loaded? */
static int loaded(const struct registry *r, const char *name)
{
	for (size_t i = 0; name && i < r->n; i++)
		if (r->v[i].desc && !strcmp(r->v[i].name, name))
			return 1;
	return 0;
}

int cmd_try(const struct options *o)
{
	struct options t = *o;
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection s = { 0 };
	struct gate g = { 0 };
	char name[256], err[2048];
	int broken, rc;

	if (o->npatterns == 1 && o->template_only)
		return print_template(o->patterns[0]);
	if (o->npatterns != 2 || o->template_only)
		return fail(EXIT_USAGE, "try: name a challenge and your kernel, `gpulab try reduce FILE.cu`, or ask for a "
					"start, `gpulab try reduce --template > FILE.cu`");
	if (o->batch > 1) /* the ladder a kernel joins is ranked one call at a time */
		return fail(EXIT_USAGE, "try: --batch is for run; try times one call per sample");
	const char *challenge = o->patterns[0], *file = o->patterns[1];
	char *pattern = name;
	snprintf(name, sizeof name, "try.%s", challenge);
	if (options_param(o, "kernel"))
		return fail(EXIT_USAGE, "try: the kernel is FILE, `gpulab try %s FILE.cu`, not -p kernel", challenge);
	if ((rc = set_param(&t, "kernel", file)) || (rc = load(o, &c, &r, 0, &broken)))
		goto out;
	if (!param_valid_name(challenge) || (rc = select_exercises(&r, &pattern, 1, &s, err, sizeof err))) {
		rc = fail(rc ? rc : EXIT_NOMATCH, "try: no challenge '%s' (%s)", challenge,
			  rc ? err : "challenges are exercises of the try plugin");
		goto out;
	}
	if ((rc = gate_plan(&g, &t, &c, &s.v[0], challenge)) || (rc = gate_run(&g, &t, challenge, file)))
		goto out;
	if (report_for_people(o->format) && !o->quiet)
		printf("%s passed the gate: %zu cases, each for every element type, and the point timed below\n\n", file,
		       g.ncases - 1);
	fflush(stdout);
	/* the challenge's plugin beside it, where it is loaded */
	char *both[] = { (char *)s.v[0].ex->peers, name };
	int peer = loaded(&r, s.v[0].ex->peers);
	t.patterns = peer ? both : both + 1;
	t.npatterns = peer ? 2 : 1;
	rc = cmd_run(&t);
out:
	gate_free(&g);
	selection_free(&s);
	registry_free(&r);
	config_free(&c);
	return rc;
}

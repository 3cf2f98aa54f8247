/*
 * A session's jobs (session/plan.h): every chosen exercise's sweep made
 * into jobs, and every job planned before any runs.
 */
#include "command_names.h"
#include "session/plan.h"

#include "exitcode.h"
#include "fail.h"

#include <stdlib.h>
#include <string.h>

/* Does any chosen exercise take `key` (its own, or a generic one)? */
static int someone_takes(const struct selection *s, const char *key)
{
	for (size_t k = 0; k < s->n; k++) {
		int g = exercise_generic_key(s->v[k].ex, key);
		if (g >= 0 ? exercise_takes(s->v[k].ex, (enum generic)g) : exercise_param(s->v[k].ex, key) != NULL)
			return 1;
	}
	return 0;
}

/* Every key on the command line must mean something to at least one
 * chosen exercise: -p keys, and -n (which some take no size from).  Both
 * checks of -n stay: this one is of the command (exit 2 before anything
 * runs, where no chosen exercise takes one); config/sweep.c's is of one
 * exercise (its row refused, the others run). */
int check_cli_keys(const struct options *o, const struct selection *s)
{
	char key[256];
	if ((o->axes[GEN_N].n || options_param(o, "n")) && !someone_takes(s, "n"))
		return fail(EXIT_USAGE, "%s: no chosen exercise takes a size; %s.%s's is set by its own keys "
			    "(`gpulab " CMD_LIST "` shows them)", options_flag(GEN_N), s->v[0].plugin->name, s->v[0].ex->name);
	for (int i = 0; i < o->nparams; i++)
		if (!someone_takes(s, o->params[i].key))
			return fail(EXIT_USAGE, "%s: no chosen exercise takes this key (`gpulab " CMD_LIST "` shows their keys)",
				    options_key_spelling(-1, o->params[i].key, NULL, key, sizeof key));
	return 0;
}

int job_needs_gpu(const struct job *j)
{
	return j->res.outcome != OUTCOME_SKIPPED && !(j->pick.ex->flags & GPULAB_HOST_ONLY);
}

/* Is j the run's one point: an exercise named alone (a point of a
 * sweep never is), or the only job? */
int job_alone(const struct job *j, size_t njobs)
{
	return (j->pick.named && j->points == 1) || njobs == 1;
}

/* A refusal: in a run of several exercises the job is skipped and the
 * others run; an exercise named alone, or the only one, fails the run. */
int job_refused(struct job *j, int rc, size_t njobs)
{
	char name[256];
	if (rc != EXIT_PARAM || job_alone(j, njobs))
		return fail(rc, "%s: %s", job_name(j, name, sizeof name), j->res.message);
	j->res.outcome = OUTCOME_SKIPPED;
	return 0;
}

/* Every chosen exercise's sweep, resolved once (one per pick, in
 * order), and every point of them, as jobs: allocated once, since a
 * job's context points into the job itself. */
int make_jobs(const struct options *o, const struct config *c, const struct selection *s, struct sweep **sweeps,
	      struct job **jobs, size_t *n)
{
	*n = 0;
	if (!(*sweeps = calloc(s->n ? s->n : 1, sizeof **sweeps)))
		return fail(EXIT_NOMEM, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		sweep_resolve(&(*sweeps)[i], s->v[i].plugin->name, s->v[i].ex, o, c);
		*n += sweep_points(&(*sweeps)[i]);
		if (*n > PARAM_MAX_POINTS)
			return fail(EXIT_USAGE, "a sweep of more than %d points in all; sweep fewer values", PARAM_MAX_POINTS);
	}
	if (!(*jobs = calloc(*n, sizeof **jobs)))
		return fail(EXIT_NOMEM, "out of memory for %zu points", *n);
	return 0;
}

void free_jobs(struct job *jobs, size_t n, struct sweep *sweeps, size_t nsweeps)
{
	for (size_t i = 0; jobs && i < n; i++)
		job_free(&jobs[i]);
	free(jobs);
	for (size_t i = 0; sweeps && i < nsweeps; i++)
		sweep_free(&sweeps[i]);
	free(sweeps);
}

/* Is this pick its plugin's baseline or reference? */
static int yardstick(const struct pick *p)
{
	const char *base = p->plugin->desc->baseline, *ref = p->plugin->desc->reference;
	return (base && !strcmp(p->ex->name, base)) || (ref && !strcmp(p->ex->name, ref));
}

/* Rows are printed as their points are done, and a row's speedup and
 * share of the reference need those exercises measured already: so a
 * plugin's baseline and reference run first (a stable move to the front;
 * every other pick keeps the order it was named in). */
void yardsticks_first(struct selection *s)
{
	size_t front = 0;
	for (size_t i = 0; i < s->n; i++)
		if (yardstick(&s->v[i])) {
			struct pick p = s->v[i];
			memmove(&s->v[front + 1], &s->v[front], (i - front) * sizeof p);
			s->v[front++] = p;
		}
}

/* --batch where no exercise asked for can take it: the run would time
 * nothing as asked, so it is refused, naming the first.  (In a run where
 * some can, the others run unbatched, their rows say UNBATCHED.) */
static int batch_refused(const struct options *o, const struct job *jobs, size_t n)
{
	char name[256];
	const struct job *first = NULL;
	for (size_t i = 0; o->batch > 1 && i < n; i++) {
		if (jobs[i].res.outcome == OUTCOME_SKIPPED)
			continue;
		if (!jobs[i].unbatched)
			return 0;
		first = first ? first : &jobs[i];
	}
	return first ? fail(EXIT_PARAM, "%s: takes no %s: each run needs its reset first (it may restore an input "
				     "the run consumes)", job_name(first, name, sizeof name), options_long(OPT_BATCH)) : 0;
}

/* Under a launcher, an exercise that runs in one process would run once
 * a rank, each on its own GPU: it is refused, as a parameter would be. */
static int refuse_alone(struct job *j)
{
	snprintf(j->res.message, sizeof j->res.message,
		 "runs in one process, not as ranks of a launched job: run it without mpirun or srun");
	return EXIT_PARAM;
}

/* Plan every job before any runs: a bad parameter costs no time. */
int plan_all(const struct options *o, const struct selection *s, const struct sweep *sweeps, struct job *jobs,
	     size_t n, const struct gpulab_group *g)
{
	size_t skipped = 0, k = 0;
	for (size_t i = 0; i < s->n; i++)
		for (size_t point = 0, points = sweep_points(&sweeps[i]); point < points && k < n; point++, k++) {
			int rc = job_plan(&jobs[k], &s->v[i], &sweeps[i], o, point);
			if (rc == 0 && g && !(s->v[i].ex->flags & GPULAB_RANKS))
				rc = refuse_alone(&jobs[k]);
			if (rc && (rc = job_refused(&jobs[k], rc, n)))
				return rc;
			skipped += jobs[k].res.outcome == OUTCOME_SKIPPED;
		}
	if (skipped == n) { /* nothing would run: say why the first cannot */
		char name[256];
		return fail(EXIT_PARAM, "%s: %s", job_name(&jobs[0], name, sizeof name), jobs[0].res.message);
	}
	return batch_refused(o, jobs, n);
}

/*
 * `gpulab run`, and the run `gpulab try` ends with (cli/commands.h): the
 * configuration and the plugins loaded, the exercises chosen, and a
 * session (session/) planned and run with them.
 */
#include "cli/commands.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "run/interrupt.h"
#include "run/profile.h"
#include "session/plan.h"
#include "session/ranks.h"
#include "session/session.h"

#include <stdlib.h>

int cmd_run(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection s = { 0 };
	struct sweep *sweeps = NULL;
	struct job *jobs = NULL;
	size_t njobs = 0;
	char err[2048];
	int broken, rc;
	const struct gpulab_group *g = NULL;
	struct options mine;

	if (o->npatterns == 0)
		return fail(EXIT_USAGE, "run: name at least one exercise (`gpulab list` shows them)");
	/* a broken plugin matters to run only if it is asked for, and then
	 * select_exercises() says why */
	if ((rc = load(o, &c, &r, 0, &broken)))
		goto out;
	if ((rc = select_exercises(&r, o->patterns, o->npatterns, &s, err, sizeof err))) {
		fail(rc, "%s", err);
		goto out;
	}
	yardsticks_first(&s);
	if ((rc = check_cli_keys(o, &s)) || (rc = make_jobs(o, &c, &s, &sweeps, &jobs, &njobs)))
		goto out;
	if (o->metrics && (rc = profiler_built(err, sizeof err)))
		fail(rc, "%s", err);
	else if ((rc = join_ranks(o, &r, &g, &mine)) == 0 && (rc = plan_all(g ? &mine : o, &s, sweeps, jobs, njobs, g)) == 0) {
		interrupt_catch();
		rc = run_all(g ? &mine : o, jobs, njobs, g);
		interrupt_release();
	}
	group_leave(g);
out:
	for (size_t i = 0; jobs && i < njobs; i++)
		job_free(&jobs[i]);
	free(jobs);
	for (size_t i = 0; sweeps && i < s.n; i++)
		sweep_free(&sweeps[i]);
	free(sweeps);
	selection_free(&s);
	registry_free(&r);
	config_free(&c);
	return rc;
}

/*
 * `gpulab run`, and the run `gpulab try` ends with (cli/commands.h): the
 * configuration and the plugins loaded, the exercises chosen, and the
 * session (session/session.h) that plans and runs them.
 */
#include "cli/commands.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "session/session.h"

int cmd_run(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection s = { 0 };
	struct session run = { 0 };
	char err[2048];
	int broken, rc;

	if (o->npatterns == 0)
		return fail(EXIT_USAGE, "run: name at least one exercise (`gpulab %s` shows them)", row_list.name);
	/* a broken plugin matters to run only if it is asked for, and then
	 * select_exercises() says why */
	if ((rc = load(o, &c, &r, 0, &broken)))
		goto out;
	if ((rc = select_exercises(&r, o->patterns, o->npatterns, &s, err, sizeof err)))
		fail(rc, "%s", err);
	else
		rc = session_run(&run, o, &c, &r, &s);
out:
	session_free(&run);
	selection_free(&s);
	registry_free(&r);
	config_free(&c);
	return rc;
}

const struct command_row row_run = {
	.name = CMD_RUN,
	.args = "EXERCISE...",
	.summary = "run, verify and time: plugin.exercise, a plugin,\nor a glob such as 'reduce.unroll*'",
	.about = "Run, verify against the CPU and time each exercise: plugin.exercise, a\n"
		 "plugin (all its exercises), or a glob such as 'reduce.unroll*'. Every\n"
		 "value takes a list (1M,4M) or, for counts, a range A:B[:K] (a sweep).\n",
	.max_args = -1,
	.options = RUN_OPTIONS,
	.formats = ALL_FORMATS,
	.examples = "gpulab run reduce.unroll8\n"
		    "gpulab run 'reduce.unroll*' -n 2^28 -t float\n"
		    "gpulab run reduce.best reduce.cub -n 2^16:2^30:2 -o sweep.json\n",
	.page = "record.md",
	.run = cmd_run,
};

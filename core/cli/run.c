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
		return fail(EXIT_USAGE, "run: name at least one exercise (`gpulab list` shows them)");
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

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
#include "emit/writer.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "session/try_gate.h"

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

	if (o->npatterns == 1 && o->template_only && (o->given & OPT_BIT(OPT_FORMAT))) /* a .cu file, as it is */
		return fail(EXIT_USAGE, "try: --template prints a starting FILE.cu: it takes no --format");
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

const struct command_row row_try = {
	.name = "try",
	.args = "CHALLENGE FILE",
	.summary = "your kernel in FILE.cu, compiled at run time, checked on\n"
		   "edge cases, then timed beside the challenge's ladder",
	.usage = "try CHALLENGE --template",
	.about = "Your kernel in FILE.cu, compiled at run time with NVRTC, checked on the\n"
		 "challenge's edge cases, then timed beside its ladder. Challenges: reduce,\n"
		 "transpose, sum_matrix. Takes run's options but --batch.\n",
	.max_args = -1,
	.options = RUN_OPTIONS | OPT_BIT(OPT_TEMPLATE),
	.formats = ALL_FORMATS,
	.own = (const struct opt_help[]){ { OPT_WATCHDOG, "stop a run that takes over S seconds (default 10)" }, { 0 } },
	.examples = "gpulab try reduce --template > mine.cu\n"
		    "gpulab try reduce mine.cu -t float\n"
		    "gpulab try transpose tile.cu -p rows=1000 -p cols=3001\n",
	.run = cmd_try,
};

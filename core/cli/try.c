/*
 * gpulab try CHALLENGE FILE.cu: a learner's kernel on the bench.  The
 * challenge is a folder (plugins/challenge_dirs.h, docs/challenge.md),
 * named or given by its path, and an exercise of the `try` plugin, which
 * compiles FILE at run time; this command runs the exercise's gate first
 * (its test sizes, for every element type, and the point to be timed,
 * each verified and none timed), and only then the exercise beside the
 * plugin it is a challenge of, so the learner's row lands in that
 * plugin's table.  With --test, the gate's test sizes alone.
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
#include "plugins/challenge_dirs.h"
#include "plugins/match.h"
#include "session/try_gate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The gate's `part` of the challenge's exercise planned (and, but for the
 * point alone, run) with kernel FILE; the challenge's name, for the
 * exercise, in name. */
static int run_gate(const struct options *o, struct options *t, enum gate_part part, const char *arg, const char *file,
		struct selection *s, struct registry *r, char name[256])
{
	struct config c = { 0 };
	struct gate g = { .part = part };
	char err[2048], *pattern = name;
	int broken, rc;
	if ((rc = set_param(t, "kernel", file)) || (rc = load(o, &c, r, 0, &broken)))
		goto out;
	if ((rc = select_exercises(r, &pattern, 1, s, err, sizeof err))) {
		rc = fail(rc, "try: no challenge '%s' (%s)", arg, err);
		goto out;
	}
	if ((rc = gate_plan(&g, t, &c, &s->v[0], arg)) == 0 && part != GATE_POINT)
		rc = gate_run(&g, t, arg, file);
	if (!rc && part != GATE_POINT && report_for_people(o->format) && !o->quiet)
		printf("%s passed the gate: %zu cases, each for every element type%s\n%s", file, g.ncases - (part == GATE_ALL),
		       part == GATE_ALL ? ", and the point timed below" : "", part == GATE_ALL ? "\n" : "");
out:
	gate_free(&g);
	config_free(&c);
	return rc;
}

/* The challenge NAME-or-DIR read and handed to the plugin: its exercise's
 * name into name.  A name no folder has may still be the try plugin's
 * own exercise (a plugin of the tests'); a folder must read. */
static int find(const char *arg, struct challenge *ch, char name[256])
{
	char err[1024];
	if (!challenge_arg_is_dir(arg) && !param_valid_name(arg))
		return fail(EXIT_USAGE, "try: '%s' is not a challenge's name, nor a folder's path (./%s)", arg, arg);
	int rc = challenge_resolve(arg, ch, err, sizeof err);
	if (rc == EXIT_NOMATCH && !challenge_arg_is_dir(arg)) {
		ch->dir[0] = 0;
		snprintf(name, 256, "%s.%s", TRY_PLUGIN, arg);
		return 0;
	}
	if (rc)
		return fail(rc, "try: %s", err);
	if ((rc = challenges_export(ch->dir, err, sizeof err)))
		return fail(rc, "try: %s", err);
	snprintf(name, 256, "%s.%s", TRY_PLUGIN, ch->name);
	return 0;
}

int try_template(const struct options *o, const char *arg, int print)
{
	static struct challenge ch;
	struct options t = *o;
	struct registry r = { 0 };
	struct selection s = { 0 };
	char name[256], path[4200];
	int rc = find(arg, &ch, name);
	if (!rc && !ch.dir[0])
		rc = fail(EXIT_NOMATCH, "try: no template for '%s' (no challenge folder of that name)", arg);
	snprintf(path, sizeof path, "%s/template.cu", ch.dir);
	if (!rc && (rc = run_gate(o, &t, GATE_POINT, arg, path, &s, &r, name)) && rc != EXIT_NOMATCH)
		rc = fail(EXIT_CHALLENGE, "try: %s: the challenge's template does not pass its own plan (above)", path);
	FILE *f = !rc && print ? fopen(path, "r") : NULL;
	if (!rc && print && !f)
		rc = fail(EXIT_CHALLENGE, "try: %s: cannot be read", path);
	for (size_t n; f && (n = fread(path, 1, sizeof path, f)) > 0;)
		fwrite(path, 1, n, stdout);
	if (f)
		fclose(f);
	selection_free(&s);
	registry_free(&r);
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
	static struct challenge ch;
	struct options t = *o;
	struct registry r = { 0 };
	struct selection s = { 0 };
	char name[256];
	int rc;

	if (o->npatterns == 1 && o->template_only && (o->given & OPT_BIT(OPT_FORMAT))) /* a .cu file, as it is */
		return fail(EXIT_USAGE, "try: %s prints a starting FILE.cu: it takes no %s", options_long(OPT_TEMPLATE),
			    options_long(OPT_FORMAT));
	if (o->npatterns == 1 && o->template_only)
		return try_template(o, o->patterns[0], 1);
	if (o->npatterns != 2 || o->template_only)
		return fail(EXIT_USAGE, "try: name a challenge and your kernel, `gpulab %s reduce FILE.cu`, or ask for a "
					"start, `gpulab %s reduce %s > FILE.cu`", row_try.name, row_try.name,
			    options_long(OPT_TEMPLATE));
	if (o->batch > 1) /* the ladder a kernel joins is ranked one call at a time */
		return fail(EXIT_USAGE, "try: %s is for %s; try times one call per sample", options_long(OPT_BATCH), row_run.name);
	const char *arg = o->patterns[0], *file = o->patterns[1];
	if (options_param(o, "kernel"))
		return fail(EXIT_USAGE, "try: the kernel is FILE, `gpulab %s %s FILE.cu`, not %s kernel", row_try.name, arg,
			    options_short(OPT_PARAM));
	if ((rc = find(arg, &ch, name)))
		return rc;
	if (ch.dir[0] && !(o->given & OPT_BIT(OPT_WATCHDOG)))
		t.watchdog = ch.time_limit_s; /* the challenge's time limit, unless the user set one */
	rc = run_gate(o, &t, o->test_only ? GATE_CASES : GATE_ALL, arg, file, &s, &r, name);
	fflush(stdout);
	if (!rc && !o->test_only) { /* the challenge's plugin beside it, where it is loaded */
		char *both[] = { (char *)s.v[0].ex->peers, name };
		int peer = loaded(&r, s.v[0].ex->peers);
		t.patterns = peer ? both : both + 1;
		t.npatterns = peer ? 2 : 1;
		rc = cmd_run(&t);
	}
	selection_free(&s);
	registry_free(&r);
	return rc;
}

const struct command_row row_try = {
	.name = CMD_TRY,
	.args = "CHALLENGE FILE",
	.summary = "your kernel in FILE.cu, compiled at run time, checked on\n"
		   "edge cases, then timed beside the challenge's ladder",
	.usage = "try CHALLENGE --template",
	.about = "Your kernel in FILE.cu, compiled at run time with NVRTC, checked on the\n"
		 "challenge's test sizes, then timed beside its ladder. CHALLENGE is a name\n"
		 "(gpulab list shows them) or a folder's path (docs/challenge.md). Takes\n"
		 "run's options but --batch.\n",
	.max_args = -1,
	.options = RUN_OPTIONS | OPT_BIT(OPT_TEMPLATE) | OPT_BIT(OPT_TEST),
	.formats = ALL_FORMATS,
	.own = (const struct opt_help[]){ { OPT_WATCHDOG, "stop a run that takes over S seconds (default: the\n"
							  "challenge's time limit)" }, { 0 } },
	.examples = "gpulab try reduce --template > mine.cu\n"
		    "gpulab try reduce mine.cu -t float\n"
		    "gpulab try transpose tile.cu -p rows=1000 -p cols=3001\n",
	.run = cmd_try,
};

/*
 * `gpulab config [EXERCISE...]`: which INI files were read, in order, and
 * what came of each; where plugins are looked for; and for each exercise
 * named, every key's value and where it came from, as `git config
 * --show-origin` does.  So that no one edits a file gpulab never reads.
 */
#include "config.h"

#include "cli/commands.h"
#include "cli/paths.h"
#include "escape.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "config/sweep.h"
#include "run/job.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const seen_words[] = { [SEEN_READ] = "read", [SEEN_MISSING] = "missing",
					  [SEEN_REFUSED] = "refused", [SEEN_UNSET] = "unset" };

static void config_files(const struct config *c, FILE *out)
{
	fputs("configuration files, in the order read (a later one wins):\n", out);
	for (size_t i = 0; i < c->nseen; i++) {
		const struct seen *s = &c->seen[i];
		fprintf(out, "  %-8s %-15s ", seen_words[s->state], s->role);
		if (s->state == SEEN_UNSET && !strcmp(s->path, s->role))
			fputs("(not set)", out);
		else
			fput_escaped(out, s->path);
		if (s->why) {
			fputs("\n           ", out);
			fput_escaped(out, s->why);
		}
		fputc('\n', out);
	}
}

static void config_dirs(FILE *out)
{
	char dirs[2 * PATH_MAX], err[512];
	fputs("plugin directories, searched in order for a bare file = NAME.so:\n", out);
	if (paths_plugin_path(dirs, sizeof dirs, err, sizeof err)) {
		fputs("  ", out);
		fput_escaped(out, err);
		fputc('\n', out);
		return;
	}
	for (const char *d = dirs; *d;) {
		size_t len = strcspn(d, ":");
		if (len) {
			char one[PATH_MAX];
			snprintf(one, sizeof one, "%.*s", (int)len, d);
			fputs("  ", out);
			fput_escaped(out, one);
			fputc('\n', out);
		}
		d += len + (d[len] == ':');
	}
}

/* Each key of one exercise: its value (a list or range where one was
 * given) and where it came from, from its sweep as `gpulab run` resolves
 * it; then whether plan() takes its first point.  Nothing runs past plan. */
static void config_exercise(const struct pick *k, const struct options *o, const struct config *c, FILE *out)
{
	struct sweep s = { 0 };
	struct job j = { 0 };
	char name[256];
	int rc = sweep_resolve(&s, k->plugin->name, k->ex, o, c);
	snprintf(name, sizeof name, "%s.%s", k->plugin->name, k->ex->name);
	fputc('\n', out);
	fput_escaped(out, name);
	fputs(":\n", out);
	for (size_t i = 0; i < s.nkeys; i++) {
		const struct sweep_key *p = &s.keys[i];
		char flag[128];
		if (!p->axis)
			continue; /* not resolved: the refusal below says why */
		if (p->generic >= 0)
			snprintf(flag, sizeof flag, "%s", options_flag((enum generic)p->generic));
		else
			snprintf(flag, sizeof flag, "-p %s", p->decl.key);
		fprintf(out, "  %-16s ", flag);
		if (p->generic == GEN_REPS && p->defaulted) {
			const struct stopping stop = STOP_DEFAULTS;
			fprintf(out, "not set: repeats until the noise is at most %g%% (gpulab help run)\n",
				100 * stop.max_noise);
			continue;
		}
		fput_escaped(out, p->where);
		fputc('\n', out);
	}
	if (rc == 0 && (rc = job_plan(&j, k, &s, o, 0)) != 0)
		snprintf(s.why, sizeof s.why, "%s", j.res.message);
	if (rc) {
		fputs("  refused: ", out);
		fput_escaped(out, s.why);
		fputc('\n', out);
	}
	job_free(&j);
	sweep_free(&s);
}

int cmd_config(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection sel = { 0 };
	char err[2048];
	int broken = 0;
	int rc = config_load_all(&c, paths_sysconfdir(), o->config, err, sizeof err);
	config_files(&c, stdout);
	config_dirs(stdout);
	if (rc) {
		config_free(&c);
		return fail(rc, "%s", err);
	}
	if (o->npatterns) {
		config_free(&c);
		c = (struct config){ 0 };
		if ((rc = load(o, &c, &r, 1, &broken)) == 0
		    && (rc = select_exercises(&r, o->patterns, o->npatterns, &sel, err, sizeof err)) != 0)
			fail(rc, "config: %s", err);
		for (size_t i = 0; rc == 0 && i < sel.n; i++)
			config_exercise(&sel.v[i], o, &c, stdout);
	}
	selection_free(&sel);
	registry_free(&r);
	config_free(&c);
	return rc ? rc : broken;
}

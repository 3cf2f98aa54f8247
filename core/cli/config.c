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
#include "emit/configured.h"
#include "run/job.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each key of one exercise: its value (a list or range where one was
 * given) and where it came from, from its sweep as `gpulab run` resolves
 * it; then whether plan() takes its first point.  Nothing runs past plan. */
static void config_exercise(const struct pick *k, const struct options *o, const struct config *c,
			    const struct writer *w, struct configured *d)
{
	struct sweep s = { 0 };
	struct job j = { 0 };
	char name[256];
	int rc = sweep_resolve(&s, k->plugin->name, k->ex, o, c);
	snprintf(name, sizeof name, "%s.%s", k->plugin->name, k->ex->name);
	if (rc == 0 && (rc = job_plan(&j, k, &s, o, 0)) != 0)
		snprintf(s.why, sizeof s.why, "%s", j.res.message);
	d->name = name, d->s = &s, d->refused = rc ? s.why : NULL;
	writer_row(w, d, d->shown, stdout);
	job_free(&j);
	sweep_free(&s);
}

/* `gpulab config --variable NAME` and `--cflags`: what pkg-config says
 * of this gpulab's own gpulab.pc, found where it was installed, so that
 * a recipe works under any prefix with no PKG_CONFIG_PATH.  pkg-config
 * itself answers (its ${...} expansion, its escaping), from $PKG_CONFIG
 * as make's convention has it. */
static int config_pkg(const struct options *o)
{
	char pc[PATH_MAX], var[160], path[2 * PATH_MAX];
	const char *dir = paths_pkgconfigdir(), *old = getenv("PKG_CONFIG_PATH"), *tool = getenv("PKG_CONFIG");
	if (o->npatterns)
		return fail(EXIT_USAGE, "config: %s and %s take no exercise ('%s')", options_long(OPT_VARIABLE),
			    options_long(OPT_CFLAGS), o->patterns[0]);
	if (o->variable && o->cflags) /* pkg-config then prints the variable alone */
		return fail(EXIT_USAGE, "config: %s or %s, one at a time", options_long(OPT_VARIABLE),
			    options_long(OPT_CFLAGS));
	if (o->variable && (!*o->variable || strlen(o->variable) > 64
			    || strspn(o->variable, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
				       != strlen(o->variable)))
		return fail(EXIT_USAGE, "%s '%s': not a variable of gpulab.pc (letters, digits and _)",
			    options_long(OPT_VARIABLE), o->variable);
	snprintf(pc, sizeof pc, "%s/gpulab.pc", dir);
	if (access(pc, R_OK) != 0)
		return fail(EXIT_CONFIG, "config: %s: %s (gpulab.pc is installed by make install)", pc, strerror(errno));
	snprintf(var, sizeof var, "%s=%s", options_long(OPT_VARIABLE), o->variable ? o->variable : "");
	snprintf(path, sizeof path, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
	char *argv[] = { (char *)(tool && *tool ? tool : "pkg-config"),
			 o->variable ? var : (char *)options_long(OPT_CFLAGS), "gpulab", NULL };
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("PKG_CONFIG_PATH", path, 1);
		execvp(argv[0], argv);
		_exit(fail(EXIT_CONFIG, "config: %s cannot be run: %s", argv[0], strerror(errno)));
	}
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0)
		return fail(EXIT_NOMEM, "config: cannot fork: %s", strerror(errno));
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == EXIT_CONFIG))
		return WEXITSTATUS(status); /* its answer, or the child's line saying why not */
	return fail(EXIT_CONFIG, "config: %s failed on %s", argv[0], pc);
}

int cmd_config(const struct options *o)
{
	if ((o->variable || o->cflags) && (o->given & OPT_BIT(OPT_FORMAT))) /* pkg-config's words, as they are */
		return fail(EXIT_USAGE, "config: %s and %s print what pkg-config says: they take no %s",
			    options_long(OPT_VARIABLE), options_long(OPT_CFLAGS), options_long(OPT_FORMAT));
	if (o->variable || o->cflags)
		return config_pkg(o);
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection sel = { 0 };
	char err[2048];
	int broken = 0;
	char dirs[2 * PATH_MAX], why[512];
	const struct writer *w = config_writer(o->format);
	int rc = config_load_all(&c, paths_sysconfdir(), o->configs, o->nconfigs, err, sizeof err);
	int nodirs = paths_plugin_path(dirs, sizeof dirs, why, sizeof why);
	struct configured d = { .c = &c, .dirs = nodirs ? NULL : dirs, .dirs_error = why };
	writer_begin(w, &d, stdout);
	if (rc) {
		writer_end(w, &d, stdout);
		config_free(&c);
		return fail(rc, "%s", err);
	}
	/* the plugins too, always: a value their declarations refuse is a
	 * fault of these files, and run refuses it (exit 3) */
	config_free(&c);
	c = (struct config){ 0 };
	fflush(stdout);
	if ((rc = load(o, &c, &r, 1, &broken)) == 0 && o->npatterns
	    && (rc = select_exercises(&r, o->patterns, o->npatterns, &sel, err, sizeof err)) != 0)
		fail(rc, "config: %s", err);
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		config_exercise(&sel.v[i], o, &c, w, &d);
	writer_end(w, &d, stdout);
	selection_free(&sel);
	registry_free(&r);
	config_free(&c);
	return rc ? rc : broken;
}

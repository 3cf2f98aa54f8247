/*
 * What every command that runs or names exercises loads first: the INI
 * files and the plugins they name (cli/commands.h).
 */
#include "cli/commands.h"
#include "cli/paths.h"
#include "exitcode.h"

#include "plugins/challenge_dirs.h"
#include "plugins/match.h"

#include <limits.h>
#include <string.h>

/* One line for a plugin left out, within 100 columns where its paths
 * leave room: its INI file is named where that fits, then its name; the
 * reason, which names the file or the places searched, always. */
static void warn_broken(const struct plugin *p)
{
	char line[3][4096];
	snprintf(line[0], sizeof line[0], "plugin '%s' (%s) not loaded: %s", p->name, p->ini, p->error);
	snprintf(line[1], sizeof line[1], "plugin '%s' not loaded: %s", p->name, p->error);
	snprintf(line[2], sizeof line[2], "not loaded: %s", p->error);
	int i = 0;
	while (i < 2 && strlen("gpulab: ") + strlen(line[i]) > 100)
		i++;
	fail(0, "%s", line[i]); /* escaped */
}

int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken)
{
	char err[2048], dirs[2 * PATH_MAX];
	int rc = config_load_all(c, paths_sysconfdir(), o->configs, o->nconfigs, err, sizeof err);
	if (!rc)
		rc = paths_plugin_path(dirs, sizeof dirs, err, sizeof err);
	/* the try plugin's challenges, unless try or grade named them already */
	if (!rc)
		rc = challenges_export_unset(err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (registry_load(r, c, dirs) != 0)
		return fail(EXIT_NOMEM, "out of memory loading plugins");
	*broken = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct plugin *p = &r->v[i];
		if (!p->error)
			continue;
		if (!*broken && p->error_code == EXIT_CONFIG)
			*broken = EXIT_CONFIG;
		/* one a pattern names gets select_exercises()'s line instead */
		if (warn && !patterns_name_plugin(o->patterns, o->npatterns, p->name))
			warn_broken(p);
	}
	return 0;
}

/*
 * What every command that runs or names exercises loads first: the INI
 * files and the plugins they name (cli/commands.h).
 */
#include "cli/commands.h"
#include "cli/paths.h"
#include "exitcode.h"

#include <limits.h>

int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken)
{
	char err[2048], dirs[2 * PATH_MAX];
	int rc = config_load_all(c, paths_sysconfdir(), o->config, err, sizeof err);
	if (!rc)
		rc = paths_plugin_path(dirs, sizeof dirs, err, sizeof err);
	if (rc)
		return fail(rc, "%s", err);
	if (registry_load(r, c, dirs) != 0)
		return fail(EXIT_NOMEM, "out of memory loading plugins");
	*broken = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].error && warn) {
			fail(0, "plugin '%s' (%s) not loaded: %s", r->v[i].name, r->v[i].ini, r->v[i].error); /* escaped */
			if (!*broken)
				*broken = r->v[i].error_code;
		}
	return 0;
}

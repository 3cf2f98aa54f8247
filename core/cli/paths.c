#include "config.h"

#include "cli/paths.h"

#include "config/settings.h"
#include "exitcode.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v && *v ? v : def;
}

const char *paths_sysconfdir(void)
{
	return env_or("GPULAB_SYSCONFDIR", GPULAB_SYSCONFDIR);
}

const char *paths_pkgconfigdir(void)
{
	return env_or("GPULAB_PKGCONFIGDIR", GPULAB_PKGCONFIGDIR);
}

int paths_plugin_path(char *buf, size_t len, char *err, size_t errlen)
{
	char user[PATH_MAX];
	const char *dirs = env_or("GPULAB_PLUGIN_PATH", GPULAB_PLUGINDIR);
	int rc = config_user_data_dir(user, sizeof user, "/gpulab/plugins", err, errlen);
	if (rc)
		return rc;
	int n = snprintf(buf, len, "%s%s%s", dirs, user[0] ? ":" : "", user);
	if (n >= 0 && (size_t)n < len)
		return 0;
	snprintf(err, errlen, "GPULAB_PLUGIN_PATH is too long: over %zu bytes", len - 1);
	return EXIT_CONFIG;
}

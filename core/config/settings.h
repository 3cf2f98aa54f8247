/*
 * The INI files: which plugins exist, where their .so lives, and default
 * parameters.  Sections:
 *   [defaults]                   n, block, type, reps, warmup for all
 *   [plugin NAME]                file = NAME.so (required), then defaults
 *                                and plugin keys for the plugin's exercises
 *   [exercise NAME.EXERCISE]     defaults and keys for one exercise
 * The most specific section wins: [exercise] over [plugin] over
 * [defaults].  Between settings of one kind of section, the later file
 * wins, and in one file the later line.
 */
#ifndef GPULAB_SETTINGS_H
#define GPULAB_SETTINGS_H

#include <stddef.h>

enum scope { SCOPE_DEFAULTS, SCOPE_PLUGIN, SCOPE_EXERCISE };

struct setting {
	enum scope scope;
	char *target;      /* plugin name, or plugin.exercise; NULL for defaults */
	char *key, *value;
	const char *file;  /* points into config.files */
	int line;
};

struct config {
	struct setting *v;  /* in load order: files lowest precedence first */
	size_t n, cap;
	char **files;
	size_t nfiles;
};

/* Load one file; a missing optional file is no error.  Anything but a
 * regular file of at most 1 MiB is (a directory, a FIFO, a device), and
 * so is a line inih cannot hold whole.  Leading blanks are ignored, so
 * no line continues another.  Returns 0, or an exit code with one line
 * in err naming file, line and fault. */
int config_load(struct config *c, const char *path, int required,
		char *err, size_t errlen);

/* Load every file in precedence order (lowest first):
 *   SYSCONFDIR/gpulab.ini, SYSCONFDIR/conf.d/\*.ini (sorted),
 *   $XDG_CONFIG_HOME/gpulab/gpulab.ini, $GPULAB_CONFIG, then `explicit`.
 * A relative XDG_CONFIG_HOME is ignored (the XDG spec), for
 * $HOME/.config; a conf.d that exists but cannot be read is an error, and
 * so is a variable too long to make a path from. */
int config_load_all(struct config *c, const char *sysconfdir,
		    const char *explicit_file, char *err, size_t errlen);

/* The winning setting of key for an exercise (plugin "p", exercise "e";
 * e may be NULL for plugin-wide keys like `file`), or NULL. */
const struct setting *config_get(const struct config *c, const char *plugin,
				 const char *exercise, const char *key);

/* The same among the sections of one scope alone. */
const struct setting *config_get_at(const struct config *c, enum scope scope, const char *plugin,
				    const char *exercise, const char *key);

void config_free(struct config *c);

#endif

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

/* Every place a configuration file was looked for, in the order read,
 * and what came of it: for `gpulab config`. */
enum seen_state { SEEN_READ, SEEN_MISSING, SEEN_REFUSED, SEEN_UNSET };

struct seen {
	char *path;         /* the file or directory looked at; a variable's name when unset */
	const char *role;   /* "system", "system drop-in", "user", "user drop-in", ... */
	enum seen_state state;
	char *why;          /* SEEN_REFUSED: the error, one line; else NULL */
};

struct config {
	struct setting *v;  /* in load order: files lowest precedence first */
	size_t n, cap;
	char **files;
	size_t nfiles;
	struct seen *seen;  /* config_load_all's trace */
	size_t nseen;
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
 *   $XDG_CONFIG_HOME/gpulab/gpulab.ini, $XDG_CONFIG_HOME/gpulab/conf.d/\*.ini
 *   (sorted), $GPULAB_CONFIG, then the n `explicit` files (--config), in
 *   their order.
 * A relative XDG_CONFIG_HOME is ignored (the XDG spec), for
 * $HOME/.config; a conf.d that exists but cannot be read is an error, and
 * so is a variable too long to make a path from.  Each place looked at
 * is recorded in c->seen, the one refused included. */
int config_load_all(struct config *c, const char *sysconfdir, const char *const *explicit, int n,
		    char *err, size_t errlen);

/* The winning setting of key for an exercise (plugin "p", exercise "e";
 * e may be NULL for plugin-wide keys like `file`), or NULL. */
const struct setting *config_get(const struct config *c, const char *plugin,
				 const char *exercise, const char *key);

/* The same among the sections of one scope alone. */
const struct setting *config_get_at(const struct config *c, enum scope scope, const char *plugin,
				    const char *exercise, const char *key);

/* Add one setting as if a file had it at `line` (`file` must outlive c):
 * for a configuration made in memory (`gpulab check`).  0, or -1 when
 * memory ran out. */
int config_add(struct config *c, enum scope scope, const char *target, const char *key, const char *value,
	       const char *file, int line);

/* The user's directory for gpulab's data under $XDG_DATA_HOME (else
 * $HOME/.local/share), `sub` appended: "/gpulab/plugins".  "" where
 * neither is an absolute path; 0, or EXIT_CONFIG with err where the
 * path would be too long. */
int config_user_data_dir(char *path, size_t size, const char *sub, char *err, size_t errlen);

/* The same under $XDG_CONFIG_HOME (else $HOME/.config). */
int config_user_config_dir(char *path, size_t size, const char *sub, char *err, size_t errlen);

void config_free(struct config *c);

#endif

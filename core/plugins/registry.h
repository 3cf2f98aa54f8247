/*
 * The loaded plugins.  A plugin either loads fully (its .so opened, its
 * descriptor and every exercise checked, its INI keys known) or is left
 * out with one line saying why; the others carry on.
 */
#ifndef GPULAB_REGISTRY_H
#define GPULAB_REGISTRY_H

#include "config/settings.h"

#include <gpulab/plugin.h>

struct plugin {
	char *name;
	char *path;         /* the .so as resolved */
	const char *ini;    /* the INI file naming it */
	char *shadowed;     /* a bare NAME.so found in a later plugin directory too, not loaded
			     * (the first directory holding it wins); NULL for none */
	void *handle;       /* NULL if it failed to load */
	const struct gpulab_plugin *desc; /* the core's own copy, in this header's layout */
	char *error;        /* why it failed, one line: the .so's path first, where it has one */
	const char *why;    /* the same without that path (in error), for a line the path would
			     * push past 100 columns, and for check, which names FILE itself */
	int unread;         /* refused before its descriptor could be read (trust, dlopen, entry
			     * point, ABI): there is no declaration to check */
	int opened;         /* dlopen took it: a fault is its content's, not where it lies, so a
			     * line too long for its path may leave the path to `gpulab list` */
	int error_code;     /* EXIT_PLUGIN, or EXIT_CONFIG for a fault in its INI */
};

struct registry {
	struct plugin *v;
	size_t n;
};

/* Load every plugin the configuration names.  Relative `file`s are
 * looked up in each directory of plugin_path (':'-separated).  Returns 0,
 * or -1 if memory ran out; plugins that fail carry their error. */
int registry_load(struct registry *r, const struct config *c, const char *plugin_path);

/* Load the plugin at `path` (absolute) as `gpulab check` does, named by
 * its own descriptor, with no INI file: `origin` says where it came from.
 * Returns 0, or -1 if memory ran out; a plugin that fails carries its
 * error (and its path for a name). */
int registry_load_file(struct registry *r, const char *path, const char *origin);

/* Check a descriptor's ABI version and struct sizes, which must come
 * first: nothing else can be read before they are known.  Then check
 * the descriptor, in the core's layout: names, callbacks, declarations.
 * On failure, -1 with why in err.  Exposed for the tests. */
int registry_check_version(const struct gpulab_plugin *d, char *err, size_t errlen);
int registry_check(const struct gpulab_plugin *d, const char *name, char *err, size_t errlen);

void registry_free(struct registry *r);

#endif

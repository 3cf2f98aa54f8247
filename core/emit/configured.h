/* What `gpulab config` shows, as writers (emit/writer.h): the INI files
 * read and what came of each, the plugin directories, and each exercise
 * named with every key's value and where it came from. */
#ifndef GPULAB_EMIT_CONFIGURED_H
#define GPULAB_EMIT_CONFIGURED_H

#include "config/settings.h"
#include "config/sweep.h"
#include "emit/writer.h"

struct configured {
	const struct config *c;  /* the files seen, in the order read */
	const char *dirs;        /* the plugin directories, ':'-separated, or NULL ... */
	const char *dirs_error;  /* ... and why */
	/* the exercise row() prints: */
	const char *name;        /* plugin.exercise */
	const struct sweep *s;   /* its keys, as run resolves them */
	const char *refused;     /* why its first point is refused, or NULL */
	size_t shown;            /* exercises printed so far */
};

extern const struct writer configured_table, configured_json, configured_csv, configured_markdown;

#endif

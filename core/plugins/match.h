/* Which exercises `gpulab run PATTERN...` means. */
#ifndef GPULAB_MATCH_H
#define GPULAB_MATCH_H

#include "plugins/registry.h"

struct pick {
	const struct plugin *plugin;
	const struct gpulab_exercise *ex;
	int named;   /* a pattern named it alone (plugin.exercise, no glob) */
};

struct selection {
	struct pick *v;
	size_t n;
};

/* Each pattern is `plugin.exercise`, a plugin name (all its exercises, in
 * declaration order), or a glob of either (`reduce.unroll*`).  Picks are
 * in pattern order, each exercise once.  Returns 0, or an exit code with
 * one line in err (the nearest names suggested). */
int select_exercises(const struct registry *r, char *const *patterns, int n,
		     struct selection *out, char *err, size_t errlen);

/* Up to `max` names from the registry nearest to `name`, comma-separated
 * into buf; returns how many. */
int suggest(const struct registry *r, const char *name, int max, char *buf, size_t len);

/* Does one of the patterns name plugin `name` (its part before the dot
 * matches it)?  Their selection then fails on it, if it did not load. */
int patterns_name_plugin(char *const *patterns, int n, const char *name);

void selection_free(struct selection *s);

#endif

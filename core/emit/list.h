/* `gpulab list`: the plugins, their exercises, and every parameter each
 * takes, with its type, default and range. */
#ifndef GPULAB_LIST_H
#define GPULAB_LIST_H

#include "config/options.h"
#include "emit/writer.h"
#include "plugins/match.h"
#include "plugins/registry.h"

#include <stdio.h>

/* What list's writers print: the registry, and the exercises picked by
 * `gpulab list PATTERN...` (every one for NULL). */
struct list_doc {
	const struct registry *r;
	const struct selection *only;
	size_t shown;   /* JSON: plugins written so far */
};

/* Each parameter e takes, the generic ones first, as `fn` sees them (g:
 * its enum generic, or -1 for a key of its own); reps and warmup, the
 * same for all, are left to the header. */
void each_param(const struct gpulab_exercise *e, void (*fn)(const struct gpulab_param *, int, void *), void *arg);

/* Is exercise e among the picks (every exercise for NULL)?  Is any of
 * plugin p's? */
int picked(const struct selection *only, const struct gpulab_exercise *e);
int any_picked(const struct selection *only, const struct plugin *p);

/* "key=default;...", appended to arg (4096 bytes) as each_param's fn. */
void list_default_param(const struct gpulab_param *d, int g, void *arg);

/* list's writers, one per format: its table here, the others in csv.c,
 * json.c and markdown.c; writer.c picks one. */
extern const struct writer list_table, list_csv, list_json, list_markdown;

/* Every exercise, or those `only` picks (gpulab list PATTERN...); in the
 * table, one exercise named alone is shown in full. */
void list_print(const struct registry *r, const struct selection *only, enum format f, FILE *out);

#endif

/* `gpulab list`'s document, as its writers share it: one per format,
 * its table in list.c, the others in csv.c, json.c and markdown.c. */
#ifndef GPULAB_EMIT_LIST_DOC_H
#define GPULAB_EMIT_LIST_DOC_H

#include "emit/writer.h"
#include "plugins/challenge_dirs.h"
#include "plugins/match.h"
#include "plugins/registry.h"

#include <stddef.h>

/* What list's writers print: the registry, and the exercises picked by
 * `gpulab list PATTERN...` (every one for NULL). */
struct list_doc {
	const struct registry *r;
	const struct selection *only;
	size_t shown;   /* JSON: plugins written so far */
	const struct challenge_set *challenges; /* the try plugin's folders: where each was read */
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

#endif

/*
 * `gpulab record upgrade FILE [-o OUT] [--samples all]`: a record of any
 * schema a reader takes (1.x documents, 2.x journals) rewritten as the
 * journal `run -o` writes (docs/record.md, "On disk"), with at most
 * JSON_SAMPLES_KEPT samples a point (a uniform subset; all with
 * --samples all).  In place, FILE is replaced atomically (a temporary
 * beside it, renamed over it with its permissions, under the writers'
 * lock); with -o, OUT is written so and FILE left alone.  A run that did
 * not finish stays one: no closing line is made up for it.
 */
#ifndef GPULAB_UPGRADE_H
#define GPULAB_UPGRADE_H

#include "records/schema.h"

#include <stddef.h>

/* 0; or EXIT_USAGE / EXIT_NOMEM with one line, naming the file, in err. */
int record_upgrade(const char *in, const char *out, unsigned samples_keep, char *err, size_t len);

/* What a rewrite changes in the header: its schema, its command, and a
 * member key (added, or in place of one of that name) whose value is
 * the JSON text value, written as it is. */
struct head_change {
	const char *schema, *command, *key, *value;
};

/* in rewritten at out (not in place) as the same journal, its samples
 * as they are and its header changed by ch: `gpulab grade` names the
 * teacher's command and adds its ranking.  Returns as record_upgrade. */
int record_rewrite(const char *in, const char *out, const struct head_change *ch, char *err, size_t len);

#endif

/* `gpulab list`: the plugins, their exercises, and every parameter each
 * takes, with its type, default and range. */
#ifndef GPULAB_LIST_H
#define GPULAB_LIST_H

#include "config/options.h"
#include "plugins/challenge_dirs.h"
#include "plugins/match.h"
#include "plugins/registry.h"

#include <stdio.h>

/* Every exercise, or those `only` picks (gpulab list PATTERN...); in the
 * table, one exercise named alone is shown in full. */
void list_print(const struct registry *r, const struct selection *only, const struct challenge_set *challenges,
		enum format f, FILE *out);

#endif

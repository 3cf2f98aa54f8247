/* `gpulab list`: the plugins, their exercises, and every parameter each
 * takes, with its type, default and range. */
#ifndef GPULAB_LIST_H
#define GPULAB_LIST_H

#include "config/options.h"
#include "plugins/registry.h"

#include <stdio.h>

void list_print(const struct registry *r, enum format f, FILE *out);

#endif

/* `gpulab learn` alone: the map of lessons (learn/map.c). */
#ifndef GPULAB_LEARN_MAP_H
#define GPULAB_LEARN_MAP_H

#include "config/options.h"
#include "learn/lesson.h"
#include "learn/progress.h"

#include <stdio.h>

/* The lessons in s with the progress p, the next one last: for people,
 * or as JSON where f is json (gpulab-learn/1). */
void learn_map(const struct lesson_set *s, const struct progress *p, enum format f, FILE *out);

#endif

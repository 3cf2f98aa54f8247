/* gpulab learn's lessons as a path (learn/learn.c): the map, a lesson's
 * experiment and verdict, a submission judged against its target.  The
 * command's arguments are checked in cli/learning.c. */
#ifndef GPULAB_LEARN_LEARN_H
#define GPULAB_LEARN_LEARN_H

#include "config/options.h"

/* Without o->patterns, the map of the lessons and this user's state;
 * with one, that lesson's experiment, or o->submit judged against its
 * task.  The arguments are checked already.  0, or the exit code. */
int learn_lessons(const struct options *o);

/* Print text after label to stdout, wrapped at 100 columns under itself. */
void learn_wrap(const char *label, const char *text);

#endif

/* gpulab grade's kernels, each through `gpulab try` in a child, ranked
 * (learn/grade.c).  The command's arguments are checked in cli/learning.c. */
#ifndef GPULAB_LEARN_GRADE_H
#define GPULAB_LEARN_GRADE_H

#include "config/options.h"

/* Every .cu in the directories o->patterns[1...] graded against the
 * challenge o->patterns[0] (a valid name), the table printed, and with
 * o->output the record kept there.  0, or the exit code. */
int grade_kernels(const struct options *o);

#endif

/* gpulab grade's kernels, each through `gpulab try` in a child, ranked
 * (learn/grade.c).  The command's arguments are checked in cli/learning.c. */
#ifndef GPULAB_LEARN_GRADE_H
#define GPULAB_LEARN_GRADE_H

#include "config/options.h"
#include "plugins/challenge.h"

#include <stddef.h>

/* The exercise the challenge's rows are shared against, "plugin.exercise"
 * into buf, "" for none: found where the plugins are loaded, which is
 * cli/'s to do (cli/learning.c). */
typedef void grade_reference_fn(const struct options *o, const char *challenge, char *buf, size_t len);

/* Every .cu in the directories o->patterns[1...] graded against the
 * challenge o->patterns[0] (its name or folder; c its challenge.ini, or
 * NULL for an exercise of the try plugin with no folder), the table
 * printed, each row's share of reference's time, and with o->output the
 * record kept there.  Ranked (the default), each kernel is timed at c's
 * benchmark sizes (unless the user gave sizes), a child a size, and
 * ranked by the geometric mean of its medians; with o->test_only, each
 * runs the gate alone (try --test): nothing is timed, and -o's record
 * holds no point, only the ranking with its mode.
 * 0, or the exit code. */
int grade_kernels(const struct options *o, const struct challenge *c, grade_reference_fn *reference);

#endif

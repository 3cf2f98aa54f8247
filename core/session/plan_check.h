/* The plans `gpulab check` makes of each exercise (plan_check.c). */
#ifndef GPULAB_SESSION_PLAN_CHECK_H
#define GPULAB_SESSION_PLAN_CHECK_H

#include "config/options.h"
#include "plugins/match.h"

/* Problems into f, as "FILE\0PROBLEM\0" each, not stdout; NULL: stdout
 * again (check --format json). */
void check_problems_into(FILE *f);

/* One problem: a line on stdout naming the plugin file and what. */
__attribute__((format(printf, 2, 3))) void check_problem(const char *file, const char *fmt, ...);

/* plan() of exercise pk at its defaults, each key's limits and the
 * corners, each in a child process: how many problems, each a line. */
int check_plans(const char *file, const struct pick *pk, const struct options *o);

#endif

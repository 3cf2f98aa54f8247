/* gpulab learn's lessons as a path (learn/learn.c): the map, a lesson's
 * experiment and verdict, a submission judged against its target.  The
 * command's arguments are checked in cli/learning.c. */
#ifndef GPULAB_LEARN_LEARN_H
#define GPULAB_LEARN_LEARN_H

#include "config/options.h"

/* What gpulab learn is asked, from the command line (cli/learning.c
 * fills it): learn/ needs no more of the options than this. */
struct learn_ask {
	const char *lesson;           /* LESSON; NULL: the map */
	const char *submit;           /* --submit FILE.cu, or NULL */
	enum format format;
	struct stopping stop;         /* passed on to the runs, as the watchdog */
	double watchdog;              /* -1: not given */
	const char *const *configs;   /* --config FILE, each, in order */
	int nconfigs;
};

/* Without q->lesson, the map of the lessons and this user's state; with
 * one, that lesson's experiment, or q->submit judged against its task.
 * The arguments are checked already.  0, or the exit code. */
int learn_lessons(const struct learn_ask *q);

/* Print text after label to stdout, wrapped at 100 columns under itself. */
void learn_wrap(const char *label, const char *text);

#endif

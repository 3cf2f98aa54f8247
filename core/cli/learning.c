/* `gpulab learn` and `gpulab grade`: their arguments, checked before
 * learn/ does the work (learn/learn.c, learn/grade.c). */
#include "cli/commands.h"
#include "config/params.h"
#include "exitcode.h"
#include "learn/grade.h"
#include "learn/learn.h"

int cmd_learn(const struct options *o)
{
	if (o->npatterns > 1)
		return fail(EXIT_USAGE, "learn: one lesson at a time, `gpulab learn LESSON`; `gpulab learn` shows them all");
	for (int g = 0; g < NGENERIC; g++)
		if (o->generic[g] || o->nparams || o->output || o->metrics)
			return fail(EXIT_USAGE, "learn: the lesson sets what runs; it takes --submit, --max-noise, --min-time, "
						"--timeout, --watchdog and --config");
	if (o->submit && !o->npatterns)
		return fail(EXIT_USAGE, "learn: --submit goes with a lesson, `gpulab learn LESSON --submit FILE.cu`");
	return learn_lessons(o);
}

int cmd_grade(const struct options *o)
{
	if (o->npatterns < 2)
		return fail(EXIT_USAGE, "grade: name a challenge and the directories of kernels, `gpulab grade reduce DIR...`");
	if (!param_valid_name(o->patterns[0]))
		return fail(EXIT_USAGE, "grade: '%s' is not a challenge name (reduce, transpose, sum_matrix)", o->patterns[0]);
	return grade_kernels(o);
}

/* `gpulab learn` and `gpulab grade`: their arguments, checked before
 * learn/ does the work (learn/learn.c, learn/grade.c). */
#include "cli/commands.h"
#include "config/params.h"
#include "exitcode.h"
#include "learn/grade.h"
#include "learn/learn.h"
#include "plugins/challenge_dirs.h"

#include <string.h>

int cmd_learn(const struct options *o)
{
	if (o->npatterns > 1)
		return fail(EXIT_USAGE, "learn: one lesson at a time, `gpulab %s LESSON`; `gpulab %s` shows them all",
			    row_learn.name, row_learn.name);
	if (o->submit && !o->npatterns)
		return fail(EXIT_USAGE, "learn: %s goes with a lesson, `gpulab %s LESSON %s FILE.cu`", options_long(OPT_SUBMIT),
			    row_learn.name, options_long(OPT_SUBMIT));
	struct learn_ask q = { o->npatterns ? o->patterns[0] : NULL, o->submit, o->format, o->stop, o->watchdog, o->configs,
			       o->nconfigs };
	return learn_lessons(&q);
}

/* The exercise a challenge's rows are shared against, "plugin.exercise":
 * its peers' reference (try.reduce's is reduce's cub); "" for none.
 * Here, since it loads the plugins as every command does (load, cli/'s);
 * learn/grade.c calls it once the kernels are graded. */
static void grade_reference(const struct options *o, const char *challenge, char *buf, size_t len)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	const char *peers = NULL;
	int broken;
	buf[0] = 0;
	if (load(o, &c, &r, 0, &broken) == 0) {
		for (size_t i = 0; i < r.n; i++)
			for (size_t k = 0; r.v[i].desc && !strcmp(r.v[i].name, TRY_PLUGIN) && k < r.v[i].desc->n_exercises; k++)
				if (!strcmp(r.v[i].desc->exercises[k].name, challenge))
					peers = r.v[i].desc->exercises[k].peers;
		for (size_t i = 0; peers && i < r.n; i++)
			if (r.v[i].desc && !strcmp(r.v[i].name, peers) && r.v[i].desc->reference)
				snprintf(buf, len, "%s.%s", peers, r.v[i].desc->reference);
	}
	registry_free(&r);
	config_free(&c);
}

int cmd_grade(const struct options *o)
{
	static struct challenge c;
	char err[1024];
	int rc;
	if (o->npatterns < 2)
		return fail(EXIT_USAGE, "grade: name a challenge and the directories of kernels, `gpulab %s reduce DIR...`",
			    row_grade.name);
	const char *arg = o->patterns[0];
	if (!challenge_arg_is_dir(arg) && !param_valid_name(arg))
		return fail(EXIT_USAGE, "grade: '%s' is not a challenge's name, nor a folder's path (./%s)", arg, arg);
	/* the folder read and its template compiled before any kernel is: a
	 * wrong folder costs one line, with nothing graded.  A name with no
	 * folder may be an exercise of a try plugin of its own (the tests'). */
	rc = challenge_resolve(arg, &c, err, sizeof err);
	if (rc && (rc != EXIT_NOMATCH || challenge_arg_is_dir(arg)))
		return fail(rc, "grade: %s", err);
	if (!rc && (rc = try_template(o, arg, 0)))
		return rc;
	return grade_kernels(o, rc ? NULL : &c, grade_reference);
}

const struct command_row row_learn = {
	.name = CMD_LEARN,
	.args = "[LESSON]",
	.summary = "the lessons: the book's claims, tested on this GPU",
	.usage = "learn LESSON --submit FILE.cu",
	.about = "The lessons: each states one of the book's claims, runs the experiment that\n"
		 "tests it on this GPU, and says whether it holds; your progress is kept.\n"
		 "Alone, the map of lessons and the next one (learn.md, below). The lesson\n"
		 "sets what runs: it takes none of run's sizes, keys or outputs. With\n"
		 "--format json, the map, or a lesson with its run's verdict, as one document.\n",
	.max_args = -1,
	.options = OPT_BIT(OPT_SUBMIT) | STOP_OPTIONS,
	.formats = ALL_FORMATS, /* csv and md: the map's; json: the map's and a lesson's; --submit is for people */
	.examples = "gpulab learn\n"
		    "gpulab learn divergence\n"
		    "gpulab learn reduce-volatile-warp --submit mine.cu\n",
	.page = "learn.md",
	.run = cmd_learn,
};

const struct command_row row_grade = {
	.name = CMD_GRADE,
	.args = "CHALLENGE DIR...",
	.summary = "every .cu in DIR through try, each in its own process",
	.about = "Every .cu file in each DIR through try's gate and bench, each in a process\n"
		 "of its own, then ranked by the geometric mean of its medians at the\n"
		 "challenge's benchmark sizes; with --test, the gate alone. CHALLENGE is a\n"
		 "name or a folder's path (docs/challenge.md). Takes run's sizes and keys and\n"
		 "its stopping rule.\n",
	.max_args = -1,
	.options = GENERIC_OPTIONS | STOP_OPTIONS | OPT_BIT(OPT_OUTPUT) | OPT_BIT(OPT_QUIET) | OPT_BIT(OPT_TEST),
	.formats = ALL_FORMATS,
	.own = (const struct opt_help[]){ { OPT_OUTPUT, "the record of every kernel and the ranking (gpulab\n"
							"report draws the leaderboard)" },
					  { OPT_QUIET, "no progress line on a terminal" }, { 0 } },
	.examples = "gpulab grade reduce submissions/ -n 2^20 -t int -o grade.json\n"
		    "gpulab report grade.json -o board.html\n",
	.run = cmd_grade,
};

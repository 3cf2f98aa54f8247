/*
 * The commands that show what is here, needing no GPU but info: list
 * (the plugins and their keys), info (the GPUs), metrics (the counters'
 * names), and config's row (its work is cli/config.c's).
 */
#include "cli/commands.h"
#include "emit/facts.h"
#include "emit/list.h"
#include "exitcode.h"
#include "plugins/match.h"
#include "run/device.h"

#include <stdlib.h>

/* A challenge folder the try plugin leaves out (it cannot be read) is
 * said in one line each, as a plugin left out is: list still exits 0,
 * and `gpulab try NAME` says the same line with exit 15. */
static void say_unreadable(const struct challenge_set *s)
{
	struct challenge *c = malloc(sizeof *c);
	char err[1024];
	for (size_t i = 0; c && i < s->n; i++)
		if (challenge_load(c, s->v[i].dir, err, sizeof err))
			fail(0, "list: %s (left out)", err);
	free(c);
}

static int cmd_list(const struct options *o)
{
	struct config c = { 0 };
	struct registry r = { 0 };
	struct selection sel = { 0 };
	char err[1024];
	int broken, rc = load(o, &c, &r, 1, &broken);
	(void)broken; /* config's to tell, not list's (below) */
	if (rc == 0 && o->npatterns && (rc = select_exercises(&r, o->patterns, o->npatterns, &sel, err, sizeof err)))
		fail(rc, "list: %s", err);
	struct challenge_set found = { 0 };
	if (rc == 0 && challenges_find(&found, err, sizeof err)) /* a directory too long to name: none listed */
		found.n = 0;
	if (rc == 0)
		say_unreadable(&found);
	if (rc == 0)
		list_print(&r, o->npatterns ? &sel : NULL, &found, o->format, stdout);
	challenges_free(&found);
	selection_free(&sel);
	registry_free(&r);
	config_free(&c);
	/* one rule, run's: a plugin left out, for its .so or for its INI
	 * keys, is a warning line and the others are listed; it fails list
	 * only where a pattern asked for it (4, or 3 for its INI keys, from
	 * select_exercises).  A file that cannot be parsed fails it (3), in
	 * load; `gpulab config` is the command that checks the INI keys. */
	return rc;
}

const struct command_row row_list = {
	.name = CMD_LIST,
	.args = "[PATTERN...]",
	.summary = "plugins, exercises and their keys; one exercise in full",
	.about = "Every plugin and exercise, each key with its type and default. PATTERNs\n"
		 "are run's: plugin.exercise, a plugin, or a glob. One exercise named alone\n"
		 "is shown in full: its summary, every key with its type, default and the\n"
		 "values it takes, and the installed page that teaches it. Needs no GPU.\n"
		 "A plugin that does not load is a warning line; list fails for it only\n"
		 "where a PATTERN names it (exit 4; 3 for its INI keys), as run does.\n",
	.max_args = -1,
	.formats = ALL_FORMATS,
	.examples = "gpulab list\n"
		    "gpulab list 'reduce.unroll*'\n"
		    "gpulab list reduce.unroll8\n",
	.run = cmd_list,
};

static int cmd_info(const struct options *o)
{
	const struct writer *w = info_writer(o->format);
	struct device_info v[64];
	char err[512];
	int n, rc = w ? device_open_all(v, 64, &n, err, sizeof err) : device_print_all(stdout, err, sizeof err);
	if (rc == 0 && w)
		writer_end(w, &(struct info_doc){ v, (size_t)n }, stdout);
	return rc ? fail(rc, "%s", err) : 0;
}

const struct command_row row_info = {
	.name = CMD_INFO,
	.summary = "the GPU: limits, caches, peak memory bandwidth",
	.about = "Every GPU: its limits, caches, clocks and peak memory bandwidth.\n",
	.formats = ALL_FORMATS,
	.examples = "gpulab info\n"
		    "CUDA_VISIBLE_DEVICES=1 gpulab info\n",
	.run = cmd_info,
};

static int cmd_metrics(const struct options *o)
{
	writer_end(metrics_writer(o->format), NULL, stdout);
	return 0;
}

const struct command_row row_metrics = {
	.name = CMD_METRICS,
	.summary = "the nvprof metric names --metrics takes; what each reads",
	.about = "The book's nvprof metric names that --metrics takes, and the Nsight\n"
		 "Compute metrics each reads now.\n",
	.formats = ALL_FORMATS,
	.examples = "gpulab metrics\n"
		    "gpulab run divergence.math1 --metrics warp_execution_efficiency\n",
	.run = cmd_metrics,
};

const struct command_row row_config = {
	.name = CMD_CONFIG,
	.args = "[EXERCISE]",
	.summary = "the INI files read, the plugin directories, and where\n"
		   "each of an exercise's values comes from",
	.about = "Every INI file in the order read (read, missing or refused, and why), and\n"
		 "the plugin directories. With an exercise, each of its keys' value and\n"
		 "where it came from: the command line, FILE:LINE, or the default. Takes\n"
		 "run's -n, -b, -t, -r, -w and -p, to show what they change.\n",
	.max_args = -1,
	.options = GENERIC_OPTIONS | OPT_BIT(OPT_VARIABLE) | OPT_BIT(OPT_CFLAGS),
	.formats = ALL_FORMATS,
	.examples = "gpulab config\n"
		    "gpulab config reduce.best\n"
		    "gpulab config reduce.best -n 2^20 --config mine.ini\n"
		    "$(gpulab config --variable=nvcc) $(gpulab config --variable=nvccflags) \\\n"
		    "    $(gpulab config --cflags) -o mine.so mine.cu\n",
	.run = cmd_config,
};

/* What the commands share: loading is in cli/load.c, `run` in cli/run.c
 * (the session it runs is session/'s), `try` in cli/try.c, and the
 * dispatch in cli/main.c calls them. */
#ifndef GPULAB_COMMANDS_H
#define GPULAB_COMMANDS_H

#include "config/options.h"
#include "config/settings.h"
#include "fail.h"
#include "plugins/registry.h"

/* Load the INI files and every plugin they name.  With warn, say in one
 * line each which plugins failed (but those o's patterns name: selecting
 * them says why).  *broken is EXIT_CONFIG where a plugin failed for a
 * fault of the INI files (a value its declaration refuses), else 0: a
 * plugin that cannot be loaded fails only a command that asks for it. */
int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken);

/* `gpulab run` with o's exercises and options. */
int cmd_run(const struct options *o);

/* `gpulab try CHALLENGE FILE.cu`, or `gpulab try CHALLENGE --template`. */
int cmd_try(const struct options *o);

/* `gpulab learn [LESSON [--submit FILE.cu]]` (cli/learn.c). */
int cmd_learn(const struct options *o);

/* `gpulab grade CHALLENGE DIR...` (cli/grade.c). */
int cmd_grade(const struct options *o);

/* Print text after label to stdout, wrapped at 100 columns under itself. */
void learn_wrap(const char *label, const char *text);

/* `gpulab config [EXERCISE...]`: the files read, the plugin directories,
 * and where each of an exercise's values comes from (cli/config.c). */
int cmd_config(const struct options *o);

/* `gpulab new NAME`: a plugin skeleton in NAME/ (cli/new.c). */
int cmd_new(const struct options *o);

/* `gpulab check FILE.so...`: a plugin checked without a GPU (cli/check.c). */
int cmd_check(const struct options *o);

#endif

/* What the commands share (cli/main.c); `try` is in cli/try.c. */
#ifndef GPULAB_COMMANDS_H
#define GPULAB_COMMANDS_H

#include "config/options.h"
#include "config/settings.h"
#include "plugins/registry.h"

/* One line on stderr, "gpulab: ..." escaped; returns code. */
int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Load the INI files and every plugin they name.  With warn, say which
 * plugins failed, and set *broken to the exit code of the first. */
int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken);

/* `gpulab run` with o's exercises and options. */
int cmd_run(const struct options *o);

/* `gpulab try CHALLENGE FILE.cu`, or `gpulab try CHALLENGE --template`. */
int cmd_try(const struct options *o);

#endif

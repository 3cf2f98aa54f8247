/* `gpulab help [COMMAND]`, `gpulab COMMAND --help`: the general help, or
 * one command's own options and examples.  Every line fits 80 columns. */
#ifndef GPULAB_HELP_H
#define GPULAB_HELP_H

#include <stdio.h>

/* The general help for NULL or "help"; else the command's.  0, or
 * EXIT_USAGE with one line on stderr for a command there is none of. */
int help_print(const char *command, FILE *out);

/* "list, info, ...": every command, for an error's line. */
const char *help_commands(void);

/* Where the pages of docs/ are installed ($(docdir)), or $GPULAB_DOCDIR
 * (the build tree's script names the source's docs/): what help, list
 * and learn cite, so that a page they name is there to open. */
const char *docs_dir(void);

#endif

/* Where the pages a command's help, list and learn cite are.  The help
 * itself is made from the commands' rows (cli/help.c). */
#ifndef GPULAB_HELP_H
#define GPULAB_HELP_H

/* Where the pages of docs/ are installed ($(docdir)), or $GPULAB_DOCDIR
 * (the build tree's script names the source's docs/): what help, list
 * and learn cite, so that a page they name is there to open. */
const char *docs_dir(void);

#endif

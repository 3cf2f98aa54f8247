/* Where the pages of docs/ are: a helper of the ground floor, since
 * help (cli/), list (emit/) and learn (learn/) all cite them. */
#ifndef GPULAB_DOCS_H
#define GPULAB_DOCS_H

/* Where the pages of docs/ are installed ($(docdir)), or $GPULAB_DOCDIR
 * (the build tree's script names the source's docs/): what help, list
 * and learn cite, so that a page they name is there to open. */
const char *docs_dir(void);

#endif

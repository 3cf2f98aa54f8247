/* A file written whole or not at all: the text goes to a temporary
 * beside it, which replaces it only once complete, so a reader never
 * finds half a record or half a report, and a failure leaves the old
 * file as it was. */
#ifndef GPULAB_OUTFILE_H
#define GPULAB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	const char *path;
	char tmp[4200];
	FILE *f;
};

/* Open the temporary for path: 0, or EXIT_USAGE with why in err (the
 * caller names the path).  Opened before any work, so a path that cannot
 * be written costs none. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t len);

/* Close the temporary and put it in path's place, both synced to the
 * disk, so that a power loss leaves the old file or the new one whole:
 * 0, or EXIT_USAGE with why in err, the temporary removed. */
int outfile_commit(struct outfile *o, char *err, size_t len);

/* Close and remove the temporary, leaving path alone. */
void outfile_abandon(struct outfile *o);

#endif

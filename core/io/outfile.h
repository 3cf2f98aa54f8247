/* A file written whole or not at all, safe to point anywhere: the text
 * goes to a temporary beside it, which replaces it only once complete, so
 * a reader never finds half a record or half a report, and a failure
 * leaves the old file as it was.
 *
 * The target is checked before any work: a device, a FIFO, a socket or
 * a directory is refused; a symbolic link is followed to its target,
 * which keeps its permissions.  The temporary is named for the target
 * (FILE.gpulab.tmp), never for a PID, created with O_EXCL and locked
 * (flock) while it is written: a second writer is refused at once,
 * naming the PID that holds it, and a temporary a killed run left is
 * taken over by the next run of the same user; another user's is
 * refused, so that a record is only ever its writer's. */
#ifndef GPULAB_OUTFILE_H
#define GPULAB_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define OUTFILE_SUFFIX ".gpulab.tmp"

struct outfile {
	char path[PATH_MAX];                        /* the target, links followed */
	char tmp[PATH_MAX + sizeof OUTFILE_SUFFIX]; /* path.gpulab.tmp */
	FILE *f;
	int lock;                                   /* the target as it was, locked; or -1 */
};

/* Is path a place a file may go: a regular file, a name not taken yet
 * in a directory, or a symbolic link to either?  0 with its real path
 * (links followed) in real, or EXIT_USAGE with why in err. */
int outfile_target(const char *path, char *real, size_t rlen, char *err, size_t len);

/* Open the locked temporary for path: 0, or EXIT_USAGE with why in err
 * (the caller names the path). */
int outfile_open(struct outfile *o, const char *path, char *err, size_t len);

/* Close the temporary and put it in path's place, both synced to the
 * disk, so that a power loss leaves the old file or the new one whole:
 * 0, or EXIT_USAGE with why in err, the temporary removed. */
int outfile_commit(struct outfile *o, char *err, size_t len);

/* Close and remove the temporary, leaving path alone. */
void outfile_abandon(struct outfile *o);

/* A file written whole elsewhere (a run's record, in a directory of its
 * own) put at `to`, checked as any target is (outfile_target) and
 * renamed, its directory synced: 0, or EXIT_USAGE with why in err. */
int outfile_move(const char *from, const char *to, char *err, size_t len);

/* A lock file at path, made (0600) where missing and never written,
 * locked (flock, waiting for another holder) until closed: its
 * descriptor, or -1 with errno. */
int outfile_lock_file(const char *path);

/* --- the pieces, for the journal (io/journal.h) ------------------------ */

/* Create the temporary tmp (O_EXCL), or take over one this user's
 * killed run left (another user's, a link or a file with another name
 * is refused), locked, empty, with the permissions (never the owner) of
 * `like` where that exists: its descriptor, or -1 with why in err. */
int outfile_temporary(const char *tmp, const char *like, char *err, size_t len);

/* Lock the existing file path (not created): its descriptor; -2 where
 * there is none; -1 with why in err where another holds it. */
int outfile_lock_existing(const char *path, char *err, size_t len);

/* fsync or fdatasync fd where the file system can; the directory holding
 * path synced: 0 or -1 with errno. */
int outfile_sync(int fd, int data_only);
int outfile_sync_dir(const char *path);

#endif

#include "emit/outfile.h"

#include "exitcode.h"
#include "run/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	int fd;
	o->path = path;
	o->f = NULL;
	if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%s.%ld.tmp", path, (long)getpid()) >= sizeof o->tmp) {
		snprintf(err, len, "the name is too long");
		return EXIT_USAGE;
	}
	interrupt_temporary(o->tmp); /* a second signal removes it, on any thread */
	/* O_EXCL and O_NOFOLLOW: never through a link someone left there */
	if ((fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0
	    || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd), unlink(o->tmp);
		interrupt_temporary(NULL);
		snprintf(err, len, "cannot write beside it: %s", strerror(e));
		return EXIT_USAGE;
	}
	return 0;
}

/* fsync(fd), where the file system can: EINVAL is one that cannot (a
 * pipe, some FUSE mounts), and there is nothing to wait for. */
static int synced(int fd)
{
	return fsync(fd) == 0 || errno == EINVAL;
}

/* The directory holding path, synced: the rename itself on the disk. */
static int sync_dir(const char *path)
{
	char dir[4200];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ok = fd >= 0 && synced(fd), e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return ok ? 0 : -1;
}

/* The data is on the disk before the name points at it, and the name
 * after: without the first, a file system may commit the rename before
 * the data, and a power loss then leaves an empty record in the old
 * one's place; without the second, the old record may come back. */
int outfile_commit(struct outfile *o, char *err, size_t len)
{
	int ok = fflush(o->f) == 0 && !ferror(o->f) && synced(fileno(o->f)), e = errno;
	if (fclose(o->f) != 0 && ok)
		ok = 0, e = errno;
	o->f = NULL;
	if (ok && rename(o->tmp, o->path) != 0)
		ok = 0, e = errno;
	if (!ok)
		unlink(o->tmp);
	interrupt_temporary(NULL);
	if (!ok) {
		snprintf(err, len, "cannot write: %s", strerror(e));
		return EXIT_USAGE;
	}
	if (sync_dir(o->path)) {
		snprintf(err, len, "written, but its directory cannot be synced: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

void outfile_abandon(struct outfile *o)
{
	if (!o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	unlink(o->tmp);
	interrupt_temporary(NULL);
}

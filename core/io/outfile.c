#include "command_names.h"
#include "io/outfile.h"

#include "exitcode.h"
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int outfile_target(const char *path, char *real, size_t rlen, char *err, size_t len)
{
	struct stat st;
	char dir[PATH_MAX], rdir[PATH_MAX];
	if (!path[0] || strlen(path) >= PATH_MAX - sizeof OUTFILE_SUFFIX)
		return snprintf(err, len, "%s", path[0] ? "the name is too long" : "an empty name"), EXIT_USAGE;
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return snprintf(err, len, "is %s, not a file a record may replace: nothing was run",
					kind_of(st.st_mode)), EXIT_USAGE;
		if (!realpath(path, real) || strlen(real) >= rlen)
			return snprintf(err, len, "%s", strerror(errno)), EXIT_USAGE;
		return 0;
	}
	if (errno != ENOENT)
		return snprintf(err, len, "%s", strerror(errno)), EXIT_USAGE;
	if (lstat(path, &st) == 0) /* a link to nothing: where it points is not ours to create */
		return snprintf(err, len, "a symbolic link to nothing: not followed"), EXIT_USAGE;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	if (!base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
		return snprintf(err, len, "is a directory, not a file a record may replace: nothing was run"), EXIT_USAGE;
	if (!realpath(dir, rdir))
		return snprintf(err, len, "cannot write beside it: %s", strerror(errno)), EXIT_USAGE;
	if (stat(rdir, &st) || !S_ISDIR(st.st_mode))
		return snprintf(err, len, "%s", strerror(ENOTDIR)), EXIT_USAGE;
	if ((size_t)snprintf(real, rlen, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base) >= rlen)
		return snprintf(err, len, "the name is too long"), EXIT_USAGE;
	return 0;
}

/* Who holds the flock on fd's file, from /proc/locks (Linux). */
static void holder(int fd, char *buf, size_t len)
{
	struct stat st;
	char line[256];
	FILE *f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
	snprintf(buf, len, "another process");
	while (f && fgets(line, sizeof line, f)) {
		long pid;
		unsigned long long ino;
		char kind[16];
		if (!strstr(line, "->") && sscanf(line, "%*s %15s %*s %*s %ld %*x:%*x:%llu", kind, &pid, &ino) == 3
		    && !strcmp(kind, "FLOCK") && ino == (unsigned long long)st.st_ino) {
			snprintf(buf, len, "another gpulab " CMD_RUN " (PID %ld)", pid);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* Lock fd and check that it is still path's file (not one a writer
 * renamed or removed meanwhile): 1 locked, 0 stale (try again), -1 held
 * (why in err). */
static int lock_fd(int fd, const char *path, char *err, size_t len)
{
	struct stat a, b;
	char who[96];
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		holder(fd, who, sizeof who);
		snprintf(err, len, "in use by %s: one writer at a time", who);
		return -1;
	}
	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int outfile_lock_existing(const char *path, char *err, size_t len)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
		if (fd < 0)
			return errno == ENOENT ? -2 : (snprintf(err, len, "%s", strerror(errno)), -1);
		if ((rc = lock_fd(fd, path, err, len)) == 1)
			return fd;
		close(fd);
		if (rc < 0)
			return -1;
	}
	snprintf(err, len, "it keeps being replaced by another writer");
	return -1;
}

/* Its permissions for the temporary: the file it replaces', so that a
 * 0600 record stays 0600; its read, write and execute bits alone, never
 * setuid, setgid or sticky: a record is data, and a run by root must not
 * leave a setuid file where one was (docs/record.md).  Never its owner:
 * a record belongs to the one who wrote it, so that no other user's file
 * can hold what this run says it measured (docs/security.md). */
static void take_mode(int fd, const char *like)
{
	struct stat st;
	if (like && stat(like, &st) == 0 && S_ISREG(st.st_mode))
		fchmod(fd, st.st_mode & 0777);
}

/* The temporary created new (O_EXCL), or, where one is there already,
 * opened only if it is this user's own plain file: another user's, left
 * in a shared folder, would make the finished record theirs, at their
 * mode.  Its descriptor, or -1 with why in err. */
static int own_temporary(const char *tmp, char *err, size_t len)
{
	struct stat st;
	/* O_NOFOLLOW: never through a link someone left there */
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd >= 0 || errno != EEXIST) {
		if (fd < 0)
			snprintf(err, len, "cannot write beside it (%s): %s", tmp, strerror(errno));
		return fd;
	}
	if ((fd = open(tmp, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)) < 0) {
		snprintf(err, len, "cannot write beside it (%s): %s", tmp, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1)
		return fd; /* one a killed run of this user's left: taken over */
	snprintf(err, len, "cannot write beside it: %s is there, %s: not taken over (remove it)", tmp,
		 !S_ISREG(st.st_mode) ? "not a regular file" : st.st_uid != geteuid() ? "another user's" : "with another name");
	close(fd);
	return -1;
}

int outfile_temporary(const char *tmp, const char *like, char *err, size_t len)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd = own_temporary(tmp, err, len), rc;
		if (fd < 0)
			return -1;
		if ((rc = lock_fd(fd, tmp, err, len)) == 1) {
			struct stat st;
			if (fstat(fd, &st) || !S_ISREG(st.st_mode) || ftruncate(fd, 0)) {
				snprintf(err, len, "cannot write beside it (%s): %s", tmp,
					 S_ISREG(st.st_mode) ? strerror(errno) : "not a regular file");
				close(fd);
				return -1;
			}
			take_mode(fd, like);
			return fd;
		}
		close(fd);
		if (rc < 0)
			return -1;
	}
	snprintf(err, len, "cannot write beside it (%s): it keeps being replaced", tmp);
	return -1;
}

int outfile_sync(int fd, int data_only)
{
	/* EINVAL: a file system that cannot sync (a pipe, some FUSE mounts) */
	return (data_only ? fdatasync(fd) : fsync(fd)) == 0 || errno == EINVAL ? 0 : -1;
}

int outfile_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ok = fd >= 0 && outfile_sync(fd, 0) == 0, e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return ok ? 0 : -1;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	int fd, rc;
	o->f = NULL;
	o->lock = -1;
	if ((rc = outfile_target(path, o->path, sizeof o->path, err, len)))
		return rc;
	snprintf(o->tmp, sizeof o->tmp, "%s%s", o->path, OUTFILE_SUFFIX);
	interrupt_temporary(o->tmp); /* a second signal removes it, on any thread */
	if ((fd = outfile_temporary(o->tmp, o->path, err, len)) < 0) {
		interrupt_temporary(NULL);
		return EXIT_USAGE;
	}
	if (!(o->f = fdopen(fd, "w"))) {
		snprintf(err, len, "cannot write beside it: %s", strerror(errno));
		close(fd);
		unlink(o->tmp);
		interrupt_temporary(NULL);
		return EXIT_USAGE;
	}
	return 0;
}

/* The data is on the disk before the name points at it, and the name
 * after: without the first, a file system may commit the rename before
 * the data, and a power loss then leaves an empty file in the old one's
 * place; without the second, the old file may come back. */
int outfile_commit(struct outfile *o, char *err, size_t len)
{
	int ok = fflush(o->f) == 0 && !ferror(o->f) && outfile_sync(fileno(o->f), 0) == 0, e = errno;
	if (ok && rename(o->tmp, o->path) != 0)
		ok = 0, e = errno;
	if (!ok)
		unlink(o->tmp);
	if (fclose(o->f) != 0 && ok) /* closed after the rename: the lock held until the name is the target's */
		ok = 0, e = errno;
	o->f = NULL;
	interrupt_temporary(NULL);
	if (!ok) {
		snprintf(err, len, "cannot write: %s", strerror(e));
		return EXIT_USAGE;
	}
	if (outfile_sync_dir(o->path)) {
		snprintf(err, len, "written, but its directory cannot be synced: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

void outfile_abandon(struct outfile *o)
{
	if (!o->f)
		return;
	unlink(o->tmp); /* while locked: no other writer has it */
	fclose(o->f);
	o->f = NULL;
	interrupt_temporary(NULL);
}

int outfile_move(const char *from, const char *to, char *err, size_t len)
{
	char real[PATH_MAX];
	int rc = outfile_target(to, real, sizeof real, err, len);
	if (rc)
		return rc;
	if (rename(from, real) != 0)
		return snprintf(err, len, "%s", strerror(errno)), EXIT_USAGE;
	if (outfile_sync_dir(real))
		return snprintf(err, len, "moved, but its directory cannot be synced: %s", strerror(errno)), EXIT_USAGE;
	return 0;
}

int outfile_lock_file(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600), e;
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

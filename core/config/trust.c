#include "config/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Symbolic links followed before giving up, as the kernel's ELOOP. */
#define TRUST_MAX_LINKS 40

/* A walk from / to the file, resolving each component as the kernel
 * would, so that every directory it passes through is checked. */
struct trust_walk {
	const char *path;       /* as given, for messages */
	char dir[PATH_MAX];     /* resolved so far, without symbolic links; "" is / */
	char todo[PATH_MAX];    /* the components still to walk */
	int links;
	char *err;
	size_t errlen;
};

int trust_bare_name(const char *name)
{
	return *name && strcmp(name, ".") && !strchr(name, '/') && !strstr(name, "..");
}

const char *trust_kind(mode_t mode)
{
	if (S_ISDIR(mode)) return "a directory";
	if (S_ISFIFO(mode)) return "a FIFO";
	if (S_ISCHR(mode)) return "a character device";
	if (S_ISBLK(mode)) return "a block device";
	if (S_ISSOCK(mode)) return "a socket";
	if (S_ISLNK(mode)) return "a symbolic link";
	return "an unknown kind of file";
}

static int trust_fail(struct trust_walk *w, const char *what, const char *why)
{
	snprintf(w->err, w->errlen, "%s: %s%s", w->path, what, why);
	return -1;
}

/* The file the walk stopped at cannot be reached; say it as dlopen would. */
static int trust_missing(struct trust_walk *w, int errnum)
{
	return trust_fail(w, "cannot open shared object file: ", strerror(errnum));
}

/* What trust_owner_mode asks of each kind: a symbolic link's mode means
 * nothing, and a directory may be a root-owned sticky one like /tmp. */
enum trust_what { TRUST_FILE, TRUST_DIR, TRUST_LINK };

/* Owned by root or the effective user, and writable by no one else. */
static int trust_owner_mode(struct trust_walk *w, const char *what, const char *name,
			    const struct stat *st, enum trust_what kind)
{
	char why[128];
	uid_t me = geteuid();
	int sticky_root = kind == TRUST_DIR && (st->st_mode & S_ISVTX) && st->st_uid == 0;
	if (st->st_uid != 0 && st->st_uid != me) {
		snprintf(why, sizeof why, " is owned by uid %u, not by root or you (uid %u)", (unsigned)st->st_uid, (unsigned)me);
	} else if (kind != TRUST_LINK && (st->st_mode & (S_IWGRP | S_IWOTH)) && !sticky_root) {
		snprintf(why, sizeof why, " is writable by group or others (mode %04o)", (unsigned)(st->st_mode & 07777));
	} else {
		return 0;
	}
	snprintf(w->err, w->errlen, "%s: %s%s%s; a plugin runs as you, so only one no one else can change is loaded",
		 w->path, what, name, why);
	return -1;
}

/* Take the first component of w->todo into name; 0 when none is left. */
static int trust_next(struct trust_walk *w, char name[NAME_MAX + 1])
{
	char *p = w->todo + strspn(w->todo, "/");
	size_t len = strcspn(p, "/");
	if (len == 0)
		return 0;
	if (len > NAME_MAX)
		return trust_missing(w, ENAMETOOLONG);
	memcpy(name, p, len);
	name[len] = 0;
	memmove(w->todo, p + len, strlen(p + len) + 1);
	return 1;
}

/* Walk on through the link at `at` (in w->dir, checked): its target
 * goes before what is left; an absolute one starts again from /. */
static int trust_follow(struct trust_walk *w, const char *at, const struct stat *st)
{
	char target[PATH_MAX], rest[PATH_MAX];
	ssize_t n = readlink(at, target, sizeof target - 1);
	if (++w->links > TRUST_MAX_LINKS)
		return trust_missing(w, ELOOP);
	if (n < 0)
		return trust_missing(w, errno);
	target[n] = 0;
	if (trust_owner_mode(w, "symbolic link ", at, st, TRUST_LINK) != 0)
		return -1;
	snprintf(rest, sizeof rest, "%s", w->todo);
	if (snprintf(w->todo, sizeof w->todo, "%s/%s", target, rest) >= (int)sizeof w->todo)
		return trust_missing(w, ENAMETOOLONG);
	if (target[0] == '/')
		w->dir[0] = 0;
	return 0;
}

/* The file itself, opened without blocking (a FIFO opens at once) and
 * without following a link (the walk resolved them all). */
static int trust_file(struct trust_walk *w, const char *at)
{
	struct stat st;
	int fd = open(at, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW), rc = 0;
	if (fd < 0)
		return trust_missing(w, errno);
	if (fstat(fd, &st) != 0)
		rc = trust_missing(w, errno);
	else if (!S_ISREG(st.st_mode))
		rc = trust_fail(w, trust_kind(st.st_mode), ", not a regular file");
	else
		rc = trust_owner_mode(w, "", "the file", &st, TRUST_FILE);
	close(fd);
	return rc;
}

/* One component: a directory to enter, a link to follow, or the file. */
static int trust_step(struct trust_walk *w, const char *name)
{
	char at[PATH_MAX];
	struct stat st;
	if (!strcmp(name, "."))
		return 0;
	if (!strcmp(name, "..")) { /* w->dir has no links: its parent is its prefix, and /.. is / */
		char *slash = strrchr(w->dir, '/');
		if (slash)
			*slash = 0;
		return 0;
	}
	if (snprintf(at, sizeof at, "%s/%s", w->dir, name) >= (int)sizeof at)
		return trust_missing(w, ENAMETOOLONG);
	if (lstat(at, &st) != 0)
		return trust_missing(w, errno);
	if (S_ISLNK(st.st_mode))
		return trust_follow(w, at, &st);
	if (!w->todo[strspn(w->todo, "/")])
		return trust_file(w, at) ? -1 : 1;
	if (!S_ISDIR(st.st_mode))
		return trust_missing(w, ENOTDIR);
	if (trust_owner_mode(w, "directory ", at, &st, TRUST_DIR) != 0)
		return -1;
	memcpy(w->dir, at, sizeof at);
	return 0;
}

int trust_config(const char *path, const struct stat *st, char *err, size_t errlen)
{
	const char *what = S_ISDIR(st->st_mode) ? "folder" : "file";
	if (st->st_uid != 0 && st->st_uid != geteuid())
		snprintf(err, errlen, "%s: owned by uid %u, not by root or you: an INI %s picks the plugins gpulab loads, "
				      "so it is not read", path, (unsigned)st->st_uid, what);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(err, errlen, "%s: writable by group or others (mode %04o): an INI %s picks the plugins gpulab "
				      "loads, so it is not read", path, (unsigned)(st->st_mode & 07777), what);
	else
		return 0;
	return -1;
}

int trust_plugin(const char *path, char *err, size_t errlen)
{
	struct trust_walk w = { .path = path, .err = err, .errlen = errlen };
	char name[NAME_MAX + 1];
	struct stat root;
	int rc;
	if (path[0] != '/')
		return trust_fail(&w, "not an absolute path: `file =` takes a bare file name, looked up in the "
				  "plugin directories, or an absolute path; GPULAB_PLUGIN_PATH takes absolute directories", "");
	if (snprintf(w.todo, sizeof w.todo, "%s", path) >= (int)sizeof w.todo)
		return trust_missing(&w, ENAMETOOLONG);
	if (lstat("/", &root) != 0 || trust_owner_mode(&w, "directory ", "/", &root, TRUST_DIR) != 0)
		return -1;
	while ((rc = trust_next(&w, name)) > 0)
		if ((rc = trust_step(&w, name)) != 0)
			return rc > 0 ? 0 : -1;
	return rc < 0 ? -1 : trust_fail(&w, "a directory", ", not a regular file");
}

#include "config.h"

#include "command_names.h"
#include "learn/progress.h"

#include "config/ini_text.h"
#include "io/outfile.h"
#include "exitcode.h"
#include "learn/verdict.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int progress_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;
	if (state && *state == '/') /* the spec: a relative path is to be ignored */
		n = snprintf(buf, len, "%s/gpulab/progress.ini", state);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.local/state/gpulab/progress.ini", home);
	else
		return snprintf(err, errlen, "learn: no place for your progress: set XDG_STATE_HOME or HOME"), EXIT_CONFIG;
	if (n < 0 || (size_t)n >= len)
		return snprintf(err, errlen, "learn: the progress file's path is too long"), EXIT_CONFIG;
	return 0;
}

struct progress_entry *progress_add(struct progress *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	if (strlen(name) > LESSON_MAX_NAME)
		return NULL;
	struct progress_entry *v = realloc(p->v, (p->n + 1) * sizeof *v);
	if (!v)
		return NULL;
	p->v = v;
	v += p->n++;
	*v = (struct progress_entry){ .verdict = -1, .figure = NAN, .best = NAN };
	strcpy(v->name, name);
	return v;
}

const struct progress_entry *progress_find(const struct progress *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}

/* --- reading ------------------------------------------------------------------------ */

struct progress_reading {
	struct ini_text t;
	struct progress *p;
	struct progress_entry *cur;
	int section;       /* the section line the last key came under */
	int header;        /* [gpulab] progress = 1 seen */
};

static int progress_yes_no(const char *v, int *out)
{
	return !strcmp(v, "yes") ? (*out = 1, 0) : !strcmp(v, "no") ? (*out = 0, 0) : -1;
}

static int progress_number(const char *v, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(v, &end);
	return end != v && !*end && !errno && isfinite(*out) && *out >= 0 ? 0 : -1;
}

/* A new [lesson NAME] section: its entry, which must be its first. */
static int progress_section(struct progress_reading *pp, const char *section)
{
	const char *name = section + 7;
	size_t n = strlen(name);
	if (strncmp(section, "lesson ", 7) || !n || n > LESSON_MAX_NAME ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
		return ini_text_fail(&pp->t, "unknown section [%.60s]; expected [gpulab] or [lesson NAME]", section);
	if (progress_find(pp->p, name))
		return ini_text_fail(&pp->t, "lesson '%s' twice", name);
	if (!(pp->cur = progress_add(pp->p, name)))
		return ini_text_fail(&pp->t, "out of memory");
	return 1;
}

static int progress_key(struct progress_reading *pp, const char *key, const char *value)
{
	struct progress_entry *e = pp->cur;
	int bad;
	if (!strcmp(key, "seen"))
		bad = progress_yes_no(value, &e->seen);
	else if (!strcmp(key, "passed"))
		bad = progress_yes_no(value, &e->passed);
	else if (!strcmp(key, "verdict"))
		bad = (e->verdict = verdict_from_key(value)) < 0;
	else if (!strcmp(key, "figure"))
		bad = progress_number(value, &e->figure);
	else if (!strcmp(key, "best"))
		bad = progress_number(value, &e->best);
	else
		return ini_text_fail(&pp->t, "unknown key '%.60s' in [lesson %s]", key, e->name);
	return bad ? ini_text_fail(&pp->t, "bad value '%.60s' for '%s'", value, key) : 1;
}

static int progress_handler(void *user, const char *section, const char *key, const char *value)
{
	struct progress_reading *pp = user;
	int first = pp->t.sections != pp->section;
	if (pp->t.failed)
		return 0;
	if (pp->t.indented)
		return ini_text_fail(&pp->t, "an indented line");
	pp->section = pp->t.sections;
	if (!strcmp(section, "gpulab")) {
		if (strcmp(key, "progress") || strcmp(value, "1") || pp->header)
			return ini_text_fail(&pp->t, "[gpulab] holds one key, progress = 1");
		return pp->header = 1;
	}
	if (!pp->header)
		return ini_text_fail(&pp->t, "not a progress file of this gpulab: it begins with [gpulab] progress = 1");
	if (first && !progress_section(pp, section))
		return 0;
	return progress_key(pp, key, value);
}

int progress_parse(struct progress *p, const char *file, const char *text, size_t len, char *err, size_t errlen)
{
	struct progress_reading pp = { .t = { .file = file, .text = text, .len = len, .err = err, .errlen = errlen }, .p = p };
	if (ini_text_parse(&pp.t, progress_handler, &pp, "[section] or key = value"))
		return EXIT_CONFIG;
	if (!len || pp.header)
		return 0;
	snprintf(err, errlen, "%s: not a progress file of this gpulab: it begins with [gpulab] progress = 1", file);
	return EXIT_CONFIG;
}

/* dir and the directories above it, where missing: 0, or EXIT_CONFIG. */
static int progress_make_dirs(char *dir, char *err, size_t errlen)
{
	for (char *s = dir + 1; (s = strchr(s, '/')); *s++ = '/') {
		*s = 0;
		mkdir(dir, 0700);
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return snprintf(err, errlen, "learn: cannot make %s: %s", dir, strerror(errno)), EXIT_CONFIG;
	return 0;
}

int progress_records_dir(char *buf, size_t len, char *err, size_t errlen)
{
	char path[4200];
	int rc = progress_path(path, sizeof path, err, errlen);
	if (rc)
		return rc;
	*strrchr(path, '/') = 0; /* progress_path's is absolute */
	if (snprintf(buf, len, "%s/records", path) >= (int)len)
		return snprintf(err, errlen, "learn: the records' path is too long"), EXIT_CONFIG;
	return progress_make_dirs(buf, err, errlen);
}

/* Run directory `name` of the records directory (descriptor dir), its
 * files and itself, where no learn holds its lock: that learn was
 * killed before it could clean up. */
static void progress_remove_dead_run(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int copy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 ? dup(fd) : -1;
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	if (d) {
		closedir(d);
		unlinkat(dir, name, AT_REMOVEDIR);
	} else if (copy >= 0) {
		close(copy);
	}
	if (fd >= 0)
		close(fd);
}

int progress_run_dir(char *buf, size_t len, int *lock, char *err, size_t errlen)
{
	char keep[4200];
	int rc = progress_records_dir(keep, sizeof keep, err, errlen), dir, copy;
	DIR *d;
	struct dirent *e;
	*lock = -1;
	if (rc)
		return rc;
	/* the records directory's lock, from the dead runs' removal to the
	 * new run's own lock: no learn removes a run another has just made */
	if ((dir = open(keep, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || flock(dir, LOCK_EX))
		rc = (snprintf(err, errlen, "learn: cannot lock %s: %s", keep, strerror(errno)), EXIT_CONFIG);
	if (!rc && (copy = dup(dir)) >= 0 && (d = fdopendir(copy))) {
		while ((e = readdir(d)))
			if (!strncmp(e->d_name, ".run-", 5))
				progress_remove_dead_run(dir, e->d_name);
		closedir(d);
	}
	snprintf(buf, len, "%s/.run-XXXXXX", keep);
	if (!rc && !mkdtemp(buf))
		rc = (snprintf(err, errlen, "learn: cannot make a directory in %s: %s", keep, strerror(errno)), EXIT_CONFIG);
	if (!rc && ((*lock = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || flock(*lock, LOCK_EX)))
		rc = (snprintf(err, errlen, "learn: cannot lock %s: %s", buf, strerror(errno)), EXIT_CONFIG);
	if (dir >= 0)
		close(dir);
	return rc;
}

/* The lock beside path, made with its directory where missing. */
static int progress_take_lock(struct progress *p, char *err, size_t errlen)
{
	char dir[4200], lock[4300];
	int rc;
	snprintf(dir, sizeof dir, "%s", p->path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if ((rc = progress_make_dirs(dir, err, errlen)))
			return rc;
	}
	snprintf(lock, sizeof lock, "%s.lock", p->path);
	if ((p->lock = outfile_lock_file(lock)) < 0)
		return snprintf(err, errlen, "learn: cannot lock %s: %s", lock, strerror(errno)), EXIT_CONFIG;
	return 0;
}

/* The file's bytes: 0 and *text (NULL with *len 0 where there is none yet). */
static int progress_read(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	ssize_t got = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	*text = NULL, *len = 0;
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st))
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s: not a regular file; it is left as it is", path);
	else if (st.st_size > PROGRESS_MAX_BYTES)
		snprintf(err, errlen, "%s: larger than %u KiB: not a progress file; it is left as it is", path,
			 PROGRESS_MAX_BYTES >> 10);
	else if (!(*text = malloc((size_t)st.st_size + 1)))
		snprintf(err, errlen, "%s: out of memory", path);
	else if ((got = read(fd, *text, (size_t)st.st_size)) != st.st_size)
		snprintf(err, errlen, "%s: cannot read: %s", path, got < 0 ? strerror(errno) : "cut short");
	else
		*len = (size_t)got;
	if (fd >= 0)
		close(fd);
	return fd >= 0 && *len == (size_t)st.st_size && *text ? 0 : EXIT_CONFIG;
}

int progress_load(struct progress *p, const char *path, int lock, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int rc;
	*p = (struct progress){ .lock = -1 };
	if (snprintf(p->path, sizeof p->path, "%s", path) >= (int)sizeof p->path)
		return snprintf(err, errlen, "learn: the progress file's path is too long"), EXIT_CONFIG;
	if (lock && (rc = progress_take_lock(p, err, errlen)))
		return rc;
	if ((rc = progress_read(path, &text, &len, err, errlen)))
		return free(text), rc;
	if ((rc = progress_parse(p, path, text ? text : "", len, err, errlen))) {
		size_t n = strlen(err);
		snprintf(err + n, errlen - n, "; the file is kept as it is (move it away to start afresh)");
	}
	free(text);
	return rc;
}

/* --- writing ------------------------------------------------------------------------ */

static void progress_print(const struct progress *p, FILE *f)
{
	fputs("; gpulab " CMD_LEARN ": your progress through the lessons.  gpulab writes this file\n"
	      "; and refuses, and keeps, one it cannot read.\n[gpulab]\nprogress = 1\n", f);
	for (size_t i = 0; i < p->n; i++) {
		const struct progress_entry *e = &p->v[i];
		fprintf(f, "\n[lesson %s]\nseen = %s\npassed = %s\n", e->name, e->seen ? "yes" : "no", e->passed ? "yes" : "no");
		if (e->verdict >= 0)
			fprintf(f, "verdict = %s\n", verdict_key((enum verdict)e->verdict));
		if (isfinite(e->figure))
			fprintf(f, "figure = %.6g\n", e->figure);
		if (isfinite(e->best))
			fprintf(f, "best = %.6g\n", e->best);
	}
}

int progress_save(const struct progress *p, char *err, size_t errlen)
{
	struct outfile o;
	char why[512];
	if (outfile_open(&o, p->path, why, sizeof why))
		return snprintf(err, errlen, "%s: %s", p->path, why), EXIT_USAGE;
	progress_print(p, o.f);
	if (outfile_commit(&o, why, sizeof why))
		return snprintf(err, errlen, "%s: %s", p->path, why), EXIT_USAGE;
	return 0;
}

void progress_free(struct progress *p)
{
	free(p->v);
	if (p->lock >= 0)
		close(p->lock); /* and with it the lock */
	*p = (struct progress){ .lock = -1 };
}

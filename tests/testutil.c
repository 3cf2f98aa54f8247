#include "testutil.h"

#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Every directory temp_dir made, removed with all it holds when the
 * process that made it exits (Check runs each test in a child of its
 * own, which must leave its parent's alone).  The registry frees its own
 * copy of each path.  It also holds on to the copy it gave out, which
 * the caller may free or not: either way LeakSanitizer reports nothing,
 * as it reports only blocks nothing points to. */
static struct temp_entry {
	char *path;
	char *given;
	pid_t owner;
} *temp_dirs;
static size_t temp_count;

static int temp_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void temp_cleanup(void)
{
	for (size_t i = 0; i < temp_count; i++) {
		if (temp_dirs[i].owner == getpid() && temp_dirs[i].path) {
			chmod(temp_dirs[i].path, 0700); /* a test may have locked it */
			nftw(temp_dirs[i].path, temp_remove, 16, FTW_DEPTH | FTW_PHYS);
		}
		free(temp_dirs[i].path);
		temp_dirs[i].path = NULL;
	}
}

char *temp_dir(void)
{
	char tmpl[] = "/tmp/gpulab-test-XXXXXX";
	struct temp_entry *v = realloc(temp_dirs, (temp_count + 1) * sizeof *v);
	if (!v || !mkdtemp(tmpl))
		return NULL;
	if (!temp_dirs)
		atexit(temp_cleanup);
	temp_dirs = v;
	v[temp_count] = (struct temp_entry){ strdup(tmpl), strdup(tmpl), getpid() };
	return v[temp_count++].given;
}

const char *write_file(const char *dir, const char *name, const char *text)
{
	static char paths[8][4096];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, 4096, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return p;
}

/* The output went to a file, so reading it never blocks. */
static void slurp(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	while (n < cap - 1 && (r = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = 0;
}

static unsigned cmd_alarm;

void run_cmd_alarm(unsigned seconds)
{
	cmd_alarm = seconds;
}

static double cmd_clock(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

void run_cmd(struct cmd_result *o, char *const argv[], char *const env[])
{
	char outf[] = "/tmp/gpulab-out-XXXXXX", errf[] = "/tmp/gpulab-err-XXXXXX";
	int fo = mkstemp(outf), fe = mkstemp(errf);
	double start = cmd_clock();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		for (char *const *e = env; e && *e; e++)
			putenv(*e);
		alarm(cmd_alarm); /* survives exec: a hang ends in SIGALRM */
		execv(argv[0], argv);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	o->seconds = cmd_clock() - start;
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(fo, 0, SEEK_SET);
	lseek(fe, 0, SEEK_SET);
	slurp(fo, o->out, sizeof o->out);
	slurp(fe, o->err, sizeof o->err);
	close(fo);
	close(fe);
	unlink(outf);
	unlink(errf);
}

int spawn_cmd(char *const argv[], char *const env[], const char *out, const char *err)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fo, 1);
		dup2(fe, 2);
		for (char *const *e = env; e && *e; e++)
			putenv(*e);
		alarm(60); /* a hang ends the test */
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int wait_cmd(int pid)
{
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

char *read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int occurrences(const char *s, const char *what)
{
	int k = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		k++;
	return k;
}

/* --- a strict JSON validator ---------------------------------------------- */
static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p)) p++;
	else
		return NULL;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return NULL;
		while (isdigit((unsigned char)*p)) p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p)) p++;
	}
	return p;
}

static const char *members(const char *p, int depth, char close, int keyed)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			if (!(p = string(p)))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = value(ws(p), depth + 1)))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = ws(p);
	}
}

static const char *value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	switch (*p) {
	case '{': return members(p, depth, '}', 1);
	case '[': return members(p, depth, ']', 0);
	case '"': return string(p);
	case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
	default: return number(p);
	}
}

int json_valid(const char *s)
{
	const char *p = value(ws(s), 0);
	return p && !*ws(p);
}

/* --- CSV: RFC 4180 quoting ------------------------------------------------ */
int csv_valid(const char *s, int *fields)
{
	int header = -1, n = 1, quoted = 0;
	for (; *s; s++) {
		if (quoted) {
			if (*s == '"' && s[1] == '"')
				s++;
			else if (*s == '"')
				quoted = 0;
		} else if (*s == '"') {
			quoted = 1;
		} else if (*s == ',') {
			n++;
		} else if (*s == '\n') {
			if (header < 0)
				header = n;
			else if (n != header)
				return 0;
			n = 1;
		}
	}
	*fields = header;
	return !quoted && header > 0;
}

int run_suite(Suite *s, int verbose)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, verbose ? CK_VERBOSE : CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void run_cmd_va(struct cmd_result *o, const char *program, char *const env[], const char *first, va_list ap)
{
	char *argv[32] = { (char *)program };
	int n = 1;
	for (const char *a = first; a && n < 31; a = va_arg(ap, const char *))
		argv[n++] = (char *)a;
	argv[n] = NULL;
	run_cmd(o, argv, env);
}

int count_temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		n += len > 4 && !strcmp(e->d_name + len - 4, ".tmp");
	}
	if (d)
		closedir(d);
	return n;
}

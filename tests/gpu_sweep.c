/* One gpulab process a sweep, every point read back (gpu_sweep.h). */
#include "gpu_sweep.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

/* The text after `"key": ` in a journal line (NULL where absent); a
 * string value is copied unescaped into buf. */
static const char *row_string(const char *row, const char *key, char *buf, size_t len)
{
	char want[80];
	snprintf(want, sizeof want, "\"%s\": ", key);
	const char *p = strstr(row, want), *end = strchr(row, '\n');
	if (!p || (end && p > end))
		return NULL;
	p += strlen(want);
	if (*p != '"' || !buf)
		return p;
	size_t n = 0;
	for (p++; *p && *p != '"' && *p != '\n'; p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < len)
			buf[n++] = *p;
	}
	buf[n] = 0;
	return buf;
}

/* The words of args as one shell line: a word holding anything but
 * letters, digits and -_.,=:^/ is quoted. */
static void shell_line(char *out, size_t len, const char *first, char *const args[])
{
	snprintf(out, len, "%s", first);
	for (size_t i = 0; args[i]; i++) {
		int plain = args[i][0] && strspn(args[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
							  "-_.,=:^/+") == strlen(args[i]);
		size_t at = strlen(out);
		snprintf(out + at, len - at, plain ? " %s" : " '%s'", args[i]);
	}
}

static char *slurp_file(const char *path)
{
	struct stat st;
	FILE *f = fopen(path, "r");
	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return strdup("");
	}
	char *text = malloc((size_t)st.st_size + 1);
	size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (text)
		text[n] = 0;
	return text ? text : strdup("");
}

/* A verified point ran the size it was asked for: where it takes n,
 * its elements are n. */
static int size_honest(const char *row)
{
	const char *params = strstr(row, "\"params\": {"), *n = params ? strstr(params, "\"n\": ") : NULL;
	const char *close = params ? strchr(params, '}') : NULL, *e = strstr(row, "\"elements\": ");
	if (!n || (close && n > close))
		return 1;
	return e && strtoull(n + 5, NULL, 10) == strtoull(e + 12, NULL, 10);
}

static void one_point(const char *row, skip_allowed ok, struct sweep_check *c)
{
	char status[32] = "", message[1024] = "", rerun[1024] = "", exercise[128] = "";
	row_string(row, "status", status, sizeof status);
	row_string(row, "message", message, sizeof message);
	row_string(row, "rerun", rerun, sizeof rerun);
	row_string(row, "exercise", exercise, sizeof exercise);
	c->points++;
	const char *v = strstr(row, "\"verified\": true"), *nl = strchr(row, '\n');
	int verified = !strcmp(status, "ok") && v && (!nl || v < nl);
	if (verified && size_honest(row)) {
		c->verified++;
		return;
	}
	if (!strcmp(status, "skipped") && ok && ok(message, row)) {
		c->skipped++;
		return;
	}
	c->bad++;
	size_t at = strlen(c->report);
	snprintf(c->report + at, sizeof c->report - at, "  %s %s%s: %s\n    reproduce: %s\n", exercise, status,
		 verified ? " (elements are not the n asked for)" : "", message, rerun[0] ? rerun : c->command);
}

void sweep_check_run(const char *wrapper, char *const env[], char *const args[], skip_allowed ok,
		     struct sweep_check *c)
{
	static struct cmd_result o;
	static char *dir;
	static int serial;
	char rec[4200], *argv[96] = { (char *)wrapper };
	int n = 1;
	if (!dir)
		dir = temp_dir();
	snprintf(rec, sizeof rec, "%s/sweep-%d.json", dir, serial++);
	for (size_t i = 0; args[i] && n < 85; i++)
		argv[n++] = args[i];
	char *tail[] = { "-r", "1", "-w", "0", "--quiet", "-o", rec, NULL };
	for (size_t i = 0; tail[i]; i++)
		argv[n++] = tail[i];
	argv[n] = NULL;
	free(c->journal);
	memset(c, 0, sizeof *c);
	shell_line(c->command, sizeof c->command, "gpulab", args);
	strncat(c->command, " -r 1 -w 0", sizeof c->command - strlen(c->command) - 1);
	run_cmd(&o, argv, env);
	c->status = o.status;
	snprintf(c->err, sizeof c->err, "%s", o.err);
	char *text = slurp_file(rec);
	for (const char *row = strstr(text, "{\"exercise\": "); row; row = strstr(row + 1, "\n{\"exercise\": "))
		one_point(row[0] == '\n' ? row + 1 : row, ok, c);
	c->journal = text;
}

int run_gpu_suite(struct Suite *s, const char *name)
{
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = run_suite(s, 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: wall %.1f s\n", name, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return rc;
}

/* A GPU test that times or counts takes the GPU alone: an exclusive
 * lock, where one that only verifies takes a shared one.  The GPU
 * programs (check_gpu's parts, this file built with GPU_PART each, and
 * check_gpu_random) then run side by side under make -j, and no speed
 * is measured beside another test's kernels.  Taken in the test's own
 * process (a checked fixture), let go when it exits; the teardown says
 * how long the test waited for the lock and ran, for the suite's time
 * budget (each program's log). */
static struct timespec asked, got;

static double secs(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void gpu_lock(int how)
{
	clock_gettime(CLOCK_MONOTONIC, &asked);
	int fd = open("gpu-tests.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	ck_assert_msg(fd >= 0 && flock(fd, how) == 0, "gpu-tests.lock: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &got);
}

void gpu_shared(void)
{
	gpu_lock(LOCK_SH);
}

void gpu_alone(void)
{
	gpu_lock(LOCK_EX);
}

void gpu_times(void)
{
	struct timespec done;
	clock_gettime(CLOCK_MONOTONIC, &done);
	printf("  (waited %.1f s for the GPU, ran %.1f s)\n", secs(&asked, &got), secs(&got, &done));
	fflush(stdout);
}

/* libFuzzer target: the INI loader, config_load_all, on the user's
 * drop-in conf.d/fuzz.ini holding the input (so the trace `gpulab config`
 * prints is made for it too).  Beyond the sanitizers it checks what a user relies on: an
 * error is one line naming the file, and every setting loaded comes from
 * the line it claims, which holds its key and its value. */
#include "exitcode.h"
#include "config/settings.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir[64], fuzz_path[128];

static void fuzz_remove(void)
{
	char d[128];
	unlink(fuzz_path);
	snprintf(d, sizeof d, "%s/gpulab/conf.d", fuzz_dir);
	rmdir(d);
	snprintf(d, sizeof d, "%s/gpulab", fuzz_dir);
	rmdir(d);
	rmdir(fuzz_dir);
}

/* The input goes to a file, since config_load reads one: in memory
 * (/dev/shm) where there is one, because a disk's write-back can stall
 * an open() past the one-second limit (it did in CI, on an input that
 * takes a millisecond), which would read as the loader's slowness. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	char d[128];
	snprintf(fuzz_dir, sizeof fuzz_dir, "%s/gpulab-fuzz-ini-%ld", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
		 (long)getpid());
	snprintf(d, sizeof d, "%s/gpulab", fuzz_dir);
	snprintf(fuzz_path, sizeof fuzz_path, "%s/conf.d/fuzz.ini", d);
	if (mkdir(fuzz_dir, 0700) || mkdir(d, 0700) || (strcat(d, "/conf.d"), mkdir(d, 0700)))
		abort();
	setenv("XDG_CONFIG_HOME", fuzz_dir, 1);
	unsetenv("GPULAB_CONFIG");
	atexit(fuzz_remove);
	return 0;
}

/* Line `line` (from 1) of the input, and its length. */
static const uint8_t *fuzz_line(const uint8_t *d, size_t size, int line, size_t *len)
{
	const uint8_t *end = d + size, *nl;
	for (int i = 1; i < line && d < end; i++)
		d = (nl = memchr(d, '\n', (size_t)(end - d))) ? nl + 1 : end;
	nl = memchr(d, '\n', (size_t)(end - d));
	*len = (size_t)((nl ? nl : end) - d);
	return d;
}

static void fuzz_check_setting(const struct setting *s, const uint8_t *data, size_t size)
{
	size_t len;
	const uint8_t *line = fuzz_line(data, size, s->line, &len);
	if (s->line < 1 || !*s->key || strcmp(s->file, fuzz_path))
		abort();
	if (!memmem(line, len, s->key, strlen(s->key)) || (*s->value && !memmem(line, len, s->value, strlen(s->value))))
		abort(); /* a key or a value from another line than the one named */
	if (s->scope != SCOPE_DEFAULTS && strspn(s->target, "abcdefghijklmnopqrstuvwxyz0123456789_.") != strlen(s->target))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fuzz_path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	struct config c = { 0 };
	char err[2048];
	int rc = config_load_all(&c, "/nonexistent/gpulab-fuzz", NULL, 0, err, sizeof err);
	if (rc && (rc != EXIT_CONFIG || strchr(err, '\n') || strncmp(err, fuzz_path, strlen(fuzz_path))))
		abort();
	/* the trace: the drop-in last but for GPULAB_CONFIG, refused exactly when the load failed */
	if (c.nseen < 2 || strcmp(c.seen[c.nseen - 1 - !rc].path, fuzz_path)
	    || (c.seen[c.nseen - 1 - !rc].state == SEEN_REFUSED) != !!rc)
		abort();
	for (size_t i = 0; rc == 0 && i < c.n; i++) {
		fuzz_check_setting(&c.v[i], data, size);
		if (c.v[i].target && !config_get(&c, c.v[i].target, NULL, c.v[i].key) && c.v[i].scope == SCOPE_PLUGIN)
			abort();
	}
	config_free(&c);
	return 0;
}

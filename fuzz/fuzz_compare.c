/* libFuzzer target for `gpulab compare`: the input is two records, split
 * at its first NUL byte (or one, compared with itself), read from memory
 * files and compared in each format.  Beyond not crashing, it checks
 * what compare promises of a hostile record: a refusal names the record
 * and is one escaped line; every warning is one line of its own; the
 * table and the JSON hold inert text only, no control but line ends, no
 * C1 control or bidirectional mark (a record may spell any of them in an
 * exercise's name or a parameter); the JSON parses.  The input's last
 * byte, odd or even, has it compare two exercises (--base/--new) or not. */
#include "escaped.h"
#include "exitcode.h"
#include "compare/compare.h"
#include "records/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memory file holding data, and its /proc path; -1 on failure. */
static int memory_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("record", 0);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Each line of text is inert (fuzz_check_inert); warnings each begin
 * with their prefix. */
static void check_lines(const char *text, const char *prefix)
{
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			abort(); /* every line ends */
		if (prefix && strncmp(line, prefix, strlen(prefix)))
			abort();
		fuzz_check_inert(line, end);
		line = end + 1;
	}
}

/* two: --base reduce.cub --new reduce.best, the exercises the corpus's
 * records hold (filters mode: points matched across two exercises) */
static void compare_as(const char *a, const char *b, enum format f, int two)
{
	char *out = NULL, *err = NULL, why[1024];
	size_t nout = 0, nerr = 0;
	struct compare_ask o = { .format = f, .fail_above = 5, .min_change = 1, .base_exercise = two ? "reduce.cub" : NULL,
				 .new_exercise = two ? "reduce.best" : NULL };
	FILE *fo = open_memstream(&out, &nout), *fe = open_memstream(&err, &nerr);
	if (!fo || !fe)
		abort();
	why[0] = 0;
	int rc = compare_records(a, b, &o, fo, fe, why, sizeof why);
	fclose(fo);
	fclose(fe);
	if (rc == EXIT_USAGE) {
		if (strncmp(why, "/proc/self/fd/", 14))
			abort(); /* the refusal names the record */
		fuzz_check_escaped(why);
	} else if (rc != 0 && rc != EXIT_SLOWER) {
		abort();
	}
	check_lines(err, "gpulab: warning: ");
	if (rc != EXIT_USAGE && f != FORMAT_CSV) /* CSV is data, quoted for its readers, not a terminal */
		check_lines(out, NULL);
	if (rc != EXIT_USAGE && f == FORMAT_JSON) {
		struct json *doc = json_parse(out, nout, why, sizeof why);
		if (!doc)
			abort();
		json_free(doc);
	}
	free(out);
	free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = memchr(data, 0, size);
	size_t na = cut ? (size_t)(cut - data) : size;
	char a[64], b[64];
	int fa = memory_file(data, na, a, sizeof a);
	int fb = cut ? memory_file(cut + 1, size - na - 1, b, sizeof b) : fa;
	if (fa >= 0 && fb >= 0) {
		if (!cut)
			snprintf(b, sizeof b, "%s", a);
		int two = size && data[size - 1] & 1; /* the last byte, which a record's JSON ends in as a space or } */
		compare_as(a, b, FORMAT_TABLE, two);
		compare_as(a, b, FORMAT_CSV, two);
		compare_as(a, b, FORMAT_JSON, two);
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0 && fb != fa)
		close(fb);
	return 0;
}

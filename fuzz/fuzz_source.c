/* libFuzzer target: a learner's whole file through the include filter
 * (plugins/try/filter.c), which stands between a submission and a
 * compiler that would open any file it names, and the compiler's log
 * through log_keep_own (log.c), which keeps other files' text from a
 * person.  Whatever the text, the filter ends; a refusal says why in one
 * line at a line the file has; a file it passes has no NUL byte, stays
 * passed with a header of the contract's added, and is refused once a
 * plain #include follows it on a line of its own (both unless the file
 * may leave a comment or a literal open, where the compiler might not
 * see the line as a directive either); and the
 * log kept is lines of the log, in order, none of them naming another
 * file first. */
#include "../plugins/try/filter.h"
#include "../plugins/try/log.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const headers[] = { "gpulab_contract.h", NULL };

static int lines_of(const char *s, size_t n)
{
	int lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

/* Could s leave the compiler inside a comment or a literal at its end? */
static int may_leave_open(const char *s, size_t n)
{
	return memmem(s, n, "/*", 2) || memchr(s, '"', n) || memchr(s, '\\', n) || memchr(s, '\'', n);
}

static void check_filter(const char *s, size_t n)
{
	char err[512];
	int line = 0;
	if (filter_source(s, n, filter_no_headers, &line, err, sizeof err)) {
		if (!err[0] || strchr(err, '\n') || line < 1 || line > lines_of(s, n))
			abort();
		return;
	}
	if (memchr(s, 0, n))
		abort(); /* NVRTC would stop at it: never passed */
	char *more = malloc(n + 64);
	if (!more)
		return;
	memcpy(more, s, n);
	size_t k = n + (size_t)sprintf(more + n, "\n#include <gpulab_contract.h>\n");
	if (!may_leave_open(s, n) && filter_source(more, k, headers, &line, err, sizeof err))
		abort(); /* (inside an open raw string, a directive's line is refused: stricter than the compiler) */
	k = n + (size_t)sprintf(more + n, "\n#include \"x.cu\"\n");
	int passed = filter_source(more, k, headers, &line, err, sizeof err) == 0;
	if (!may_leave_open(s, n) && (passed || line != lines_of(s, n) + 1))
		abort();
	free(more);
}

static void check_log(const char *s)
{
	char *kept = log_keep_own(s, "k.cu");
	if (!kept)
		return;
	const char *from = s;
	for (const char *p = kept; *p;) {
		size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
		const char *hit = NULL;
		/* the next line of the log that is this one */
		for (const char *q = from; *q; q += strcspn(q, "\n") + (q[strcspn(q, "\n")] == '\n'))
			if (strlen(q) >= n && !memcmp(q, p, n) && (q[n - 1] == '\n' || !q[n])) {
				hit = q;
				break;
			}
		if (!hit)
			abort();
		size_t name = strcspn(p, "(\n");
		if (p[name] == '(' && name && strncmp(p, "k.cu(", 5) && strncmp(p, LOG_CONTRACT "(", sizeof LOG_CONTRACT)
		    && p[0] != ' ' && p[0] != '\t') {
			const char *d = p + name + 1;
			size_t digits = strspn(d, "0123456789");
			if (digits && d[digits] == ')' && d[digits + 1] == ':')
				abort(); /* another file's message */
		}
		from = hit + n;
		p += n;
	}
	free(kept);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *log = strndup((const char *)data, size); /* NVRTC's log is text: up to a NUL */
	check_filter((const char *)data, size);
	if (log)
		check_log(log);
	free(log);
	return 0;
}

#include "records/nccltests.h"

#include "exitcode.h"
#include "escape.h"
#include "records/json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int figures_refused(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

/* The collective a "# Collective test starting: NAME_perf" line names,
 * into name; 1 if the line is one. */
static int starting(const char *line, size_t len, char *name, size_t room)
{
	static const char head[] = "# Collective test starting: ";
	const char *s = line + sizeof head - 1, *end = line + len;
	size_t n = 0;
	if (len < sizeof head - 1 || strncmp(line, head, sizeof head - 1))
		return 0;
	while (s + n < end && (islower((unsigned char)s[n]) || s[n] == '_' || isdigit((unsigned char)s[n])))
		n++;
	if (n > 5 && !strncmp(s + n - 5, "_perf", 5))
		n -= 5; /* the binary's name less _perf */
	if (n == 0 || n >= room)
		return 0;
	memcpy(name, s, n);
	name[n] = 0;
	return 1;
}

/* Up to max whitespace-separated words of the line, as copies in buf. */
static size_t words(const char *line, size_t len, char buf[][32], size_t max)
{
	size_t n = 0, i = 0;
	while (n < max) {
		while (i < len && isspace((unsigned char)line[i]))
			i++;
		size_t w = 0;
		while (i < len && !isspace((unsigned char)line[i])) {
			if (w < 31)
				buf[n][w++] = line[i];
			i++;
		}
		if (w == 0)
			break;
		buf[n++][w] = 0;
	}
	return n;
}

/* A finite number >= 0 of the whole word. */
static int figure_number(const char *w, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(w, &end);
	return *w && !*end && !errno && isfinite(*v) && *v >= 0;
}

/* A row: size count type redop root time algbw busbw ... (out of place
 * first).  0 if it is not one (a header, a comment), 1 if it is, -1 if
 * it starts like one (a size) and its numbers do not read. */
static int nccl_row(const char *line, size_t len, struct nccl_figure *fig)
{
	char w[8][32];
	size_t n = words(line, len, w, 8);
	if (n == 0 || strspn(w[0], "0123456789") != strlen(w[0]))
		return 0;
	if (n < 8 || !figure_number(w[0], &fig->bytes) || fig->bytes < 1 || fig->bytes > 0x1p52 || !figure_number(w[5], &fig->us)
	    || !figure_number(w[7], &fig->busbw))
		return -1;
	return 1;
}

static int add_figure(struct nccl_figures *f, const struct nccl_figure *fig, size_t *cap)
{
	if (f->n == *cap) {
		size_t grown = *cap ? 2 * *cap : 64;
		struct nccl_figure *v = realloc(f->v, grown * sizeof *v);
		if (!v)
			return EXIT_NOMEM;
		f->v = v, *cap = grown;
	}
	f->v[f->n++] = *fig;
	return 0;
}

/* A line's text for a message: escaped, and cut. */
static const char *line_shown(const char *line, size_t len, char *buf, size_t room)
{
	char raw[81];
	size_t n = len < 80 ? len : 80;
	memcpy(raw, line, n);
	raw[n] = 0;
	return escape_into(buf, room, raw);
}

int nccl_figures_parse(struct nccl_figures *f, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct nccl_figure fig = { .collective = "" };
	size_t cap = 0, lineno = 0;
	char what[256];
	*f = (struct nccl_figures){ 0 };
	for (size_t at = 0; at < len; lineno++) {
		const char *line = text + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;
		at += n + 1;
		if (starting(line, n, fig.collective, sizeof fig.collective))
			continue;
		int r = nccl_row(line, n, &fig);
		if (r < 0)
			return figures_refused(err, errlen, EXIT_USAGE, "%s: line %zu: not a row of nccl-tests' (size count type redop root "
				      "time algbw busbw ...): %s", name, lineno + 1, line_shown(line, n, what, sizeof what));
		if (r > 0 && !fig.collective[0])
			return figures_refused(err, errlen, EXIT_USAGE, "%s: line %zu: a row before any \"# Collective test starting:\" "
				      "line, so of no known collective", name, lineno + 1);
		if (r > 0 && f->n == NCCL_TESTS_MAX_ROWS)
			return figures_refused(err, errlen, EXIT_USAGE, "%s: more than %d rows", name, NCCL_TESTS_MAX_ROWS);
		if (r > 0 && add_figure(f, &fig, &cap))
			return figures_refused(err, errlen, EXIT_NOMEM, "%s: out of memory", name);
	}
	if (f->n == 0)
		return figures_refused(err, errlen, EXIT_USAGE, "%s: no rows of nccl-tests' output (all_reduce_perf and the like)", name);
	return 0;
}

int nccl_figures_read(struct nccl_figures *f, const char *path, char *err, size_t errlen)
{
	size_t len;
	*f = (struct nccl_figures){ 0 };
	char *text = json_read_text(path, NCCL_TESTS_MAX_BYTES, &len, err, errlen);
	if (!text)
		return EXIT_USAGE;
	int rc = nccl_figures_parse(f, path, text, len, err, errlen);
	free(text);
	return rc;
}

void nccl_figures_free(struct nccl_figures *f)
{
	free(f->v);
	*f = (struct nccl_figures){ 0 };
}

const char *nccl_exercise_of(const char *collective)
{
	static const char *const pairs[][2] = { { "all_reduce", "allreduce_nccl" }, { "all_gather", "allgather" },
						{ "reduce_scatter", "reduce_scatter" }, { "broadcast", "broadcast" } };
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (!strcmp(collective, pairs[i][0]))
			return pairs[i][1];
	return NULL;
}

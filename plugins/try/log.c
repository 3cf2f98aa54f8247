#include "log.h"

#include "escape.h"

#include <stdlib.h>
#include <string.h>

/* Where "(LINE): " begins in line[0..n), if the line starts with
 * NAME(LINE): with a NAME of at least one character; else NULL.  *digits
 * gets LINE's length. */
static const char *location(const char *line, size_t n, size_t *digits)
{
	const char *open = memchr(line, '(', n);
	size_t d = 0;
	if (!open || open == line)
		return NULL;
	for (const char *p = open + 1; p < line + n && *p >= '0' && *p <= '9'; p++)
		d++;
	const char *close = open + 1 + d;
	if (d == 0 || close + 2 >= line + n + 1 || close[0] != ')' || close[1] != ':')
		return NULL;
	*digits = d;
	return open;
}

/* One line, rewritten, into out. */
static void one_line(const char *line, size_t n, FILE *out)
{
	size_t d;
	const char *open = location(line, n, &d);
	if (!open) {
		fwrite(line, 1, n, out);
		return;
	}
	fwrite(line, 1, (size_t)(open - line), out);
	fputc(':', out);
	fwrite(open + 1, 1, d, out);
	fwrite(open + 2 + d, 1, n - (size_t)(open + 2 + d - line), out); /* from the ':' on */
}

/* One line, rewritten and escaped, into out: the compiler quotes the
 * learner's source, and a file handed over may hold bytes that steer a
 * terminal or reorder what it shows (Trojan Source), which the log must
 * show, not obey.  Tabs stay: the quoted source is indented with them. */
static void escaped_line(const char *line, size_t n, FILE *out)
{
	char *text = NULL, *piece, *tab;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return;
	one_line(line, n, f);
	if (fclose(f) == 0)
		for (piece = text; piece; piece = tab ? tab + 1 : NULL) {
			if ((tab = strchr(piece, '\t')))
				*tab = 0;
			fput_escaped(out, piece);
			if (tab)
				fputc('\t', out);
		}
	free(text);
}

void log_write(const char *log, FILE *out)
{
	for (const char *p = log; p && *p;) {
		size_t n = strcspn(p, "\n");
		escaped_line(p, n, out);
		if (p[n] == '\n')
			fputc('\n', out);
		p += n + (p[n] == '\n');
	}
}

void log_first_error(const char *log, char *buf, size_t len)
{
	buf[0] = 0;
	for (const char *p = log; p && *p;) {
		size_t n = strcspn(p, "\n");
		const char *hit = memmem(p, n, "error", 5);
		if (hit) {
			FILE *f = fmemopen(buf, len, "w");
			if (f) {
				setvbuf(f, NULL, _IONBF, 0);
				one_line(p, n, f);
				fclose(f);
			}
			buf[len - 1] = 0;
			return;
		}
		p += n + (p[n] == '\n');
	}
}

/* Does line[0..n) start with name(DIGITS): ? */
static int names(const char *line, size_t n, const char *name)
{
	size_t k = strlen(name), d = 0;
	if (n <= k || memcmp(line, name, k) || line[k] != '(')
		return 0;
	while (k + 1 + d < n && line[k + 1 + d] >= '0' && line[k + 1 + d] <= '9')
		d++;
	return d > 0 && k + 3 + d <= n && line[k + 1 + d] == ')' && line[k + 2 + d] == ':';
}

char *log_keep_own(const char *log, const char *own)
{
	char *text = NULL;
	size_t size = 0, d;
	int keep = 1;
	FILE *f = open_memstream(&text, &size);
	if (!f)
		return NULL;
	for (const char *p = log; p && *p;) {
		size_t n = strcspn(p, "\n");
		if (names(p, n, own) || names(p, n, LOG_CONTRACT))
			keep = 1;
		else if (location(p, n, &d))
			keep = 0; /* another file's message, and the lines that quote it */
		else if (n && p[0] != ' ' && p[0] != '\t')
			keep = 1; /* the summary: "1 error detected in the compilation of ..." */
		if (keep)
			fwrite(p, 1, n + (p[n] == '\n'), f);
		p += n + (p[n] == '\n');
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

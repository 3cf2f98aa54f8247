#include "config/ini_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void ini_text_vfail(struct ini_text *t, int line, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (!t->failed)
		snprintf(t->err, t->errlen, "%s:%d: %s", t->file, line, msg);
	t->failed = 1;
}

int ini_text_fail(struct ini_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ini_text_vfail(t, t->line, fmt, ap);
	va_end(ap);
	return 0;
}

int ini_text_section_fail(struct ini_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ini_text_vfail(t, t->section_line, fmt, ap);
	va_end(ap);
	return 0;
}

/* A flat text's line: its leading blanks gone, and refused here where
 * inih would pass over it (a section never closed was reported as the
 * next line's "key outside a section", a line with no '=' as a line
 * number alone) or cut its section's name into another.  0, or -1. */
static int ini_text_flatten(struct ini_text *t, char *line)
{
	size_t skip = strspn(line, " \t\v\f\r"), len;
	if (skip)
		memmove(line, line + skip, strlen(line + skip) + 1);
	len = strcspn(line, "\r\n");
	if (line[0] == '[' && t->max_section && strcspn(line + 1, "]") > (size_t)t->max_section)
		return ini_text_fail(t, "section name longer than %d bytes", t->max_section), -1;
	if (line[0] == '[' && !memchr(line, ']', len))
		return ini_text_fail(t, "malformed line: section '%.*s' never closed (no ']')", (int)(len < 60 ? len : 60), line),
		       -1;
	if (len && !strchr("[;#", line[0]) && strcspn(line, "=:") >= len)
		return ini_text_fail(t, "malformed line '%.*s%s' (expected key = value)", (int)(len < 60 ? len : 60), line,
				     len > 60 ? "..." : ""), -1;
	return 0;
}

char *ini_text_reader(char *str, int num, void *stream)
{
	struct ini_text *t = stream;
	size_t n = 0;
	if (t->failed || t->pos >= t->len || num < INI_TEXT_MAX_LINE + 2)
		return NULL;
	t->line++;
	while (t->pos < t->len) {
		char c = t->text[t->pos++];
		if (c == 0)
			return ini_text_fail(t, "a NUL byte"), NULL;
		if (c == '\n')
			break;
		if (n == INI_TEXT_MAX_LINE)
			return ini_text_fail(t, "line longer than %d bytes%s", INI_TEXT_MAX_LINE,
					     t->flat ? "" : " (continue a value on an indented line)"), NULL;
		str[n++] = c;
	}
	str[n++] = '\n';
	str[n] = 0;
	t->indented = str[0] == ' ' || str[0] == '\t';
	if (t->flat && ini_text_flatten(t, str))
		return NULL;
	if (str[strspn(str, " \t")] == '[')
		t->sections++, t->section_line = t->line;
	return str;
}

int ini_text_parse(struct ini_text *t, ini_handler handler, void *user, const char *expected)
{
	int line = ini_parse_stream(ini_text_reader, t, handler, user);
	if (t->failed)
		return -1;
	if (line) {
		snprintf(t->err, t->errlen, "%s:%d: malformed line (expected %s)", t->file, line, expected);
		return -1;
	}
	return 0;
}

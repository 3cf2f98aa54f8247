#include "report/emit.h"

#include <math.h>

void emit_csv(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, nothing past U+10FFFF), or 0. */
static int utf8_length(const unsigned char *s)
{
	int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (s[0] > 0xf4 || n == 0)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90)
	    || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void emit_json(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	while (p && *p) {
		int n = *p < 0x80 ? 1 : utf8_length(p);
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", out); /* not UTF-8: a replacement, so the record stays JSON */
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}

void emit_json_number(FILE *out, const char *key, int have, double v)
{
	fprintf(out, ", \"%s\": ", key);
	if (have && isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

void emit_json_string(FILE *out, const char *key, const char *s)
{
	fprintf(out, ", \"%s\": ", key);
	if (s)
		emit_json(out, s);
	else
		fputs("null", out);
}

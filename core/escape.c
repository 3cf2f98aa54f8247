#include "escape.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int escape_utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char b = u[0], lo = 0x80, hi = 0xbf; /* the second byte's range */
	int n = b < 0x80 ? 1 : b < 0xc2 ? 0 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf5 ? 4 : 0;
	/* Unicode's table 3-7: these leads narrow the second byte, which
	 * rules out overlong forms, surrogates and code points past 10FFFF */
	if (b == 0xe0)
		lo = 0xa0;
	else if (b == 0xed)
		hi = 0x9f;
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;
	for (int i = 1; i < n; i++) /* a NUL ends the loop: it is no continuation */
		if (u[i] < (i == 1 ? lo : 0x80) || u[i] > (i == 1 ? hi : 0xbf))
			return 0;
	return n;
}

static uint32_t escape_decode(const unsigned char *s, int n)
{
	static const unsigned char lead_bits[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & lead_bits[n];
	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/* C1 controls (U+009B is CSI to some terminals), line and paragraph
 * separators, and the bidirectional marks, embeddings, overrides and
 * isolates that can make text read other than it is. */
static int escape_unsafe(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f
	       || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

static void escape_ascii(FILE *out, unsigned char c)
{
	switch (c) {
	case '\n': fputs("\\n", out); return;
	case '\t': fputs("\\t", out); return;
	case '\r': fputs("\\r", out); return;
	case '\\': fputs("\\\\", out); return;
	}
	if (c < 0x20 || c == 0x7f)
		fprintf(out, "\\x%02x", c);
	else
		fputc(c, out);
}

void fput_escaped(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = escape_utf8_len((const char *)p);
		uint32_t cp = n > 1 ? escape_decode(p, n) : 0;
		if (n == 1)
			escape_ascii(out, *p);
		else if (n == 0)
			fprintf(out, "\\x%02x", *p);
		else if (escape_unsafe(cp))
			fprintf(out, "\\u%04x", (unsigned)cp);
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
}

/* The entity for a character markup would read as its own, or NULL. */
static const char *html_entity(uint32_t cp)
{
	switch (cp) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	}
	return NULL;
}

static int html_forbidden(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7f || cp == 0xfffe || cp == 0xffff || escape_unsafe(cp);
}

void fput_html(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (p && *p) {
		int n = escape_utf8_len((const char *)p);
		uint32_t cp = n > 1 ? escape_decode(p, n) : *p;
		const char *entity = n == 1 ? html_entity(cp) : NULL;
		if (n == 0 || html_forbidden(cp))
			fputs("\xef\xbf\xbd", out); /* U+FFFD */
		else if (entity)
			fputs(entity, out);
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
}

/* The length of the piece of escaped text at p: an escape ("\\n",
 * "\\x1b", "\\u009b") or one UTF-8 character. */
static size_t escaped_piece(const char *p)
{
	if (*p == '\\')
		return p[1] == 'x' ? 4 : p[1] == 'u' ? 6 : 2;
	int n = escape_utf8_len(p);
	return n ? (size_t)n : 1;
}

const char *escape_into(char *buf, size_t len, const char *s)
{
	char *all = NULL;
	size_t size = 0, used = 0;
	FILE *f = open_memstream(&all, &size);
	buf[0] = 0;
	if (!f)
		return buf;
	fput_escaped(f, s ? s : "");
	fclose(f);
	for (const char *p = all; p && *p;) {
		size_t k = escaped_piece(p);
		if (used + k >= len)
			break; /* whole pieces only */
		memcpy(buf + used, p, k);
		used += k;
		p += k;
	}
	buf[used] = 0;
	free(all);
	return buf;
}

uint32_t escape_steering(const char *s, int n)
{
	uint32_t cp = n > 1 ? escape_decode((const unsigned char *)s, n) : 0;
	return escape_unsafe(cp) ? cp : 0;
}

#include "wrap.h"

#include "escape.h"

#include <string.h>

/* The columns of s's first len bytes: its UTF-8 characters. */
static int wrap_columns(const char *s, size_t len)
{
	int cols = 0;
	for (size_t i = 0; i < len; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

void wrap_words(FILE *out, const char *text, int *col, const struct wrap *w)
{
	char seps[2] = { w->sep ? w->sep : ' ', 0 }, word[1024];
	int lead = w->gap, first = 1;
	for (const char *s = text + strspn(text, seps); *s; s += strspn(s, seps)) {
		size_t len = strcspn(s, seps);
		int cols = wrap_columns(s, len);
		if (*col > w->indent && !(first && w->keep_first) && *col + lead + cols > w->width) {
			fprintf(out, "\n%*s", w->indent, "");
			*col = w->indent, lead = 0;
		}
		int room = w->width - *col - lead;
		if (w->cut && cols > room) /* the table's cells are ASCII: a column a byte */
			len = (size_t)(cols = room > 1 ? room : 1);
		snprintf(word, sizeof word, "%.*s", (int)len, s);
		fprintf(out, "%*s", lead, "");
		if (w->escaped)
			fput_escaped(out, word);
		else
			fputs(word, out);
		*col += lead + cols, lead = 1, first = 0;
		s += len;
	}
}

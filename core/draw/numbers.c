#include "draw/numbers.h"

#include "escape.h"

#include <math.h>
#include <string.h>

/* The digits of s from its first that is not 0: "0.0056" has 2, "1000" 4. */
static int significant(const char *s)
{
	int n = 0, lead = 1;
	for (; *s; s++)
		if (*s >= '0' && *s <= '9' && !(lead && *s == '0'))
			n++, lead = 0;
	return n;
}

/* x with a suffix, from `decimals` down to none, the first that has at
 * most NUMBERS_DIGITS significant digits; 0 where none has. */
static int fewer_digits(char *buf, size_t len, double x, int decimals, const char *suffix)
{
	for (int d = decimals; d >= 0; d--) {
		snprintf(buf, len, "%.*f%s", d, x, suffix);
		if (significant(buf) <= NUMBERS_DIGITS)
			return 1;
	}
	return 0;
}

const char *numbers_text(char *buf, size_t len, double v, int decimals)
{
	static const char *const thousands[] = { "k", "M", "G", "T", "P" };
	if (!isfinite(v)) {
		snprintf(buf, len, "\u2013");
		return buf;
	}
	if (fewer_digits(buf, len, v, decimals, ""))
		return buf;
	/* more than 5 digits before the point: in thousands, millions, ... */
	double x = v / 1000;
	size_t u = 0;
	while (fabs(x) >= 1000 && u + 1 < sizeof thousands / sizeof thousands[0])
		x /= 1000, u++;
	if (!fewer_digits(buf, len, x, 4, thousands[u]))
		snprintf(buf, len, "%.4g", v);
	return buf;
}

const char *numbers_size(char *buf, size_t len, double n)
{
	int e;
	double m = frexp(n, &e);
	if (m == 0.5 && e - 1 >= 10)
		snprintf(buf, len, "2^%d", e - 1);
	else
		numbers_text(buf, len, n, 0);
	return buf;
}

/* <td title="key = exact">shown</td>, the title only where they differ. */
static void cell(FILE *out, const char *key, const char *exact, const char *shown)
{
	fputs("<td", out);
	if (exact && strcmp(exact, shown)) {
		fprintf(out, " title=\"%s = ", key); /* keys are the record's own names: letters and '_' */
		fput_html(out, exact);
		fputc('"', out);
	}
	fputc('>', out);
	fput_html(out, shown);
	fputs("</td>", out);
}

void numbers_cell(FILE *out, const struct json *row, const char *key, int decimals, double scale, const char *suffix)
{
	const struct json *v = json_get(row, key);
	char shown[64], num[48];
	if (json_type(v) != JSON_NUMBER) {
		fputs("<td>\u2013</td>", out);
		return;
	}
	snprintf(shown, sizeof shown, "%s%s", numbers_text(num, sizeof num, scale * json_number(v), decimals), suffix);
	cell(out, key, json_number_text(v), shown);
}

void numbers_size_cell(FILE *out, const struct json *row, const char *key)
{
	const struct json *v = json_get(row, key);
	char shown[48];
	if (json_type(v) != JSON_NUMBER) {
		fputs("<td>\u2013</td>", out);
		return;
	}
	cell(out, key, json_number_text(v), numbers_size(shown, sizeof shown, json_number(v)));
}

void numbers_text_cell(FILE *out, const char *s)
{
	fputs("<td class=\"text\">", out);
	fput_html(out, s);
	fputs("</td>", out);
}

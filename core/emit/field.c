#include "emit/field.h"

#include "escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void emit_json(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	fputc('"', out);
	while (p && *p) {
		int n = escape_utf8_len((const char *)p);
		uint32_t steers = escape_steering((const char *)p, n);
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", out); /* not UTF-8: a replacement, so the record stays JSON */
		else if (steers)
			fprintf(out, "\\u%04x", (unsigned)steers); /* the same text, but inert on a terminal */
		else
			fwrite(p, 1, (size_t)n, out);
		p += n ? n : 1;
	}
	fputc('"', out);
}

const char *json_double_text(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		return snprintf(buf, len, "null"), buf;
	/* a whole number in plain digits, exactly the double's value: below
	 * 2^53 every integer is one; up to 2^64 (the double nearest 2^64 - 1,
	 * a u64 note) its digits, never 1.8446744073709552e+19 */
	if (v == floor(v) && fabs(v) <= 18446744073709551616.0)
		return snprintf(buf, len, "%.0f", v), buf;
	for (int prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

void emit_json_double(FILE *out, double v)
{
	char text[40];
	fputs(json_double_text(text, sizeof text, v), out);
}

void emit_json_number(FILE *out, const char *key, int have, double v)
{
	fprintf(out, ", \"%s\": ", key);
	if (have && isfinite(v))
		emit_json_double(out, v);
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

void md_cell(FILE *out, const char *s)
{
	char text[1024];
	for (const char *c = escape_into(text, sizeof text, s); *c; c++) {
		if (*c == '|')
			fputc('\\', out);
		fputc(*c, out);
	}
}

void md_header(FILE *out, const char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(names[k]);
		int number = len && names[k][len - 1] == ':';
		fprintf(out, "| %.*s ", (int)(len - number), names[k]);
	}
	fputs("|\n", out);
	for (size_t k = 0; k < n; k++)
		fputs(names[k][0] && names[k][strlen(names[k]) - 1] == ':' ? "|---:" : "|---", out);
	fputs("|\n", out);
}

const struct cell_style csv_cells = { emit_csv, "", ",", "\n", 0 };
const struct cell_style md_cells = { md_cell, "| ", " | ", " |\n", 1 };

void cells_header(FILE *out, const struct cell_style *c, const char *const *names, size_t n)
{
	if (c->md) {
		md_header(out, names, n);
		return;
	}
	for (size_t k = 0; k < n; k++) { /* plain words: no quotes */
		size_t len = strlen(names[k]);
		fprintf(out, "%s%.*s", k ? "," : "", (int)(len - (len && names[k][len - 1] == ':')), names[k]);
	}
	fputc('\n', out);
}

void cells_row(FILE *out, const struct cell_style *c, const char *const *v, size_t n)
{
	fputs(c->open, out);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? c->sep : "", out);
		c->cell(out, v[k] ? v[k] : "");
	}
	fputs(c->close, out);
}

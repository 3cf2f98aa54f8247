#include "emit.h"

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

void emit_json(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
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

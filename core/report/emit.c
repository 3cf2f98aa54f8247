#include "report/emit.h"

#include "report/escape.h"
#include "report/json.h"

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

void emit_json_tree(FILE *out, const struct json *v)
{
	enum json_type t = json_type(v);
	if (t == JSON_ARRAY || t == JSON_OBJECT) {
		fputc(t == JSON_ARRAY ? '[' : '{', out);
		for (size_t i = 0; i < json_len(v); i++) {
			fputs(i ? ", " : "", out);
			if (t == JSON_OBJECT) {
				emit_json(out, json_key(v, i));
				fputs(": ", out);
			}
			emit_json_tree(out, json_index(v, i));
		}
		fputc(t == JSON_ARRAY ? ']' : '}', out);
	} else if (t == JSON_STRING) {
		emit_json(out, json_string(v));
	} else if (t == JSON_NUMBER) {
		fputs(json_number_text(v), out);
	} else if (t == JSON_BOOL) {
		fputs(json_bool(v) ? "true" : "false", out);
	} else {
		fputs("null", out); /* null, and a packed array's node memory could not be had for */
	}
}

/* The journal's lines (emit/journal_lines.h). */
#include "emit/journal_lines.h"

#include "emit/field.h"
#include "emit/json.h"

void report_journal_header(const struct report *r, FILE *out)
{
	json_run_head(r, REPORT_JOURNAL_SCHEMA, " ", 0, out);
	fputs("}\n", out);
}

void report_journal_point(const struct report *r, size_t i, FILE *out)
{
	json_row(r, i, out);
	fputc('\n', out);
}

void report_journal_extras(const struct report *r, FILE *out)
{
	for (size_t i = 0; i < r->nextra; i++)
		fprintf(out, "%s\n", r->extra[i]);
}

void report_journal_end(const struct report *r, size_t points, FILE *out)
{
	fprintf(out, "{\"end\": {\"interrupted\": %s", r->interruption ? "true" : "false");
	emit_json_string(out, "interruption", r->interruption);
	fprintf(out, ", \"points\": %zu}}\n", points);
}

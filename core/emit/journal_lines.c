/* The journal's lines (emit/journal_lines.h): made in memory, then
 * appended whole, so that an entry is one write(2). */
#include "emit/journal_lines.h"

#include "emit/field.h"
#include "emit/json.h"
#include "exitcode.h"

#include <stdio.h>
#include <stdlib.h>

/* A line in memory: opened, then closed into its text (NULL where
 * memory ran out), to free. */
struct line {
	char *text;
	size_t n;
	FILE *f;
};

static FILE *line_open(struct line *l)
{
	*l = (struct line){ 0 };
	return l->f = open_memstream(&l->text, &l->n);
}

static char *line_close(struct line *l)
{
	if (l->f && fclose(l->f)) {
		free(l->text);
		l->text = NULL;
	}
	l->f = NULL;
	return l->text;
}

/* The line closed and appended. */
static int line_append(struct journal *j, struct line *l, char *err, size_t len)
{
	int rc = line_close(l) ? journal_append(j, l->text, l->n, err, len) : EXIT_NOMEM;
	free(l->text);
	return rc;
}

int journal_begin(struct journal *j, const struct report *r)
{
	struct line l;
	int rc = EXIT_NOMEM;
	if (line_open(&l)) {
		json_run_head(r, REPORT_JOURNAL_SCHEMA, " ", 0, l.f);
		fputs("}\n", l.f);
		for (size_t i = 0; i < r->njobs; i++)
			if (r->jobs[i].kept)
				fprintf(l.f, "%s\n", r->jobs[i].kept);
		for (size_t i = 0; i < r->nextra; i++)
			fprintf(l.f, "%s\n", r->extra[i]);
	}
	if (line_close(&l))
		rc = journal_header(j, l.text, l.n);
	free(l.text);
	return rc;
}

int journal_point(struct journal *j, const struct report *r, size_t i, char *err, size_t len)
{
	struct line l;
	if (line_open(&l)) {
		json_row(r, i, l.f);
		fputc('\n', l.f);
	}
	return line_append(j, &l, err, len);
}

int journal_end(struct journal *j, const struct report *r, size_t points, char *err, size_t len)
{
	struct line l;
	if (line_open(&l)) {
		fprintf(l.f, "{\"end\": {\"interrupted\": %s", r->interruption ? "true" : "false");
		emit_json_string(l.f, "interruption", r->interruption);
		fprintf(l.f, ", \"points\": %zu}}\n", points);
	}
	return line_append(j, &l, err, len);
}

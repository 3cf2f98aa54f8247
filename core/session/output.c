/*
 * --output FILE as a session writes it (session/output.h): the journal
 * begun with the points kept, appended to as each point is done, and
 * ended.
 */
#include "session/output.h"

#include "exitcode.h"
#include "fail.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int output_open(struct record_out *out, const char *path)
{
	char err[PATH_MAX + 512];
	int rc;
	*out = (struct record_out){ .path = path, .writable = 1 };
	if (path && (rc = journal_open(&out->j, path, err, sizeof err)))
		return fail(rc, "--output %s: %s", path, err);
	return 0;
}

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

static void kept_rows(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].kept)
			fprintf(f, "%s\n", r->jobs[i].kept);
	report_journal_extras(r, f);
}

/* What the journal starts with, written with its first entry: the
 * header, and the points a resumed record kept. */
int output_begin(struct record_out *out, const struct report *r, unsigned samples_keep)
{
	struct line l;
	int rc = EXIT_NOMEM;
	if (!out->path)
		return 0;
	out->json = *r;
	out->json.format = FORMAT_JSON;
	out->json.samples = 1;
	out->json.samples_keep = samples_keep;
	if (line_open(&l)) {
		report_journal_header(&out->json, l.f);
		kept_rows(&out->json, l.f);
	}
	if (line_close(&l))
		rc = journal_header(&out->j, l.text, l.n);
	free(l.text);
	for (size_t i = 0; i < r->njobs; i++)
		out->lines += r->jobs[i].kept != NULL;
	out->lines += r->nextra;
	return rc ? fail(rc, "out of memory") : 0;
}

/* One line appended: 0, or the failure, said once (the rest are not tried). */
static int output_line(struct record_out *out, char *text, size_t n)
{
	char err[512];
	int rc = text ? 0 : EXIT_NOMEM, replacing = !journal_committed(&out->j);
	if (!out->path || !out->writable) {
		free(text);
		return 0;
	}
	if (!rc && (rc = journal_append(&out->j, text, n, err, sizeof err)) == 0)
		out->lines++;
	if (!rc && replacing)
		journal_say_other_names(&out->j, out->path);
	free(text);
	if (rc)
		out->writable = 0;
	return rc == EXIT_NOMEM ? fail(rc, "out of memory") : rc ? fail(rc, "--output %s: %s", out->path, err) : 0;
}

/* Point i's row, appended as it is done. */
int output_point(struct record_out *out, size_t i)
{
	struct line l;
	if (!out->path)
		return 0;
	if (line_open(&l))
		report_journal_point(&out->json, i, l.f);
	line_close(&l);
	return output_line(out, l.text, l.n);
}

/* The run ended: the points not run, and the closing line.  A run that
 * a signal stopped before its first entry leaves FILE as it was. */
int output_end(struct record_out *out, const struct report *r, int by_signal)
{
	struct line l;
	int rc = 0, worst = 0;
	if (!out->path || (by_signal && !journal_committed(&out->j)))
		return 0;
	out->json.interruption = r->interruption;
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].res.outcome == OUTCOME_NOT_RUN && !r->jobs[i].kept && (rc = output_point(out, i)) && !worst)
			worst = rc;
	if (line_open(&l))
		report_journal_end(&out->json, out->lines, l.f);
	line_close(&l);
	rc = output_line(out, l.text, l.n);
	return worst ? worst : rc;
}

void output_close(struct record_out *out)
{
	if (out->path)
		journal_close(&out->j);
}

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

int output_open(struct record_out *out, const char *path)
{
	char err[PATH_MAX + 512];
	int rc;
	*out = (struct record_out){ .path = path, .writable = 1 };
	if (path && (rc = journal_open(&out->j, path, err, sizeof err)))
		return fail(rc, "--output %s: %s", path, err);
	return 0;
}

/* What the journal starts with, written with its first entry: the
 * header, and the points a resumed record kept. */
int output_begin(struct record_out *out, const struct report *r, unsigned samples_keep)
{
	if (!out->path)
		return 0;
	out->json = *r;
	out->json.samples = 1;
	out->json.samples_keep = samples_keep;
	int rc = journal_begin(&out->j, &out->json);
	for (size_t i = 0; i < r->njobs; i++)
		out->lines += r->jobs[i].kept != NULL;
	out->lines += r->nextra;
	return rc ? fail(rc, "out of memory") : 0;
}

/* A line appended (rc 0) or not: the failure said once (the rest are
 * not tried). */
static int output_said(struct record_out *out, int rc, const char *err)
{
	if (!rc)
		out->lines++;
	else
		out->writable = 0;
	return rc == EXIT_NOMEM ? fail(rc, "out of memory") : rc ? fail(rc, "--output %s: %s", out->path, err) : 0;
}

/* Point i's row, appended as it is done. */
int output_point(struct record_out *out, size_t i)
{
	char err[512];
	if (!out->path || !out->writable)
		return 0;
	return output_said(out, journal_point(&out->j, &out->json, i, err, sizeof err), err);
}

/* The run ended: the points not run, and the closing line.  A run that
 * a signal stopped before its first entry leaves FILE as it was. */
int output_end(struct record_out *out, const struct report *r, int by_signal)
{
	char err[512];
	int rc = 0, worst = 0;
	if (!out->path || (by_signal && !journal_committed(&out->j)))
		return 0;
	out->json.interruption = r->interruption;
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].res.outcome == OUTCOME_NOT_RUN && !r->jobs[i].kept && (rc = output_point(out, i)) && !worst)
			worst = rc;
	if (out->writable)
		rc = output_said(out, journal_end(&out->j, &out->json, out->lines, err, sizeof err), err);
	else
		rc = 0;
	return worst ? worst : rc;
}

void output_close(struct record_out *out)
{
	if (out->path)
		journal_close(&out->j);
}

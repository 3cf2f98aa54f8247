/*
 * --output FILE, the record a run writes (records/output.h): the journal
 * begun with the points kept, appended to as each point is done, and
 * ended; its lines made here.
 */
#include "records/output.h"

#include "config/options.h"
#include "emit/field.h"
#include "emit/json.h"
#include "emit/row.h"
#include "escape.h"
#include "exitcode.h"
#include "fail.h"
#include "records/ondisk.h"
#include "records/schema.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int output_open(struct record_out *out, const char *path, int resuming)
{
	char err[PATH_MAX + 512];
	int rc;
	*out = (struct record_out){ .path = path, .writable = 1 };
	if (path && (rc = journal_open(&out->j, path, resuming ? NULL : ondisk_is_record, err, sizeof err)))
		return fail(rc, "%s %s: %s", options_long(OPT_OUTPUT), path, err);
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

/* --- the journal's lines ------------------------------------------------- */

/* The header line: what the record says of the whole run, under the
 * journal's schema; how it ended is the closing line's. */
static void record_head_line(const struct report *r, FILE *out)
{
	json_run_head(r, RECORD_JOURNAL_SCHEMA, " ", 0, out);
	fputs("}\n", out);
}

/* Row i's line: as run, or as kept from the record resumed. */
static void record_point_line(const struct report *r, size_t i, FILE *out)
{
	json_row(r, i, out);
	fputc('\n', out);
}

/* The closing line, naming the points the journal holds. */
static void record_end_line(const struct report *r, size_t points, FILE *out)
{
	fprintf(out, "{\"end\": {\"interrupted\": %s", r->interruption ? "true" : "false");
	emit_json_string(out, "interruption", r->interruption);
	fprintf(out, ", \"points\": %zu}}\n", points);
}

/* The rows of a resumed record kept: its points this run has, then those
 * no point of this run is (r->extra). */
static void kept_rows(const struct report *r, FILE *f)
{
	for (size_t i = 0; i < r->njobs; i++)
		if (r->jobs[i].kept)
			fprintf(f, "%s\n", r->jobs[i].kept);
	for (size_t i = 0; i < r->nextra; i++)
		fprintf(f, "%s\n", r->extra[i]);
}

/* --- the journal, as the session goes ------------------------------------ */

/* What the journal starts with, written with its first entry: the
 * header, and the points a resumed record kept. */
int output_begin(struct record_out *out, const struct report *r, unsigned samples_keep, int resumed)
{
	struct line l;
	int rc = EXIT_NOMEM;
	if (!out->path)
		return 0;
	out->json = *r;
	out->json.samples = 1;
	out->json.samples_keep = samples_keep;
	out->carries = resumed;
	if (line_open(&l)) {
		record_head_line(&out->json, l.f);
		kept_rows(&out->json, l.f);
	}
	if (line_close(&l)) {
		journal_header(&out->j, l.text, l.n);
		rc = 0;
	}
	for (size_t i = 0; i < r->njobs; i++)
		out->lines += r->jobs[i].kept != NULL;
	out->lines += r->nextra;
	return rc ? fail(rc, "out of memory") : 0;
}

/* Lines kept in memory until they may be written. */
static int hold_lines(struct record_out *out, const char *text, size_t n, size_t lines)
{
	char *p = realloc(out->held, out->nheld + n + 1);
	if (!p)
		return EXIT_NOMEM;
	memcpy(p + out->nheld, text, n);
	out->held = p;
	out->nheld += n;
	out->held_lines += lines;
	return 0;
}

/* Lines, `lines` of them points, appended as one entry after those held;
 * or held too, where nothing is written yet and `now` is 0 (no point
 * measured).  0, or the failure, said once (the rest are not tried). */
static int output_lines(struct record_out *out, char *text, size_t n, size_t lines, int now)
{
	char err[512];
	int rc = text ? 0 : EXIT_NOMEM, replacing = !journal_committed(&out->j);
	if (!out->path || !out->writable) {
		free(text);
		return 0;
	}
	if (!rc)
		rc = hold_lines(out, text, n, lines);
	free(text);
	if (!rc && replacing && !now)
		return 0;
	if (!rc && (rc = journal_append(&out->j, out->held, out->nheld, err, sizeof err)) == 0) {
		out->lines += out->held_lines;
		out->nheld = out->held_lines = 0;
		if (replacing)
			journal_say_other_names(&out->j, out->path);
	}
	if (rc)
		out->writable = 0;
	if (rc == EXIT_NOMEM)
		return fail(rc, "out of memory");
	return rc ? fail(rc, "%s %s: %s", options_long(OPT_OUTPUT), out->path, err) : 0;
}

/* Point i's row, appended as it is done: written where it was measured
 * or the record is FILE's already, else held. */
int output_point(struct record_out *out, size_t i)
{
	struct line l;
	if (!out->path)
		return 0;
	if (line_open(&l))
		record_point_line(&out->json, i, l.f);
	line_close(&l);
	return output_lines(out, l.text, l.n, 1, measured(&out->json.jobs[i]));
}

/* May a run that measured no point write FILE at its end?  Where there
 * was no record, or it carries every measured point of the one there
 * (--resume); not over a record it would lose points of. */
static int may_end_unmeasured(const struct record_out *out)
{
	return out->carries || !journal_replaces(&out->j);
}

/* The run ended: the points not run and the closing line, one entry (one
 * write, one sync).  A run that a signal stopped before its first entry
 * leaves FILE as it was; so does one that measured nothing (above). */
int output_end(struct record_out *out, const struct report *r, int by_signal)
{
	struct line l;
	size_t k = 0;
	char name[256];
	if (!out->path || (by_signal && !journal_committed(&out->j)))
		return 0;
	if (!journal_committed(&out->j) && !may_end_unmeasured(out)) {
		if (!r->interruption) /* else the run's stop line says so */
			fail(0, "%s %s is as it was: no point was measured to replace it with", options_long(OPT_OUTPUT),
			     escape_into(name, sizeof name, out->path));
		return 0;
	}
	out->json.interruption = r->interruption;
	if (line_open(&l)) {
		for (size_t i = 0; i < r->njobs; i++)
			if (r->jobs[i].res.outcome == OUTCOME_NOT_RUN && !r->jobs[i].kept) {
				record_point_line(&out->json, i, l.f);
				k++;
			}
		record_end_line(&out->json, out->lines + out->held_lines + k, l.f);
	}
	line_close(&l);
	return output_lines(out, l.text, l.n, k, 1);
}

int output_committed(const struct record_out *out)
{
	return out->path && journal_committed(&out->j);
}

int output_replaces(const struct record_out *out)
{
	return out->path && journal_replaces(&out->j);
}

void output_close(struct record_out *out)
{
	if (out->path)
		journal_close(&out->j);
	free(out->held);
	out->held = NULL;
}

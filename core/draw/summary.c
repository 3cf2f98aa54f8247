/*
 * What `gpulab report` says once the page is written.  For people
 * nothing: the page is what it makes, and a warning (a .svg that holds
 * one of several charts) is a line on stderr.  For --format json one
 * document (gpulab-report/1, docs/json.md): the file written, what it
 * shows, and each record read, so that a script that draws reports can
 * tell what went into one without reading the page.
 */
#include "draw/summary.h"

#include "draw/board.h"
#include "emit/field.h"
#include "records/json.h"
#include "records/record.h"

#include <stdlib.h>

/* The points two records pair up at, as the page's comparison pairs
 * them (none: the page draws two sections and no comparison). */
static size_t summary_paired(const struct plot *pl)
{
	struct record a = pl[0].rec, b = pl[1].rec; /* record_pair_up reads them; the copies are not freed */
	struct record_pair *pairs = calloc(a.n ? a.n : 1, sizeof *pairs);
	/* the page paired them already: afresh, as it did */
	for (size_t i = 0; i < a.n; i++)
		a.v[i].matched = 0;
	for (size_t i = 0; i < b.n; i++)
		b.v[i].matched = 0;
	size_t n = pairs ? record_pair_up(&a, &b, pairs) : 0;
	free(pairs);
	return n;
}

/* What the page shows, as report_page and lone_chart choose it. */
static const char *summary_shows(const struct plot *pl, size_t n, int svg, size_t paired)
{
	if (svg)
		return "chart";
	if (board_is_history(pl, n))
		return "history";
	return paired ? "comparison" : "records";
}

static void summary_record(FILE *out, const struct plot *pl)
{
	size_t measured = 0;
	for (size_t i = 0; i < pl->n; i++)
		measured += plot_measured(&pl->p[i]) != 0;
	fputs("    {\"path\": ", out);
	emit_json(out, pl->rec.path);
	emit_json_string(out, "schema", json_string(json_get(pl->rec.doc, "schema")));
	emit_json_string(out, "device", json_string(json_get(json_get(pl->rec.doc, "device"), "name"))); /* null: the host */
	fprintf(out, ", \"grade\": %s, \"finished\": %s, \"points\": %zu, \"measured\": %zu}", board_is_grade(pl) ? "true" : "false",
		pl->rec.finished ? "true" : "false", pl->n, measured);
}

void report_summary_json(FILE *out, const struct plot *pl, size_t n, const char *path, int svg)
{
	size_t paired = n == 2 && !svg && !board_is_history(pl, n) ? summary_paired(pl) : 0;
	fputs("{\n  \"schema\": \"gpulab-report/1\",\n  \"output\": ", out);
	emit_json(out, path);
	emit_json_string(out, "shows", summary_shows(pl, n, svg, paired));
	fprintf(out, ", \"paired\": %zu", paired);
	fputs(",\n  \"records\": [\n", out);
	for (size_t i = 0; i < n; i++) {
		summary_record(out, &pl[i]);
		fputs(i + 1 < n ? ",\n" : "\n", out);
	}
	fputs("  ]\n}\n", out);
}

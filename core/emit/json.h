/* The run's report as JSON (emit/json.c): the whole record, at the end,
 * as a writer (emit/writer.h), under the schema the report names; a row
 * and the run's members, which the journal's lines are made of too (by
 * records/output.c, which writes them); and the samples a record keeps. */
#ifndef GPULAB_EMIT_JSON_H
#define GPULAB_EMIT_JSON_H

#include "emit/report.h"
#include "emit/writer.h"

#include <stdint.h>
#include <stdio.h>

/* A point's samples kept in a record unless --samples all: a uniform
 * random subset of this many where it took more. */
#define JSON_SAMPLES_KEPT 4096

extern const struct writer report_json;

/* Row i of the record: as run, or as kept from the record resumed. */
void json_row(const struct report *r, size_t i, FILE *out);

/* What a record says of the whole run, but its points and how it ended:
 * members of one object under schema, each after sep (a document's
 * "\n  ", a journal's " "), with the interruption where ended (a
 * document's; a journal says it in its closing line). */
void json_run_head(const struct report *r, const char *schema, const char *sep, int ended, FILE *out);

/* "samples_ms"'s array: at most keep of v's samples (0: JSON_SAMPLES_KEPT,
 * UINT_MAX: all, --samples all), a uniform random subset in the order
 * taken (report_sample_kept), seeded by n, so that the same samples keep
 * the same subset.  Each exact (emit_json_double).  runs, the median,
 * its interval, min and max are computed from all of them. */
void report_samples(FILE *out, const double *v, size_t n, unsigned keep);

/* `, "samples_kept": N` (or "all") for the bound keep (as above). */
void report_samples_kept(FILE *out, unsigned keep);

/* Selection sampling: keep the next of `left` samples, `need` of them
 * still to keep?  state: the generator's, seeded by the caller. */
int report_sample_kept(uint64_t *state, uint64_t left, uint64_t need);

#endif

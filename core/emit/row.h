/* What a row of the run's report says, for every writer (row.c): the
 * same values in the table, CSV, JSON and Markdown. */
#ifndef GPULAB_EMIT_ROW_H
#define GPULAB_EMIT_ROW_H

#include "emit/report.h"

#include <stddef.h>

/* Measured by this run (not kept from a resumed record), and its flags:
 * NOISY (cut_short: stopped before 6 runs), UNBATCHED, UNHELD, THROTTLED. */
int measured(const struct job *j);
int cut_short(const struct job *j);
int noisy(const struct job *j);
int unbatched(const struct job *j);
int unheld(const struct job *j);
int throttled(const struct job *j);

/* The median's interval, the noise (-1: none) and the share of the peak, in %. */
int has_interval(const struct job *j);
double interval_pct(const struct job *j);
double noise_pct(const struct job *j);
double peak_pct(const struct report *r, const struct job *j);

/* The row's status word ("ok", "FAILED", ...) and its runs per sample. */
const char *status_word(const struct job *j);
unsigned row_batch(const struct report *r, const struct job *j);

/* The rows it is compared with: its peers' plugin, a sibling exercise at
 * its point, and the speedup and share of the reference's speed (0: none). */
const struct plugin *peers(const struct report *r, const struct job *j);
const struct job *sibling(const struct report *r, const struct job *j, const char *name);
int uncompared(const struct job *j);
void compare(const struct report *r, const struct job *j, double *speedup, double *share);

/* Its parameters, notes and choices as "key=value" text; its label in
 * the compact table and Markdown (name and swept keys). */
void notes_text(const struct job *j, char *buf, size_t len, char sep);
void chosen_text(const struct job *j, char *buf, size_t len, char sep);
void params_some(const struct job *j, char *buf, size_t len, char sep, int swept);
void params_text(const struct job *j, char *buf, size_t len, char sep);
const char *generic_text(const struct job *j, enum generic g);
const char *row_label(const struct job *j, char *buf, size_t len);

/* Was row i's message said for an earlier row of its exercise? */
int same_message_before(const struct report *r, size_t i);

/* Do all rows share their warm-up and stopping rule? */
int same_repetitions(const struct report *r, unsigned *warmup, const struct job **first);

/* --metrics: every label any row has (the caller frees), and a row's value. */
size_t metric_labels(const struct report *r, const char ***out);
int metric_of(const struct job *j, const char *l, double *v, const char **source, char *buf, size_t len);

#endif

/*
 * The numbers `gpulab report` draws, read from a run record and checked
 * before anything is drawn: every field the report uses is there, of its
 * type and within what a run can produce, or the record is refused with
 * one line naming the file, the result and the key.  Nothing a record
 * holds can then make a scale infinite or a chart empty of reason.
 */
#ifndef GPULAB_PLOT_H
#define GPULAB_PLOT_H

#include "records/record.h"

#include <stddef.h>

struct nccl_figures;

enum plot_state { PLOT_OK, PLOT_UNVERIFIED, PLOT_FAILED, PLOT_ERROR, PLOT_SKIPPED, PLOT_NOT_RUN };

struct plot_point {
	const struct json *row;
	const char *exercise;   /* "reduce.best" */
	const char *params;     /* the parameters that define the point, for people */
	char variant[256];      /* those besides the size that vary in the record: "block=256" */
	double x;               /* the size: params.n, else elements */
	/* NAN where the record has null */
	double gbps, peak_pct, noise_pct, median_ms, min_ms, max_ms, speedup, ref_share;
	enum plot_state state;
	int converged;          /* false: NOISY (the record's noisy, or before 1.2 not converged) */
	int throttled;          /* runs the clocks said were slowed */
	int ceiling;            /* a copy or library exercise the others are measured against */
	const struct json *metrics; /* the --metrics object, or NULL */
	const char *message;
};

struct plot {
	struct record rec;
	struct plot_point *p;
	size_t n;
	double peak_gbps;       /* NAN for a run on the host */
	int sweeps_size;        /* some exercise ran at more than one size */
	int has_variants;       /* some exercise ran with other parameters too */
	const struct nccl_figures *nccl; /* nccl-tests' figures to draw beside its busbw, or NULL */
};

/* The most results a record may hold: what one run makes at the most. */
#define PLOT_MAX_POINTS 10000

/* Read and check the record at path.  0, or EXIT_USAGE / EXIT_NOMEM with
 * one line in err; plot_free() either way. */
int plot_read(struct plot *pl, const char *path, char *err, size_t len);
void plot_free(struct plot *pl);

/* The same for a tree already read, which pl owns from then on; path
 * names it in messages. */
int plot_take(struct plot *pl, const char *path, struct json *doc, char *err, size_t len);

/* Was the point measured: has it a time and a bandwidth? */
int plot_measured(const struct plot_point *p);

/* "ok", "unverified", "FAILED", "ERROR" or "skipped". */
const char *plot_state_word(enum plot_state s);

/* The exercise without its plugin: "best" of "reduce.best". */
const char *plot_short_name(const char *exercise);

#endif

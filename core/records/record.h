/*
 * A run record (docs/record.md) read back: what `gpulab compare` and
 * `gpulab report` share.  Points match across records by exercise and
 * effective parameters (the seed, reps and warmup aside: they say how a
 * point was measured, not which point it is); a matched pair gets the
 * ratio of medians and a Mann-Whitney verdict on its samples.
 */
#ifndef GPULAB_RECORD_H
#define GPULAB_RECORD_H

#include "records/json.h"
#include "records/ondisk.h"
#include "stats.h"

#include <stddef.h>

/* A record as large as this is a mistake or an attack, not a run. */
#define RECORD_MAX_BYTES (256u << 20)
/* The most results a record may hold: what one run makes at the most
 * (PARAM_MAX_POINTS). */
#define RECORD_MAX_POINTS 10000

struct record_point {
	const struct json *row;
	char key[1024];     /* exercise and the parameters that define the point */
	char params[768];   /* those parameters, for people: "n=1024 type=int" */
	int matched;
};

struct record {
	const char *path;
	const char *exercise; /* only this exercise's points; NULL: all */
	struct json *doc;
	struct record_point *v;
	size_t n;
	int finished;         /* 0: a journal without its closing entry */
};

/* The record file at path, a journal or a 1.x document, as a document
 * tree (records/ondisk.h); a warning line on stderr where its last entry
 * was cut off or its run did not finish.  NULL with one line in err. */
struct json *record_read(const char *path, char *err, size_t len);

/* The same, keeping the file's text and its points' lines
 * (ondisk_read_lines: *text to free, and ondisk_lines_free(d)). */
struct json *record_read_lines(const char *path, struct ondisk *d, char **text, char *err, size_t len);

/* Read the record at r->path (record_read): a gpulab-record/1 or /2
 * whose run and every result pass the one check (records/validate.h); with r->exercise set, only that exercise's points, of
 * which there must be one.  0; EXIT_USAGE or EXIT_NOMEM with one line, naming the
 * file, in err.  record_free() in either case. */
int record_load(struct record *r, char *err, size_t len);
void record_free(struct record *r);

/* Is schema one a reader takes: gpulab-record/1 or /2 (the journal), or
 * a minor of either (gpulab-record/1.1: fields added)? */
int record_schema_known(const char *schema);

/* The same for a tree already read (r->path names it in messages); the
 * record owns doc from then on, even on failure. */
int record_take(struct record *r, struct json *doc, char *err, size_t len);

/* Key two exercises' points against each other (compare --base EX --new
 * EX): a point's key drops the exercise and keeps only the parameters the
 * other side's points have too, since cub takes no block size and best
 * does. */
void record_key_across(struct record *a, struct record *b);

/* Does a parameter say which point it is (not seed, reps or warmup)? */
int record_defines_point(const char *key);

struct record_pair {
	const struct record_point *base, *cand;
	enum stats_result verdict;
	struct stats_comparison c;
};

/* Pair every point of a with the first unmatched one of b of its key,
 * judged; pairs has room for a->n.  The number of pairs. */
size_t record_pair_up(struct record *a, struct record *b, struct record_pair *pairs);

/* The pair's verdict in words, "no samples" where a side has none. */
const char *record_verdict_word(const struct record_pair *pr);

#endif

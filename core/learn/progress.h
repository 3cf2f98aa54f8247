/*
 * A learner's progress through the lessons (`gpulab learn`), kept in
 * $XDG_STATE_HOME/gpulab/progress.ini (~/.local/state/gpulab without it):
 * for each lesson, whether its claim was seen, the last verdict and
 * figure, and whether its task was passed, with the best figure.
 *
 * Written whole or not at all (io/outfile.h: a temporary beside it,
 * renamed into its place), under a lock (progress.lock beside it, flock)
 * held from reading it to writing it, so two gpulab at once never lose
 * each other's step.  A file that cannot be read as one is refused with
 * one line naming it and the line at fault, EXIT_CONFIG, and left as it
 * is: nothing overwrites progress gpulab does not understand.
 */
#ifndef GPULAB_PROGRESS_H
#define GPULAB_PROGRESS_H

#include "learn/lesson.h"

#include <stddef.h>

#define PROGRESS_MAX_BYTES (256u << 10)

struct progress_entry {
	char name[LESSON_MAX_NAME + 1];
	int seen;
	int verdict;        /* enum verdict, -1: not measured */
	double figure;      /* the last experiment's figure; NaN without */
	int passed;
	double best;        /* the best task figure (times as fast as the target's exercise); NaN without */
};

struct progress {
	char path[4200];
	int lock;           /* the lock's descriptor, -1 none */
	struct progress_entry *v;
	size_t n;
};

/* Where the progress lives: $XDG_STATE_HOME/gpulab/progress.ini, or
 * $HOME/.local/state/gpulab/progress.ini.  0, or EXIT_CONFIG with why. */
int progress_path(char *buf, size_t len, char *err, size_t errlen);

/* The directory beside it that keeps each lesson's records (the last
 * experiment's, LESSON.json, and the last submission's, LESSON-task.json:
 * ordinary run records, for `gpulab report` and `compare`), made where
 * missing: $XDG_STATE_HOME/gpulab/records.  0, or EXIT_CONFIG with why. */
int progress_records_dir(char *buf, size_t len, char *err, size_t errlen);

/* A directory of its own under the records directory for one learn's
 * run (".run-XXXXXX", into buf), held by a lock on it (*lock, to close
 * once the directory is removed); first the run directories whose learn
 * was killed are removed.  0, or EXIT_CONFIG with why. */
int progress_run_dir(char *buf, size_t len, int *lock, char *err, size_t errlen);

/* Read it (none yet: no entries); with lock, take the lock first (the
 * directory is made where missing).  0; or EXIT_CONFIG (EXIT_NOMEM) with
 * one line in err.  progress_free() either way. */
int progress_load(struct progress *p, const char *path, int lock, char *err, size_t errlen);

/* The text of a progress file, for a file called `file` (messages name
 * it): what progress_load does once it has the bytes. */
int progress_parse(struct progress *p, const char *file, const char *text, size_t len, char *err, size_t errlen);

/* The lesson's entry, added (not seen) where it has none; NULL: no memory. */
struct progress_entry *progress_add(struct progress *p, const char *name);
const struct progress_entry *progress_find(const struct progress *p, const char *name);

/* Write it in its place: 0, or EXIT_USAGE with why. */
int progress_save(const struct progress *p, char *err, size_t errlen);

/* Frees it and lets the lock go. */
void progress_free(struct progress *p);

#endif

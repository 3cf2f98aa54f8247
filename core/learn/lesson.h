/*
 * A lesson of `gpulab learn` (docs/learn.md): one INI file under
 * $(pkgdatadir)/lessons, read with inih.  Its [lesson] section quotes a
 * claim of the book with its figure, names the `gpulab run` that tests
 * it on this GPU, the figure of that run to compare, and the rule that
 * says the claim holds; its [task] section is a `gpulab try` challenge
 * with a target relative to an exercise measured beside it.
 *
 * A file is read whole, through the one INI reader (config/ini_text.h),
 * or refused with one line, "FILE:LINE: ...", naming the key or value at
 * fault: EXIT_CONFIG.  Text values are UTF-8 without
 * control characters (they are printed to a terminal), at most
 * LESSON_MAX_TEXT bytes; a line indented under a key continues it (inih's
 * multi-line values), which is how a paragraph fits inih's 200-byte lines.
 */
#ifndef GPULAB_LESSON_H
#define GPULAB_LESSON_H

#include "config/ini_text.h"

#include <stddef.h>

#define LESSON_MAX_BYTES (64u << 10) /* a lesson file */
#define LESSON_MAX_TEXT 4096         /* one value, continuations included */
#define LESSON_MAX_ARGS 24           /* words of `run` and of the task's `args` */
#define LESSON_MAX_NAME 64           /* a lesson's name: its file name less .ini */
#define LESSON_MAX_COUNT 256         /* lessons in a directory */
/* A speedup within this many percent of its rule is inside the noise:
 * two runs of one build a minute apart differ by 1-4% for 5 us
 * reductions (README, `compare --min-change`). */
#define LESSON_NOISE 2.0

/* A point of the run's record: an exercise, and where the run has
 * several of its points, the parameters that pick one ("n=16777216"). */
struct lesson_point {
	char exercise[128];
	char keys[4][2][64]; /* key, value as the record writes it */
	int nkeys;
};

enum figure_kind {
	FIGURE_SPEEDUP,      /* median(a) / median(b): how many times b is faster */
	FIGURE_METRIC,       /* a's counter `metric` */
	FIGURE_METRIC_RATIO, /* a's counter over b's */
	FIGURE_NOTE,         /* a number a's exercise noted beside its timing (the row's `notes`) */
};

struct lesson_figure {
	enum figure_kind kind;
	struct lesson_point a, b;
	char metric[64];     /* the counter's label, or the note's key */
};

enum rule_op { RULE_GE, RULE_GT, RULE_LE, RULE_LT };

struct lesson_rule {
	enum rule_op op;
	double value;
};

/* A counter the task's kernel must keep beside its speed ("no
 * shared-memory bank conflicts"): its label and the rule; label "" for
 * none. */
struct lesson_require {
	char metric[64];
	struct lesson_rule rule;
};

struct lesson {
	char name[LESSON_MAX_NAME + 1];
	int order;                 /* where it comes on the map, 1 to 999 */
	char *order_text;
	char *chapter, *topic;     /* the map's headings */
	char *claim, *book;        /* the book's claim, and its figure as the book gives it */
	char *run;                 /* the arguments of `gpulab run` that test it */
	char *figure, *rule, *unit;
	char *why, *docs, *because; /* because: why it may not hold on this GPU (optional) */
	char *notes;               /* where in the chapter notes the claim is: "001 L376" (optional) */
	char *noise_text;          /* a speedup's noise band in percent (optional) */
	char *claims;              /* the claims of docs/claims.md it tests: "001.12 004.5" (optional) */
	char *here;                /* a sentence of the why filled from this run's figures (optional) */
	char *floor_text;          /* a ratio of counters: the least each must read to be told (optional) */
	double floor;              /* 0 by default: any count is told */
	double noise;              /* inside it a significant difference from the rule is not told: LESSON_NOISE by default */
	char *challenge, *args, *target, *task;
	char *require;             /* "LABEL OP NUMBER" (optional) */
	struct lesson_figure fig;
	struct lesson_rule cmp;
	double target_times;       /* the task: at least this many times as fast as target_ref */
	struct lesson_point target_ref;
	struct lesson_require req;
};

/* The lesson in text[0..len), for a file called `file` (messages name it,
 * and its base name less ".ini" names the lesson).  0; or EXIT_CONFIG
 * (EXIT_NOMEM) with one line in err.  lesson_free() either way. */
int lesson_parse(struct lesson *l, const char *file, const char *text, size_t len, char *err, size_t errlen);

/* The same, from a regular file of at most LESSON_MAX_BYTES. */
int lesson_load(struct lesson *l, const char *path, char *err, size_t errlen);

void lesson_free(struct lesson *l);

/* Split s into at most max words at blanks, into buf (of len bytes);
 * the count, or -1 where there are too many or they do not fit. */
int lesson_words(const char *s, char *buf, size_t len, char **words, int max);

struct lesson_set {
	struct lesson *v;
	size_t n;
};

/* Every *.ini in dir, in the order their `order` says (two lessons with
 * one order are refused).  0, or EXIT_CONFIG naming the file at fault. */
int lessons_load(struct lesson_set *s, const char *dir, char *err, size_t errlen);
void lessons_free(struct lesson_set *s);

/* The lesson called name, or NULL. */
const struct lesson *lessons_find(const struct lesson_set *s, const char *name);

/* The placeholders a lesson's `here` may hold, filled from its run by
 * gpulab learn: {figure} {lo} {hi} {a} {b} {a_peak} {b_peak} {a_gbps} {b_gbps}
 * {device};
 * and {docs}, the installed pages' directory, which any text may hold.
 * 1 where s names only these, else 0 with the first other in bad. */
int lesson_placeholders_valid(const char *s, int measured, char *bad, size_t len);

/* The lessons' directory: $GPULAB_LESSONS, else the one installed. */
const char *lessons_dir(void);

#endif

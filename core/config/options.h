/* The command line. */
#ifndef GPULAB_OPTIONS_H
#define GPULAB_OPTIONS_H

#include "config/params.h"

#include <stdint.h>
#include <stdio.h>

enum format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_MD, FORMATS };

/* Stop on noise, not on a count: a point repeats until the relative
 * standard deviation of its samples is at most max_noise and they add up
 * to min_time_s of GPU time, with at least MIN_SAMPLES.  It stops
 * unconverged when the noise has settled above the limit (as NVBench's
 * stdrel criterion does: past min_time_s, the noise measured every
 * STABLE_EVERY runs over the last STABLE_WINDOW such checks varies by
 * less than STABLE_SPREAD of itself, so more runs would not lower it:
 * the kernel is that noisy), or at timeout_s of wall clock (with at least
 * 3 samples).  An exact -r N, from the command line or an INI file,
 * overrides all of these. */
struct stopping {
	double max_noise;      /* --max-noise, a fraction: 0.005 (NVBench's 0.5%) */
	double min_time_s;     /* --min-time: 0.1 */
	double timeout_s;      /* --timeout: 10 */
};
#define STOP_DEFAULTS { .max_noise = 0.005, .min_time_s = 0.1, .timeout_s = 10 }
#define MIN_SAMPLES 10

/* --watchdog: how long one run may take before gpulab stops it; by
 * default only for exercises that run a user's code. */
#define WATCHDOG_DEFAULT_S 10
#define MAX_SAMPLES 1000000
#define STABLE_EVERY 64
#define STABLE_WINDOW 8
#define STABLE_SPREAD 0.05

/* A -p key=value pair. */
struct keyval {
	const char *key;   /* points into the argument, '=' replaced */
	const char *value;
};

#define MAX_KEYVALS 64
/* --config FILE given more than this is a mistake, not a configuration */
#define MAX_CONFIGS 8
/* --batch: K runs stay queued behind the hold until the last is
 * enqueued; a few thousand launches would fill the launch queue and
 * make the host wait for a held stream */
#define BATCH_MAX 1000

struct gpulab_group;

/* One key's values handed over typed, in the command line's place: a
 * generic key's or an exercise's own, typed as `type` (the declaration
 * the giver typed them by; the sweep narrows them by the exercise's). */
#define MAX_HANDED 16
#define HANDED_VALUES 4
struct handed_key {
	const char *key;
	enum gpulab_param_type type;
	size_t n;
	struct typed_value v[HANDED_VALUES];
	char text[256];   /* the values as one axis: "int,float" */
};

/* Every option, once: its id here and its row in options.c (spelling,
 * value, help line).  The first NGENERIC are the generic keys, in
 * enum generic's order. */
enum opt_id {
	OPT_SIZE, OPT_BLOCK, OPT_TYPE, OPT_REPS, OPT_WARMUP, OPT_PARAM, OPT_COLD, OPT_BATCH, OPT_FORMAT,
	OPT_MAX_NOISE, OPT_MIN_TIME, OPT_TIMEOUT, OPT_OUTPUT, OPT_RESUME, OPT_SAMPLES, OPT_WIDE, OPT_NO_VERIFY,
	OPT_QUIET, OPT_PROFILE, OPT_METRICS, OPT_WATCHDOG, OPT_FAIL_ABOVE, OPT_MIN_CHANGE, OPT_BASE, OPT_NEW,
	OPT_TEMPLATE, OPT_SUBMIT, OPT_TEST, OPT_VARIABLE, OPT_CFLAGS, OPT_NCCL_TESTS, OPT_CONFIG, OPT_HELP, OPT_VERSION,
	NOPTS
};
#define OPT_BIT(id) (UINT64_C(1) << (id))
/* Taken by every command: the general help's options. */
#define OPT_GLOBAL (OPT_BIT(OPT_CONFIG) | OPT_BIT(OPT_HELP) | OPT_BIT(OPT_VERSION))

/* How an option's value is typed into struct options, as a plugin
 * parameter's is: most by their row alone, the few with a grammar of
 * their own by options.c (parse_own). */
enum opt_kind {
	OPTK_OWN,    /* options.c's parse_own */
	OPTK_FLAG,   /* the int at `at` becomes `set` */
	OPTK_TEXT,   /* the const char * at `at` is the argument */
	OPTK_NUMBER, /* the double at `at`: a decimal number from lo to hi, times scale */
};

/* One option as the command line spells it, help shows it, and parsing
 * types it. */
struct option_row {
	const char *name;    /* --name */
	char letter;         /* -x, or 0 */
	int arg;             /* getopt's no_argument, required_argument, optional_argument */
	const char *value;   /* the value's name in help: "N", "FILE"; NULL for none */
	const char *help;    /* its help line; a newline continues it under itself */
	enum opt_kind kind;
	size_t at;           /* offsetof(struct options, its field) */
	int set;             /* OPTK_FLAG's value */
	double lo, hi, scale; /* OPTK_NUMBER's range, and the factor its value is stored times */
};
extern const struct option_row option_rows[NOPTS];

struct options {
	const char *command;       /* the command's name as given; NULL for none (or --version) */
	int help;                  /* -h, --help: the command's help */
	int version;               /* --version: the version command's */
	uint64_t given;            /* OPT_BIT(id) of every option given: each command refuses those it does not take */
	char **patterns;           /* run's exercise names; compare's and report's records; try's CHALLENGE and FILE */
	int npatterns;
	/* -n, -b, -t, -r and -w as given, typed once here against the
	 * generic declarations (axes[g].text is the text; .n is 0 where
	 * not given): config/sweep.c only narrows these values by each
	 * exercise's declaration */
	struct typed_axis axes[NGENERIC];
	/* axes[g].text, read by learn/grade.c alone, which passes the
	 * user's -n ... on to the gpulab it runs; nothing reads a value here */
	const char *generic[NGENERIC];
	struct keyval params[MAX_KEYVALS]; /* -p: typed by the sweep, which alone knows each key's declaration */
	int nparams;
	/* Values that code hands a sweep in the command line's place,
	 * typed (options_hand): --profile's one run, check's plans at the
	 * keys' limits, try's gate cases.  Held here, not on the heap, so
	 * that a copy of the options made for one case owns its own. */
	struct handed_key handed[MAX_HANDED];
	int nhanded;
	int cold, verify, quiet;
	unsigned batch;            /* --batch K: runs per timed sample; 1 without */
	int profile;               /* --profile: -r 1 -w 0, for ncu and nsys */
	int samples;               /* --samples: the samples in the JSON report */
	unsigned samples_keep;     /* --samples N or all: the most samples a point keeps, in the report
				    * and the record; 0: the default (4096), UINT_MAX: all */
	int wide;                  /* --wide: the table's every column, not the 100 that fit */
	struct stopping stop;
	double watchdog;           /* --watchdog S: 0 never; -1: not given */
	int template_only;         /* try --template */
	int test_only;             /* try --test, grade --test: the gate alone, nothing timed */
	const char *submit;        /* learn LESSON --submit FILE.cu */
	const char *variable;      /* config --variable NAME: gpulab.pc's NAME, as pkg-config says it */
	int cflags;                /* config --cflags: gpulab.pc's Cflags */
	const char *nccl_tests;    /* report --nccl-tests FILE: nccl-tests' output, drawn beside */
	const char *output;        /* -o, --output FILE: run's JSON record, samples included; report's page */
	int resume;                /* --resume: run only the points the -o FILE lacks */
	double fail_above;         /* compare --fail-above PCT; -1 without */
	double min_change;         /* compare --min-change PCT: smaller changes are "same"; 0 without */
	const char *base_exercise; /* compare --base EX and --new EX: one exercise */
	const char *new_exercise;  /* against another; NULL without */
	enum format format;
	const char *configs[MAX_CONFIGS]; /* --config FILE, each given, in order: read in that order */
	int nconfigs;
	const char *metrics;       /* --metrics LIST, or NULL */
	char command_line[4096];   /* argv as given, shell-quoted where needed: for the records */
	/* Under a launcher (run/group.h), set once the ranks have met: */
	const struct gpulab_group *group; /* the ranks, handed to every exercise */
	uint64_t seed_base;        /* rank 0's, so that every rank draws the same "random" seeds */
};

/* Parse argv (which it may modify).  Returns 0, or EXIT_USAGE (or
 * EXIT_NOMEM) with one line in err; either way, options_free frees it. */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* The typed axes. */
void options_free(struct options *o);

/* Hand key d->key's n values, typed as d declares them, to every sweep
 * resolved from o, in the command line's place (the last given wins; a
 * PATH's value points at text that must outlive o).  0, or EXIT_USAGE:
 * more than MAX_HANDED keys or HANDED_VALUES values. */
int options_hand(struct options *o, const struct gpulab_param *d, const struct param_value *v, size_t n);

/* The same from text: the axis `text` typed once, here, as d declares
 * it (for values declared as text: a gate's cases).  0, or EXIT_USAGE
 * with why (a value d refuses, or too many). */
int options_hand_text(struct options *o, const struct gpulab_param *d, const char *text, char *why, size_t len);

/* The values handed over for key, or NULL. */
const struct handed_key *options_handed(const struct options *o, const char *key);

/* The value of a -p key, or NULL. */
const char *options_param(const struct options *o, const char *key);

/* How the command line spells generic key g: "-n" ... "-w". */
const char *options_flag(enum generic g);

/* How the command line gives a sweep key a value: "-n 2^20" for generic
 * key g (>= 0), "-p key=value" for an exercise's own key (g < 0); with
 * value NULL the option alone, "-n" or "-p key".  Into buf. */
const char *options_key_spelling(int g, const char *key, const char *value, char *buf, size_t len);

/* Option id as a command line spells it: "--size"; its letter "-n",
 * or "--cold" where it has none.  What gpulab passes to the gpulab it
 * runs (grade, learn) is spelled so, from the rows. */
const char *options_long(enum opt_id id);
const char *options_short(enum opt_id id);

/* Option id as one word: "-n/--size", "--cold". */
const char *options_spelling(enum opt_id id, char *buf, size_t len);

/* Format f's name: "table", "csv", "json", "md". */
const char *options_format_name(enum format f);

#endif

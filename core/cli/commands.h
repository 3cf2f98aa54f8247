/* What the commands share: loading is in cli/load.c, `run` in cli/run.c
 * (the session it runs is session/'s), `try` in cli/try.c, and the
 * dispatch in cli/main.c calls them. */
#ifndef GPULAB_COMMANDS_H
#define GPULAB_COMMANDS_H

#include "command_names.h"
#include "config/options.h"
#include "config/settings.h"
#include "fail.h"
#include "plugins/registry.h"

/* An option whose help line is a command's own ("-o" is report's page,
 * run's record). */
struct opt_help {
	enum opt_id id;
	const char *help;
};

/* One command, said once: its row drives the parsing's checks, the
 * dispatch, `gpulab help X` and `X -h`, and the completion and the man
 * page are tested against it (tests/completion.sh, tests/rows.sh). */
struct command_row {
	const char *name;
	const char *args;      /* "[PATTERN...]": usage's and the general help's */
	const char *summary;   /* the general help's line; a '\n' continues it */
	const char *usage;     /* a second form of usage, or NULL */
	const char *about;     /* help's paragraph */
	int max_args;          /* more arguments are refused; -1: any number */
	uint64_t options;      /* OPT_BIT of each option it takes, beside OPT_GLOBAL */
	unsigned formats;      /* FORMAT_BIT of each --format it prints; 0: it takes no --format */
	const struct opt_help *own; /* its own help lines of some options, NULL-ended */
	const char *examples;  /* a line each */
	const char *page;      /* the installed page its help cites, or NULL */
	int (*run)(const struct options *o);
};
#define FORMAT_BIT(f) (1u << (f))
#define ALL_FORMATS (FORMAT_BIT(FORMAT_TABLE) | FORMAT_BIT(FORMAT_CSV) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_MD))
#define GENERIC_OPTIONS (OPT_BIT(OPT_SIZE) | OPT_BIT(OPT_BLOCK) | OPT_BIT(OPT_TYPE) | OPT_BIT(OPT_REPS) \
			 | OPT_BIT(OPT_WARMUP) | OPT_BIT(OPT_PARAM))
#define STOP_OPTIONS (OPT_BIT(OPT_MAX_NOISE) | OPT_BIT(OPT_MIN_TIME) | OPT_BIT(OPT_TIMEOUT) | OPT_BIT(OPT_WATCHDOG))
/* run's, which try takes too */
#define RUN_OPTIONS (GENERIC_OPTIONS | STOP_OPTIONS | OPT_BIT(OPT_COLD) | OPT_BIT(OPT_BATCH) | OPT_BIT(OPT_OUTPUT) \
		     | OPT_BIT(OPT_RESUME) | OPT_BIT(OPT_SAMPLES) | OPT_BIT(OPT_WIDE) | OPT_BIT(OPT_NO_VERIFY) \
		     | OPT_BIT(OPT_QUIET) | OPT_BIT(OPT_PROFILE) | OPT_BIT(OPT_METRICS))

/* Each command's row, beside its work. */
extern const struct command_row row_list, row_info, row_metrics, row_config, row_run, row_try, row_learn,
	row_grade, row_board, row_compare, row_report, row_record, row_new, row_check, row_help, row_version;

/* The command called name, or NULL (cli/table.c). */
const struct command_row *command_named(const char *name);

/* The i-th command, in the general help's order; NULL past the last. */
const struct command_row *command_at(size_t i);

/* The general help for NULL, else command name's, on out: 0,
 * or EXIT_USAGE with one line on stderr where there is no such command
 * (cli/help.c). */
int help_show(const char *name, FILE *out);

/* Load the INI files and every plugin they name.  With warn, say in one
 * line each which plugins failed (but those o's patterns name: selecting
 * them says why).  *broken is EXIT_CONFIG where a plugin failed for a
 * fault of the INI files (a value its declaration refuses), else 0: a
 * plugin that cannot be loaded fails only a command that asks for it. */
int load(const struct options *o, struct config *c, struct registry *r, int warn, int *broken);

/* `gpulab run` with o's exercises and options. */
int cmd_run(const struct options *o);

/* `gpulab try CHALLENGE FILE.cu`, or `gpulab try CHALLENGE --template`. */
int cmd_try(const struct options *o);
/* try NAME-or-DIR --template: the challenge read, its template planned
 * (compiled: no GPU needed), and with print, printed.  0, or the exit
 * code, said (EXIT_CHALLENGE for a template that fails its plan). */
int try_template(const struct options *o, const char *arg, int print);

/* `gpulab learn [LESSON [--submit FILE.cu]]`: its arguments (cli/learning.c); the
 * lessons are learn/'s. */
int cmd_learn(const struct options *o);

/* `gpulab grade CHALLENGE DIR...`: its arguments (cli/learning.c); the
 * grading is learn/grade.c's. */
int cmd_grade(const struct options *o);

/* `gpulab config [EXERCISE...]`: the files read, the plugin directories,
 * and where each of an exercise's values comes from (cli/config.c). */
int cmd_config(const struct options *o);

/* `gpulab new NAME`: a plugin skeleton in NAME/ (cli/new.c). */
int cmd_new(const struct options *o);

/* `gpulab check FILE.so...`: a plugin checked without a GPU (cli/check.c). */
int cmd_check(const struct options *o);

#endif
